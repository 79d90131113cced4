import { summarizePullRequest } from "../../domain/pull-request.js";
import type { ReviewGraphDeps } from "../deps.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";

/** Builds the one `PullRequest` value (from GitHub or a fixture). A failure goes to a person. */
export function intakeNode(deps: ReviewGraphDeps) {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    try {
      const r = await deps.loader.load(state.source);
      await deps.pullRequests.put(state.reviewId, r.pr);
      return {
        pr: summarizePullRequest(r.pr),
        snapshot: r.snapshot,
        intakeProblem: r.incomplete ?? null,
        config: deps.config,
      };
    } catch (error) {
      const detail = `could not load the pull request: ${(error as Error).message}`;
      deps.log.error({ err: error, reviewId: state.reviewId }, "intake failed");
      return { intakeProblem: detail, escalation: { reason: "intake_failed", detail } };
    }
  };
}
