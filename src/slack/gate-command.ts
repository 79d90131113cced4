import type { ReviewService } from "../domain/review.js";
import { deciderLists } from "../review/decision-policy.js";
import { cardLink } from "./card-link.js";
import { escapeMrkdwn, mrkdwnLink, truncateMrkdwn } from "./mrkdwn.js";
import { parseReviewRef } from "./review-ref.js";
import { renderStatusText } from "./status-text.js";
import { formatAge, mentionOf } from "./thread-notes.js";

/** What `/gate help` says: every command. */
export const GATE_USAGE = [
  "*/gate* commands (answers only you see):",
  "• `/gate status <PR>` or just `/gate <PR>`: where a review stands. `<PR>` is `owner/repo#123`, a PR URL, `#123` (default repository) or a review id `r-…`",
  "• `/gate list`: reviews waiting for a decision, oldest first, with their age and who may decide",
  "• `/gate rerun <PR>`: review the PR's head again (approvers only); the new card is posted in the PR's thread",
  "• `/gate help`: this list",
  "Decisions are made with the buttons on the review's card (Approve, Approve with a note, Reject, Request info, Re-run).",
].join("\n");

/** At most this many waiting reviews are listed. */
const LIST_MAX = 20;

export interface GateCommandDeps {
  service: ReviewService;
  defaultRepo?: string;
  /** Re-runs the newest review of a PR for the person who typed the command; answers what happened. */
  rerun?: (reviewId: string) => Promise<string>;
  /** The time ages are measured from. */
  now?: () => Date;
  /** GitHub Enterprise Server's web address: its PR URLs are references too. */
  githubWebUrl?: string;
}

/**
 * Answers the text of a `/gate` command (mrkdwn, shown only to the person who typed it).
 *
 * @example await answerGateCommand("status acme/web#12", { service, defaultRepo: "acme/web" })
 */
export async function answerGateCommand(text: string, deps: GateCommandDeps): Promise<string> {
  const [sub = "", ...rest] = text
    .trim()
    .split(/\s+/)
    .filter((s) => s !== "");
  const verb = sub.toLowerCase();
  if (verb === "" || verb === "help") return GATE_USAGE;
  if (verb === "list") return listWaiting(deps);
  if (verb === "status" || verb === "rerun") {
    if (rest.length !== 1)
      return `Usage: \`/gate ${verb} owner/repo#123\` (or a PR URL, \`#123\`, or a review id \`r-…\`).`;
    return verb === "status" ? status(rest[0] ?? "", deps) : rerun(rest[0] ?? "", deps);
  }
  // A bare reference means status.
  if (rest.length === 0 && parseReviewRef(sub, deps.defaultRepo, deps.githubWebUrl).ok) return status(sub, deps);
  return `Unknown command \`${escapeMrkdwn(truncate(sub))}\`.\n${GATE_USAGE}`;
}

async function status(arg: string, deps: GateCommandDeps): Promise<string> {
  const ref = parseReviewRef(arg, deps.defaultRepo, deps.githubWebUrl);
  if (!ref.ok) return `${ref.why}.`;
  const result = await deps.service.status(ref.ref);
  if (!result) return `No review found for ${escapeMrkdwn(ref.ref)}.`;
  return renderStatusText(result, await deps.service.get(result.review_id));
}

async function rerun(arg: string, deps: GateCommandDeps): Promise<string> {
  if (!deps.rerun) return "Re-runs are not available here.";
  const ref = parseReviewRef(arg, deps.defaultRepo, deps.githubWebUrl);
  if (!ref.ok) return `${ref.why}.`;
  const result = await deps.service.status(ref.ref);
  if (!result) return `No review found for ${escapeMrkdwn(ref.ref)}.`;
  return deps.rerun(result.review_id);
}

async function listWaiting(deps: GateCommandDeps): Promise<string> {
  const waiting = await deps.service.listWaiting();
  if (waiting.length === 0) return "Nothing is waiting for a decision.";
  const now = (deps.now ?? (() => new Date()))().getTime();
  const lines = [`*${waiting.length} review(s) waiting for a decision*, oldest first:`];
  const oldestFirst = [...waiting].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  for (const review of oldestFirst.slice(0, LIST_MAX)) {
    const result = await deps.service.status(review.id);
    const blocking = (result?.findings ?? []).filter((f) => f.blocking).map((f) => f.specialty);
    // Once some approved (per specialty), only who is still needed.
    const lists = result?.approvals_needed ?? deciderLists(deps.service.approvers, blocking);
    const who = lists.length > 0 ? lists.map((l) => l.ids.map(mentionOf).join(" ")).join(" and ") : "nobody configured";
    const link = cardLink(review);
    const pr = link ? mrkdwnLink(link, review.pr) : escapeMrkdwn(review.pr);
    lines.push(`• ${pr} · waiting ${formatAge(now - Date.parse(review.createdAt))} · may decide: ${who}`);
  }
  if (waiting.length > LIST_MAX) lines.push(`• +${waiting.length - LIST_MAX} more (App Home lists them)`);
  return truncateMrkdwn(lines.join("\n"), 3000);
}

function truncate(s: string): string {
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}
