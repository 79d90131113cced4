import type { RefusalStyle } from "./decision.js";
import type { ApprovalNeed, Coverage, ReviewResult } from "./review-result.js";

/** "security", "licensing", or "the review" for an approval of a review with nothing blocking by specialty. */
const coverageName = (c: Coverage) => (c === "general" ? "the review" : c);

/** "the general approvers" or "the security approvers". */
const listName = (n: ApprovalNeed) => `the ${n.from === "general" ? "general" : n.from} approvers`;

/**
 * Who approved what and what still needs whom, one line each, for a review whose blocking
 * specialties need approvers of their own (every door shows the same words; Slack mentions people).
 * Empty when the result has no such approvals.
 *
 * @example approvalLines(result, PLAIN_STYLE) // ["security approved by USEC at 2026-…", "licensing still needs one of the general approvers: UGEN, UOTHER"]
 */
export function approvalLines(
  result: Pick<ReviewResult, "approvals" | "approvals_needed">,
  style: RefusalStyle,
): string[] {
  const given = (result.approvals ?? []).map(
    (a) =>
      `${a.covers.map(coverageName).join(" and ") || "nothing new"} approved by ${style.person(a.by)} at ${style.date(a.at)}`,
  );
  const needed = (result.approvals_needed ?? []).map((n) =>
    n.ids.length > 0
      ? `${coverageName(n.covers)} still needs one of ${listName(n)}: ${n.ids.map(style.person).join(", ")}`
      : `${coverageName(n.covers)} still needs ${listName(n)}, and none are configured`,
  );
  return [...given, ...needed];
}
