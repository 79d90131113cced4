import { receiveDecision } from "../../src/review/decision-record.js";
import fs from "node:fs";
import { Command } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { reviewFixture, testGate, type TestGate } from "../helpers/gate.js";

let gates: Array<TestGate> = [];
afterEach(async () => {
  for (const g of gates) await g.close();
  for (const dir of new Set(gates.map((g) => g.dir))) fs.rmSync(dir, { recursive: true, force: true });
  gates = [];
});

async function open(dir?: string) {
  const g = await testGate({}, {}, dir);
  gates.push(g);
  return g;
}

/** The process dies (its gate closed as is) and a new one opens the same database. */
async function restart(first: TestGate) {
  await first.close();
  gates = [];
  return open(first.dir);
}

/** What the audit log says of alice's decision on a review, in order. */
async function outcomesOfAlice(g: TestGate, reviewId: string) {
  return (await g.store.auditFor(reviewId)).filter((e) => e.actor === "alice").map((e) => e.outcome);
}

describe("a decision received before a crash", () => {
  it("is applied once on restart: the review approved, one 'received' and one 'applied' in the audit log", async () => {
    const first = await open();
    const waiting = await reviewFixture(first, "002_new_dependency");
    expect(waiting.status).toBe("waiting_for_human");
    // What decide does before Slack is answered; then the process dies before applying it.
    expect(
      await receiveDecision(
        first.store,
        waiting.review_id,
        { kind: "approve", by: "alice", note: "cleared by legal" },
        "slack",
      ),
    ).toBe(true);
    const second = await restart(first);
    expect((await second.store.get(waiting.review_id))?.status).toBe("running");
    const recovered = await second.runner.recover();
    expect(recovered.applied).toBe(1);
    const result = await second.runner.status(waiting.review_id);
    expect(result?.route).toBe("human_approved");
    expect(result?.decision).toMatchObject({ kind: "approve", by: "alice", note: "cleared by legal" });

    // A second restart finds nothing left to apply.
    expect((await second.runner.recover()).applied).toBe(0);
    expect(await outcomesOfAlice(second, waiting.review_id)).toEqual(["received", "applied"]);
  });

  it("was half applied (the gate's step saved, the verdict's not): restart finishes the graph, the review approved", async () => {
    const first = await open();
    const waiting = await reviewFixture(first, "002_new_dependency");
    const approve = { kind: "approve" as const, by: "alice" };
    expect(await receiveDecision(first.store, waiting.review_id, approve, "slack")).toBe(true);
    // The resume ran the human gate and saved its step; the process died before the verdict's step.
    await first.graph.invoke(new Command({ resume: approve }), {
      configurable: { thread_id: waiting.review_id },
      durability: "sync",
      interruptAfter: ["human_gate"],
    });
    const half = await first.graph.getState({ configurable: { thread_id: waiting.review_id } });
    expect(half.next).toEqual(["verdict"]);
    expect(half.values).toMatchObject({ decision: approve });
    const second = await restart(first);
    expect((await second.runner.recover()).applied).toBe(1);
    const result = await second.runner.status(waiting.review_id);
    expect(result).toMatchObject({ status: "done", route: "human_approved", decision: approve });
    expect((await second.graph.getState({ configurable: { thread_id: waiting.review_id } })).next).toEqual([]);
    expect(await outcomesOfAlice(second, waiting.review_id)).toEqual(["received", "applied"]);
  });

  it("refuses a second decision while the first is received and not yet applied", async () => {
    const g = await open();
    const waiting = await reviewFixture(g, "002_new_dependency");
    expect(await receiveDecision(g.store, waiting.review_id, { kind: "approve", by: "alice" }, "cli")).toBe(true);
    expect(await receiveDecision(g.store, waiting.review_id, { kind: "reject", by: "bob", note: "no" }, "cli")).toBe(
      false,
    );
    const outcome = await g.runner.decide(waiting.review_id, { kind: "reject", by: "bob", note: "no" });
    expect(outcome.ok).toBe(false);
    expect((await g.store.pendingDecisions()).map((d) => d.resume.by)).toEqual(["alice"]);
  });
});
