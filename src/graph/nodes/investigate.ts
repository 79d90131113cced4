import type { InvestigationRequest } from "../../domain/investigation.js";
import { reviewedPullRequest, type ReviewGraphDeps } from "../deps.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";

/**
 * Cost gate two: answers the pending question from the PR's snapshot, then the specialists run
 * again with the report. A machine question clears the escalation for the new round; a person's
 * question keeps it, so the review comes back to them with the answer.
 */
export function investigateNode(deps: ReviewGraphDeps) {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    const pr = await reviewedPullRequest(deps, state);
    const request: InvestigationRequest = state.pendingQuestion ?? {
      question: "Is the change safe in the context of the surrounding code?",
      origin: "machine",
      findings: [],
    };
    if (!pr) return { pendingQuestion: null };
    const report = await deps.investigator.investigate(request, {
      pr,
      snapshot: state.snapshot,
      onProgress: (p) => deps.onProgress?.({ reviewId: state.reviewId, ...p }),
    });
    return {
      investigations: [report],
      pendingQuestion: null,
      round: state.round + 1,
      usage: report.usage,
      ...(request.origin === "machine" ? { escalation: "clear" as const } : {}),
    };
  };
}
