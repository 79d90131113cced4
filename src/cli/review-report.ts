import type { Gate } from "../build-gate.js";
import type { Policy } from "../domain/policy.js";
import type { ReviewResult } from "../domain/review-result.js";
import { approversWith } from "../gate-file/approvers-with.js";
import type { EffectiveConfig } from "../gate-file/effective.js";
import type { DeciderLine } from "../github/step-summary.js";
import { parsePolicyTexts } from "../policy/load-policies.js";
import { deciderLists } from "../review/decision-policy.js";

/** What a review's SARIF and summary need besides its result: the policies it was held to, and who may decide it. */
export interface ReviewReportParts {
  policies: Policy[];
  deciders: DeciderLine[];
}

/**
 * The policies a review was held to (the corpus, then the repository's own policy files kept with
 * its configuration) and who may decide it: the approvals it still needs, or the lists the one
 * decision policy asks for its blocking specialties (`deciderLists`), with the configuration's
 * approvers over GATE_APPROVERS*, as Slack's `/gate list` names them.
 *
 * @example const { policies, deciders } = await reviewReportParts(gate, result);
 */
export async function reviewReportParts(gate: Gate, result: ReviewResult): Promise<ReviewReportParts> {
  const config = await gate.reviewConfig(result.review_id);
  // The repository's files were checked at intake; one that no longer parses names no rule, and its
  // findings still get a bare one (buildSarif).
  let own: Policy[] = [];
  try {
    own = parsePolicyTexts(config?.repoPolicies ?? []);
  } catch {
    own = [];
  }
  return { policies: [...gate.policies, ...own], deciders: decidersOf(gate, result, config) };
}

function decidersOf(gate: Gate, result: ReviewResult, config: EffectiveConfig | undefined): DeciderLine[] {
  const blocking = [...new Set(result.findings.filter((f) => f.blocking).map((f) => f.specialty))];
  return result.approvals_needed
    ? result.approvals_needed.map((n) => ({ covers: n.covers === "general" ? "an approval" : n.covers, ids: n.ids }))
    : deciderLists(approversWith(gate.runner.approvers, config?.approvers), blocking).map((l) => ({
        covers: l.specialty ?? "an approval",
        ids: l.ids,
      }));
}

/**
 * Who may decide a review, as `reviewReportParts` names them (the server's PR summary comment).
 *
 * @example const deciders = await reviewDeciders(gate, result);
 */
export async function reviewDeciders(gate: Gate, result: ReviewResult): Promise<DeciderLine[]> {
  return decidersOf(gate, result, await gate.reviewConfig(result.review_id));
}
