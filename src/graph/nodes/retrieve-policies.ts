import { SPECIALTIES, type Specialty } from "../../domain/finding.js";
import { retrievePolicies } from "../../policy/retrieve.js";
import { reviewedPullRequest, type ReviewGraphDeps } from "../deps.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";

/** Picks, per specialty, the policies relevant to this PR. */
export function retrievePoliciesNode(deps: ReviewGraphDeps) {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    const pr = await reviewedPullRequest(deps, state);
    if (!pr) return {};
    const retrieved: Partial<Record<Specialty, string[]>> = {};
    for (const s of SPECIALTIES) retrieved[s] = retrievePolicies(deps.policies, pr, state.detections, s);
    return { retrieved };
  };
}
