import { routeOfDecision } from "../../domain/decision.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";

/** Names where the review ended: a person's decision, the specialists' approval, or the risk gate's. */
export function verdictNode() {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    if (state.decision) return { route: routeOfDecision(state.decision.kind) };
    const specialistsRan = Object.keys(state.findings).length > 0;
    return { route: specialistsRan ? "approved" : "auto_approved" };
  };
}
