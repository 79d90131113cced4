import { coverageComplete } from "../../domain/coverage.js";
import { Turns } from "../../domain/turns.js";
import { assessRisk, fileKinds } from "../../risk/assess-risk.js";
import type { ChangeKind } from "../../risk/classify-file.js";
import { configOf, reviewedPullRequest, type ReviewGraphDeps } from "../deps.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";

/** Cost gate one: scores the change. */
export function assessRiskNode(deps: Pick<ReviewGraphDeps, "pullRequests" | "server" | "configs">) {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    const pr = await reviewedPullRequest(deps, state);
    if (!pr) return {};
    const paths = (await configOf(deps, state)).risk;
    // Each file's kind a few at a time, taking turns: 3,000 files take the thread for 10-20 ms.
    const kindOf = fileKinds(paths);
    const kinds: ChangeKind[] = [];
    const turns = new Turns();
    for (const f of pr.files) {
      if (turns.due()) await turns.take();
      kinds.push(kindOf(f));
    }
    return { risk: assessRisk(pr, state.detections, state.detectorErrors, paths, kinds) };
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
