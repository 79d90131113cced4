import type { ApproverConfig } from "../domain/decision.js";
import type { ReviewResult } from "../domain/review-result.js";
import type { ReviewRecord } from "../domain/review.js";
import { authorSlackId, deciderLists } from "../review/decision-policy.js";
import type { WhoToAsk } from "./thread-notes.js";

export type { ApproverConfig } from "../domain/decision.js";

/** Every user-group id (S…) the config names, for `resolveUserGroups`. */
export function groupIdsIn(config: ApproverConfig): string[] {
  const all = [...config.approvers, ...Object.values(config.bySpecialty ?? {}).flat()];
  return [...new Set(all.filter((id) => id.startsWith("S")))];
}

/**
 * The user groups a click must read to judge `userId`: those on the approver lists (general or a
 * specialty's) that do not name the person by id. A person listed by id on every list that names
 * a group needs no look-up at all, so a slow `usergroups.users.list` never holds their decision.
 *
 * @example groupIdsToRead({ approvers: ["U1", "S1"], bySpecialty: { security: ["S2"] } }, "U1") // ["S2"]
 */
export function groupIdsToRead(config: ApproverConfig, userId: string): string[] {
  const lists = [config.approvers, ...Object.values(config.bySpecialty ?? {})];
  const unlisted = lists.filter((list) => !list.includes(userId)).flat();
  return [...new Set(unlisted.filter((id) => id.startsWith("S")))];
}

/**
 * Who a waiting review asks in Slack: everyone on the lists the decision policy requires for its
 * blocking specialties (or the general approvers), only those still needed once some approved,
 * and the PR's author when GATE_GITHUB_TO_SLACK maps them.
 *
 * @example whoToAsk({ approvers: ["S1"], githubToSlack: { octocat: "U2" } }, review, result) // { approvers: ["S1"], author: "U2" }
 */
export function whoToAsk(config: ApproverConfig, review: ReviewRecord, result: ReviewResult): WhoToAsk {
  const blocking = result.findings.filter((f) => f.blocking).map((f) => f.specialty);
  const lists = result.approvals_needed ?? deciderLists(config, blocking);
  const approvers = [...new Set(lists.flatMap((l) => l.ids))];
  const author = review.author ? authorSlackId(review.author, config.githubToSlack) : undefined;
  return { approvers, ...(author ? { author } : {}) };
}
