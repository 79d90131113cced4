import { coverageComplete } from "../../domain/coverage.js";
import { assessRisk } from "../../risk/assess-risk.js";
import { configOf, reviewedPullRequest, type ReviewGraphDeps } from "../deps.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";

/** Cost gate one: scores the change. */
export function assessRiskNode(deps: Pick<ReviewGraphDeps, "pullRequests" | "server" | "configs">) {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    const pr = await reviewedPullRequest(deps, state);
    if (!pr) return {};
    return { risk: assessRisk(pr, state.detections, state.detectorErrors, (await configOf(deps, state)).risk) };
  };
}

/** Below the threshold, nothing detected, nothing unread or missing, every lookup answered: no specialist runs. */
export function routeAfterRisk(deps: Pick<ReviewGraphDeps, "server" | "configs">) {
  return async (state: ReviewStateValue): Promise<"verdict" | "retrieve_policies"> => {
    const clean =
      state.detections.length === 0 &&
      state.detectorErrors.length === 0 &&
      state.lookupFailures.length === 0 &&
      coverageComplete(state.coverage) &&
      !state.intakeProblem;
    return clean && state.risk !== null && state.risk.score < (await configOf(deps, state)).risk.threshold
      ? "verdict"
      : "retrieve_policies";
  };
}
