import { blockingUnread } from "../../domain/coverage.js";
import { reconcile, type ReconcileOutcome } from "../reconcile.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";

/** Applies the rule ladder and records where the review goes next (read by the edge below). */
export function reconcileNode() {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    const outcome: ReconcileOutcome = reconcile({
      findings: state.findings,
      detections: state.detections,
      escalation: state.escalation,
      investigations: state.investigations,
      cyclesMax: state.cyclesMax,
      costUsd: state.usage.cost_usd ?? 0,
      maxCostUsd: state.maxCostUsd,
      lookupFailures: state.lookupFailures,
      unread: blockingUnread(state.coverage),
      incomplete: [
        ...(state.intakeProblem ? [state.intakeProblem] : []),
        ...state.detectorErrors.map((d) => `detector ${d} failed`),
      ],
    });
    return {
      next: outcome.next,
      ...(outcome.escalation ? { escalation: outcome.escalation } : {}),
      ...(outcome.question ? { pendingQuestion: outcome.question } : {}),
    };
  };
}

/** reconcile's edge: exactly the route it chose. */
export function routeAfterReconcile(state: ReviewStateValue): "investigate" | "human_gate" | "verdict" {
  return state.next ?? "human_gate";
}
