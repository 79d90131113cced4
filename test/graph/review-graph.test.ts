import { afterEach, describe, expect, it } from "vitest";
import type { Specialist } from "../../src/domain/specialist.js";
import { ZERO_USAGE } from "../../src/domain/usage.js";
import { rulesReviewer } from "../../src/policy/rules-reviewer.js";
import { registerFixture, reviewFixture, testGate, type TestGate } from "../helpers/gate.js";

const gates: Array<TestGate> = [];
const open = async (...args: Parameters<typeof testGate>) => {
  const g = await testGate(...args);
  gates.push(g);
  return g;
};
afterEach(async () => {
  while (gates.length) gates.pop()?.close();
});

/** A specialist that never answers in time: the port's test double, not a mock of our code. */
const hanging: Specialist = {
  kind: "model",
  review: (input) =>
    new Promise((_, reject) => input.signal.addEventListener("abort", () => reject(new Error("aborted")))),
};
const throwing: Specialist = {
  kind: "model",
  review: async () => {
    throw new Error("model output invalid twice");
  },
};

describe("the review graph", () => {
  it("auto-approves a README typo with no specialist and no model call", async () => {
    const g = await open();
    const r = await reviewFixture(g, "001_readme_typo");
    expect(r.route).toBe("auto_approved");
    expect(r.status).toBe("done");
    expect(r.budget.model_calls).toBe(0);
    expect(r.findings).toEqual([]);
  });

  it("two specialists timing out in one superstep give one escalation and no crash", async () => {
    const g = await open(
      { GATE_SPECIALIST_TIMEOUT_MS: "50" },
      { specialists: { security: hanging, licensing: hanging } },
    );
    const r = await reviewFixture(g, "002_new_dependency");
    expect(r.status).toBe("waiting_for_human");
    expect(r.route).toBe("human");
    expect(r.escalation?.reason).toBe("timeout");
    // First-wins by node name: licensing is applied before security.
    expect(r.escalation?.detail).toMatch(/^licensing specialist timed out/);
    // The detectors' block stands even though the licensing specialist never answered.
    expect(r.findings.some((f) => f.policy === "LIC-02" && f.blocking)).toBe(true);
  });

  it("a specialist error escalates as specialist_error, never a pass", async () => {
    const g = await open({}, { specialists: { security: throwing, licensing: throwing, data: throwing } });
    const r = await reviewFixture(g, "002_new_dependency");
    expect(r.route).toBe("human");
    expect(r.escalation?.reason).toBe("specialist_error");
  });

  it("a specialist that clears a detector's block sends the review to a person as a disagreement", async () => {
    const clearing: Specialist = {
      kind: "model",
      review: async () => ({
        findings: [],
        verdicts: [{ policy: "LIC-02", verdict: "compliant", reason: "looks fine" }],
        usage: { ...ZERO_USAGE, model_calls: 1 },
        notReviewed: [],
      }),
    };
    const g = await open({}, { specialists: { licensing: clearing } });
    const r = await reviewFixture(g, "002_new_dependency");
    expect(r.route).toBe("human");
    expect(r.escalation?.reason).toBe("disagreement");
    expect(r.budget.model_calls).toBe(1);
  });

  it("a review waiting for a person is resumed by a second gate on the same SQLite file", async () => {
    const first = await open();
    const waiting = await reviewFixture(first, "002_new_dependency");
    expect(waiting.status).toBe("waiting_for_human");
    await first.close();
    gates.splice(gates.indexOf(first), 1);

    const second = await open({}, {}, first.dir);
    const outcome = await second.runner.decide(waiting.review_id, { kind: "reject", by: "alice", note: "GPL" });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.result.route).toBe("human_rejected");
    expect(outcome.result.decision).toMatchObject({ kind: "reject", by: "alice", note: "GPL" });
    const entries = (await second.store.auditFor(waiting.review_id)).map((a) => `${a.actor}:${a.action}:${a.outcome}`);
    expect(entries).toContain("alice:reject:received");
    expect(entries).toContain("alice:reject:applied");
  });

  it("a queued review is known before it runs", async () => {
    const g = await open();
    const review = await registerFixture(g, "001_readme_typo");
    const r = await g.runner.status(review.id);
    expect(r?.status).toBe("queued");
    expect(r?.route).toBeNull();
  });

  it("two concurrent decisions: exactly one resumes, the other is refused", async () => {
    const g = await open();
    const waiting = await reviewFixture(g, "002_new_dependency");
    const [a, b] = await Promise.all([
      g.runner.decide(waiting.review_id, { kind: "approve", by: "alice" }),
      g.runner.decide(waiting.review_id, { kind: "approve", by: "bob" }),
    ]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    const refused = a.ok ? b : a;
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.code).toBe("already_decided");
    const accepted = (await g.store.auditFor(waiting.review_id)).filter((e) => e.outcome === "received");
    expect(accepted).toHaveLength(1);
  });
});

describe("investigation cycles: one budget for machine investigations and human questions", () => {
  it("003_auth_change: the investigator resolves the SEC-03 question and the review is approved after one cycle", async () => {
    const g = await open();
    const r = await reviewFixture(g, "003_auth_change");
    expect(r.route).toBe("approved");
    expect(r.budget.cycles_used).toBe(1);
    expect(r.investigations[0]?.status).toBe("resolved");
    expect(r.investigations[0]?.evidence.length).toBeGreaterThan(0);
    expect(r.findings.find((f) => f.policy === "SEC-03")).toMatchObject({ blocking: false, needs_more_context: false });
  });

  it("003b: the token logged through a helper outside the diff stops the review, with the logging line as evidence", async () => {
    const g = await open();
    const r = await reviewFixture(g, "003b_auth_change_logs_token");
    expect(r.route).toBe("human");
    expect(r.escalation?.reason).toBe("blocking_finding");
    expect(r.investigations[0]?.evidence[0]).toMatchObject({ file: "src/audit/audit.ts", line: 6 });
    expect(r.investigations[0]?.evidence[0]?.excerpt).toMatch(/token: session\.token/);
  });

  it("with GATE_MAX_CYCLES=2 after one machine cycle: the first info request runs, the second is refused, both audited", async () => {
    const g = await open({ GATE_MAX_CYCLES: "2" });
    const waiting = await reviewFixture(g, "003b_auth_change_logs_token");
    expect(waiting.budget.cycles_used).toBe(1);

    const seen: number[] = [];
    const first = await g.runner.decide(
      waiting.review_id,
      { kind: "info", by: "alice", question: "does the new check still verify expiry?" },
      { onProgress: (p) => seen.push(p.tool_calls) },
    );
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.result.status).toBe("waiting_for_human");
    expect(first.result.budget.cycles_used).toBe(2);
    const answer = first.result.investigations[1];
    expect(answer?.question).toBe("does the new check still verify expiry?");
    expect(answer?.answers.join(" ")).toMatch(/expir/i);
    expect(seen.length).toBeGreaterThan(0);

    const second = await g.runner.decide(waiting.review_id, {
      kind: "info",
      by: "bob",
      question: "and the signature?",
    });
    expect(second).toMatchObject({ ok: false, code: "budget_spent" });

    const audit = (await g.store.auditFor(waiting.review_id)).filter((a) => a.action === "info");
    expect(audit.map((a) => `${a.actor}:${a.outcome}`)).toEqual([
      "alice:received",
      "alice:applied",
      "bob:refused:budget_spent",
    ]);
    // Still waiting: a refused question changes nothing.
    expect((await g.runner.status(waiting.review_id))?.status).toBe("waiting_for_human");
  });

  it("an unknown resume value is refused without touching the review", async () => {
    const g = await open();
    const waiting = await reviewFixture(g, "002_new_dependency");
    const out = await g.runner.decide(waiting.review_id, { kind: "merge", by: "eve" } as never);
    expect(out.ok).toBe(false);
    expect((await g.runner.status(waiting.review_id))?.status).toBe("waiting_for_human");
  });
});

describe("the money budget (GATE_MAX_COST_USD)", () => {
  /** The rules reviewer's judgement, billed like a model call of the given cost. */
  const costly = (cost: number): Specialist => ({
    kind: "model",
    review: async (input) => ({
      ...(await rulesReviewer.review(input)),
      usage: { ...ZERO_USAGE, model_calls: 1, input_tokens: 1000, output_tokens: 100, cost_usd: cost },
    }),
  });

  it("a review that has spent its money starts no investigation: it goes to a person", async () => {
    const g = await open({ GATE_MAX_COST_USD: "0.50" }, { specialists: { security: costly(0.6) } });
    const r = await reviewFixture(g, "003_auth_change");
    expect(r.route).toBe("human");
    expect(r.escalation?.reason).toBe("budget_exhausted");
    expect(r.escalation?.detail).toMatch(/spent \$0\.6000 of its \$0\.50/);
    expect(r.budget.cycles_used).toBe(0);
    // A person's question would spend more: refused too.
    const asked = await g.runner.decide(r.review_id, { kind: "info", by: "alice", question: "is expiry checked?" });
    expect(asked).toMatchObject({ ok: false, code: "budget_spent" });
  });

  it("under the cap the same review investigates as usual", async () => {
    const g = await open({ GATE_MAX_COST_USD: "5" }, { specialists: { security: costly(0.01) } });
    const r = await reviewFixture(g, "003_auth_change");
    expect(r.budget.cycles_used).toBe(1);
    expect(r.budget.cost_usd).toBeCloseTo(0.02, 6);
  });
});
