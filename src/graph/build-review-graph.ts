import { END, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import type { Clock } from "../domain/clock.js";
import type { ReviewGraphDeps } from "./deps.js";
import { assessRiskNode, routeAfterRisk } from "./nodes/assess-risk.js";
import { detectNode } from "./nodes/detect.js";
import { humanGateNode, routeAfterHumanGate } from "./nodes/human-gate.js";
import { intakeNode } from "./nodes/intake.js";
import { investigateNode } from "./nodes/investigate.js";
import { reconcileNode, routeAfterReconcile } from "./nodes/reconcile.js";
import { retrievePoliciesNode } from "./nodes/retrieve-policies.js";
import { specialistNode } from "./nodes/specialist.js";
import { verdictNode } from "./nodes/verdict.js";
import { ReviewState, type ReviewStateValue } from "./state.js";

/**
 * The review graph, as docs/design.md draws it. This file only wires.
 *
 * @example const graph = buildReviewGraph(deps, { checkpointer: new SqliteSaver(db), clock: systemClock });
 */
export function buildReviewGraph(
  deps: ReviewGraphDeps,
  { checkpointer, clock }: { checkpointer: BaseCheckpointSaver; clock: Clock },
) {
  return (
    new StateGraph(ReviewState)
      .addNode("intake", intakeNode(deps))
      .addNode("detect", detectNode(deps))
      .addNode("assess_risk", assessRiskNode(deps))
      .addNode("retrieve_policies", retrievePoliciesNode(deps))
      .addNode("security", specialistNode(deps, "security"))
      .addNode("licensing", specialistNode(deps, "licensing"))
      .addNode("data", specialistNode(deps, "data"))
      .addNode("reconcile", reconcileNode())
      .addNode("investigate", investigateNode(deps))
      .addNode("human_gate", humanGateNode(clock))
      .addNode("verdict", verdictNode())
      // Every review starts by building its PullRequest.
      .addEdge(START, "intake")
      // No PR at all (intake failed): only a person can say what happens now.
      .addConditionalEdges("intake", (s: ReviewStateValue) => (s.pr ? "detect" : "human_gate"), [
        "detect",
        "human_gate",
      ])
      // Detectors are free, so every PR gets them before any judgement of risk.
      .addEdge("detect", "assess_risk")
      // Cost gate one: low risk with nothing detected ends here with zero model calls.
      .addConditionalEdges("assess_risk", routeAfterRisk(deps), ["verdict", "retrieve_policies"])
      // The three specialists run in parallel, in one superstep.
      .addEdge("retrieve_policies", "security")
      .addEdge("retrieve_policies", "licensing")
      .addEdge("retrieve_policies", "data")
      // After an investigation the specialists review again, with the report in state.
      .addEdge("investigate", "security")
      .addEdge("investigate", "licensing")
      .addEdge("investigate", "data")
      // reconcile waits for all three specialists.
      .addEdge(["security", "licensing", "data"], "reconcile")
      // The rule ladder picks exactly one way on.
      .addConditionalEdges("reconcile", routeAfterReconcile, ["investigate", "human_gate", "verdict"])
      // A person approves, rejects, or asks a question (which spends a cycle).
      .addConditionalEdges("human_gate", routeAfterHumanGate, ["verdict", "investigate", "human_gate"])
      // The verdict is the end; publishing it is the runner's job, outside the graph.
      .addEdge("verdict", END)
      .compile({ checkpointer })
  );
}

export type ReviewGraph = ReturnType<typeof buildReviewGraph>;
