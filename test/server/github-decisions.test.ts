import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { GitHubDecisionRequest } from "../../src/github/webhook.js";
import { createGitHubDecisions } from "../../src/server/github-decisions.js";
import { reviewFixture, silentLog, testGate, type TestGate } from "../helpers/gate.js";

const gates: TestGate[] = [];
afterEach(async () => {
  for (const g of gates.splice(0)) {
    await g.close();
    fs.rmSync(g.dir, { recursive: true, force: true });
  }
});

/** A gate with one approver (U1, GitHub login dana-sec) and the GPL-dependency PR waiting for a person. */
async function waiting() {
  const gate = await testGate({ GATE_APPROVERS: "U1", GATE_GITHUB_TO_SLACK: "dana-sec=U1" });
  gates.push(gate);
  const result = await reviewFixture(gate, "002_new_dependency");
  expect(result.status).toBe("waiting_for_human");
  const review = await gate.runner.get(result.review_id);
  if (!review) throw new Error("the review is not stored");
  return { gate, review };
}

function request(review: { id: string; repo: string; headSha: string }, login: string): GitHubDecisionRequest {
  return {
    id: `d-${login}`,
    event: "check_run",
    kind: "approve",
    reviewId: review.id,
    repo: review.repo,
    headSha: review.headSha,
    checkRunId: 7,
    login,
  };
}

describe("createGitHubDecisions", () => {
  it("answers within GitHub's deadline while another decision holds the review, and takes nothing late", async () => {
    const { gate, review } = await waiting();
    // A decision from elsewhere is taken and held (its door is still busy hearing it).
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = gate.runner.decide(
      review.id,
      { kind: "reject", by: "U1", note: "held" },
      { door: { kind: "cli" }, onReceived: () => held },
    );
    await new Promise((r) => setTimeout(r, 50));
    const decide = createGitHubDecisions({
      service: gate.runner,
      store: gate.store,
      log: silentLog,
      answerWithinMs: 100,
    });
    const started = Date.now();
    const outcome = await decide(request(review, "dana-sec"));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(outcome.refused?.code).toBe("too_late");
    expect(outcome.refused?.message).toMatch(/could not take your decision in time/);

    release();
    expect((await first).ok).toBe(true);
    // The late GitHub attempt gets the review after the first decision: refused on the record, never applied.
    await expect
      .poll(async () =>
        (await gate.store.auditFor(review.id)).some(
          (e) => e.action === "approve" && e.outcome.startsWith("refused:") && e.detail.door === "github",
        ),
      )
      .toBe(true);
    const result = await gate.runner.result(review.id);
    expect(result).toMatchObject({ route: "human_rejected", decision: { kind: "reject", by: "U1" } });
    const audit = await gate.store.auditFor(review.id);
    expect(audit.filter((e) => e.outcome === "received")).toHaveLength(1);
    expect(audit.filter((e) => e.outcome === "applied")).toHaveLength(1);
  });

  it("takes an approver's decision and resolves once it is stored, before it is applied", async () => {
    const { gate, review } = await waiting();
    const decide = createGitHubDecisions({ service: gate.runner, store: gate.store, log: silentLog });
    expect(await decide(request(review, "DANA-SEC"))).toEqual({});
    expect(await gate.store.auditFor(review.id)).toContainEqual(
      expect.objectContaining({
        actor: "U1",
        outcome: "received",
        detail: expect.objectContaining({ door: "github" }),
      }),
    );
    await expect
      .poll(async () => (await gate.runner.result(review.id)).route, { timeout: 10_000 })
      .toBe("human_approved");
  });
});
