import { SPECIALTIES, type Specialty } from "../../domain/finding.js";
import { retrievePolicies } from "../../policy/retrieve.js";
import { configOf, ownPolicies, reviewedPullRequest, type ReviewGraphDeps } from "../deps.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";

/** Picks, per specialty, the policies relevant to this PR. */
export function retrievePoliciesNode(deps: ReviewGraphDeps) {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    const pr = await reviewedPullRequest(deps, state);
    if (!pr) return {};
    // The repository's own policies are retrieved beside the server's (a specialist reads their prose too).
    const own = ownPolicies(await configOf(deps, state));
    const corpus = own.length > 0 ? [...deps.policies, ...own] : deps.policies;
    const retrieved: Partial<Record<Specialty, string[]>> = {};
    for (const s of SPECIALTIES) retrieved[s] = await retrievePolicies(corpus, pr, state.detections, s);
    return { retrieved };
  };
}
