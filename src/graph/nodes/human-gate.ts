import type { Clock } from "../../domain/clock.js";
import { interrupt } from "@langchain/langgraph";
import { toResultFinding } from "../../domain/review-result.js";
import { budgetOf, investigationRefusal } from "../budget.js";
import { ResumeSchema, type HumanGatePayload } from "../../domain/human-gate.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";
import { prKey } from "../../domain/pull-request.js";

/**
 * Waits for a person. Nothing with side effects sits before `interrupt()`: on resume this node
 * runs again from the top. An unknown resume value, or an info request with no cycle left, is
 * refused by asking again (the runner refuses those before resuming, too).
 */
export function humanGateNode(clock: Clock) {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    const payload: HumanGatePayload = {
      reviewId: state.reviewId,
      pr: state.pr ? prKey(state.pr) : "",
      title: state.pr?.title ?? "",
      risk: state.risk,
      findings: Object.values(state.findings)
        .flatMap((b) => b?.findings ?? [])
        .map(toResultFinding),
      escalation: state.escalation,
      budget: { cycles_used: state.investigations.length, cycles_max: state.cyclesMax },
    };
    const parsed = ResumeSchema.safeParse(interrupt(payload));
    if (!parsed.success) return {};
    const resume = parsed.data;
    if (resume.kind === "info") {
      if (investigationRefusal(budgetOf(state, state.cyclesMax)) || !state.pr) return {};
      return { pendingQuestion: { question: resume.question, origin: "human", askedBy: resume.by, findings: [] } };
    }
    return {
      decision: {
        kind: resume.kind,
        by: resume.by,
        at: clock().toISOString(),
        ...(resume.note ? { note: resume.note } : {}),
        ...(resume.kind === "approve" && resume.approvals ? { approvals: resume.approvals } : {}),
        ...(resume.via ? { via: resume.via } : {}),
        ...(resume.carried ? { carried_from: resume.carried } : {}),
      },
    };
  };
}

/** A decision ends the review; a question goes to the investigator; anything else asks again. */
export function routeAfterHumanGate(state: ReviewStateValue): "verdict" | "investigate" | "human_gate" {
  if (state.decision) return "verdict";
  if (state.pendingQuestion?.origin === "human") return "investigate";
  return "human_gate";
}
