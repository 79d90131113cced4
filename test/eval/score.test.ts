import { describe, expect, it } from "vitest";
import type { Expected } from "../../src/eval/expected.js";
import {
  isNeedlessEscalation,
  isUnsafePass,
  precision,
  recall,
  scoreFixture,
  summarize,
  type FixtureOutcome,
} from "../../src/eval/score.js";
import type { ResultFinding, Route } from "../../src/domain/review-result.js";

function finding(policy: string, extra: Partial<ResultFinding> = {}): ResultFinding {
  return {
    specialty: "security",
    policy,
    severity: "high",
    blocking: true,
    needs_more_context: false,
    message: "m",
    ...extra,
  };
}

function outcome(
  fixture: string,
  expected: Partial<Expected> & Pick<Expected, "route">,
  route: Route | null,
  cited: string[],
  usage = { model_calls: 1, input_tokens: 100, output_tokens: 10, cost_usd: 0.001 },
): FixtureOutcome {
  return {
    fixture,
    expected: { must_cite: [], must_not_cite: [], ...expected },
    result: {
      route,
      findings: cited.map((p) => finding(p)),
      escalation: null,
      budget: {
        cycles_used: 0,
        cycles_max: 2,
        tool_calls: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        ...usage,
      },
    },
  };
}

describe("scoreFixture", () => {
  it("counts must_cite as positives and must_not_cite as negatives, ignoring policies in neither list", () => {
    const s = scoreFixture(
      outcome("x", { route: "human", must_cite: ["SEC-01", "SEC-02"], must_not_cite: ["SEC-03", "SEC-04"] }, "human", [
        "SEC-01",
        "SEC-03",
        "DATA-01",
        "SEC-01",
      ]),
    );
    expect(s).toMatchObject({
      route_ok: true,
      cited: ["DATA-01", "SEC-01", "SEC-03"],
      tp: ["SEC-01"],
      fn: ["SEC-02"],
      fp: ["SEC-03"],
      tn: ["SEC-04"],
      unscored: ["DATA-01"],
    });
  });

  it("lists every finding with its policy, place and message, and none for a failed review", () => {
    const o = outcome("x", { route: "human", must_cite: ["SEC-02"] }, "human", []);
    o.result?.findings.push(
      finding("SEC-02", { file: "src/db.java", line: 12, message: "SQL text built from a request parameter" }),
      finding("SEC-03", { message: "auth changed", fingerprint: "abc" }),
    );
    expect(scoreFixture(o).findings).toEqual([
      { policy: "SEC-02", file: "src/db.java", line: 12, message: "SQL text built from a request parameter" },
      { policy: "SEC-03", message: "auth changed" },
    ]);
    const failed = {
      fixture: "y",
      expected: { route: "human" as const, must_cite: [], must_not_cite: [] },
      error: "boom",
    };
    expect(scoreFixture(failed).findings).toEqual([]);
  });

  it("a non-blocking note cites its policy as much as a block does", () => {
    const o = outcome("x", { route: "approved", must_cite: ["SEC-05"] }, "approved", []);
    o.result?.findings.push(finding("SEC-05", { blocking: false, severity: "low" }));
    expect(scoreFixture(o).tp).toEqual(["SEC-05"]);
  });

  it("a wrong route is not ok; a failed review cites nothing and matches no route", () => {
    expect(scoreFixture(outcome("x", { route: "approved" }, "human", [])).route_ok).toBe(false);
    const failed = scoreFixture({
      fixture: "y",
      expected: { route: "human", must_cite: ["LIC-02"], must_not_cite: ["LIC-01"] },
      error: "boom",
    });
    expect(failed).toMatchObject({
      route: null,
      route_ok: false,
      fn: ["LIC-02"],
      tn: ["LIC-01"],
      error: "boom",
      model_calls: 0,
    });
  });
});

describe("precision and recall", () => {
  it("are TP/(TP+FP) and TP/(TP+FN), null when the denominator is 0", () => {
    expect(precision(3, 1)).toBe(0.75);
    expect(recall(1, 3)).toBe(0.25);
    expect(precision(0, 0)).toBeNull();
    expect(recall(0, 0)).toBeNull();
    expect(precision(0, 2)).toBe(0);
  });
});

describe("summarize", () => {
  it("sums route accuracy, per-policy counts and usage over fixtures", () => {
    const report = summarize(
      [
        outcome("a", { route: "human", must_cite: ["LIC-02"] }, "human", ["LIC-02"]),
        outcome("b", { route: "approved", must_cite: ["LIC-01"], must_not_cite: ["LIC-02"] }, "human", ["LIC-02"]),
        outcome("c", { route: "auto_approved", must_not_cite: ["LIC-01", "LIC-02"] }, "auto_approved", [], {
          model_calls: 0,
          input_tokens: 0,
          output_tokens: 0,
          cost_usd: 0,
        }),
      ].map(scoreFixture),
    );
    expect(report.fixtures).toBe(3);
    expect(report.errors).toBe(0);
    expect(report.route_accuracy).toEqual({ correct: 2, total: 3, rate: 2 / 3 });
    expect(report.policies).toEqual([
      { policy: "LIC-01", tp: 0, fp: 0, fn: 1, tn: 1, precision: null, recall: 0 },
      { policy: "LIC-02", tp: 1, fp: 1, fn: 0, tn: 1, precision: 0.5, recall: 1 },
    ]);
    expect(report.overall).toEqual({ tp: 1, fp: 1, fn: 1, tn: 2, precision: 0.5, recall: 0.5 });
    expect(report.model_calls).toBe(2);
    expect(report.input_tokens).toBe(200);
    expect(report.cost_usd).toBe(0.002);
    expect(report.per_fixture.map((s) => s.fixture)).toEqual(["a", "b", "c"]);
  });

  it("counts unsafe passes among risky fixtures and needless escalations among clean ones", () => {
    const report = summarize(
      [
        outcome("risky-approved", { route: "human" }, "approved", []),
        outcome("risky-auto", { route: "human" }, "auto_approved", []),
        outcome("risky-held", { route: "human" }, "human", []),
        outcome("clean-held", { route: "approved" }, "human", []),
        outcome("clean-auto", { route: "auto_approved" }, "auto_approved", []),
        outcome("clean-approved-not-auto", { route: "auto_approved" }, "approved", []),
        outcome("clean-4", { route: "approved" }, "approved", []),
      ].map(scoreFixture),
    );
    expect(report.unsafe_passes).toEqual({ count: 2, of: 3, rate: 2 / 3, fixtures: ["risky-approved", "risky-auto"] });
    expect(report.needless_escalations).toEqual({ count: 1, of: 4, rate: 0.25, fixtures: ["clean-held"] });
  });

  it("a review that failed is neither a pass nor an escalation", () => {
    const failed = scoreFixture({
      fixture: "f",
      expected: { route: "human", must_cite: [], must_not_cite: [] },
      error: "boom",
    });
    expect(isUnsafePass(failed)).toBe(false);
    expect(isNeedlessEscalation({ expected_route: "approved", route: null })).toBe(false);
    expect(isUnsafePass({ expected_route: "human", route: "human_approved" })).toBe(false);
    expect(summarize([failed]).unsafe_passes).toEqual({ count: 0, of: 1, rate: 0, fixtures: [] });
    expect(summarize([failed]).needless_escalations.rate).toBeNull();
  });

  it("an empty evaluation has no rates rather than 100%", () => {
    const report = summarize([]);
    expect(report.route_accuracy.rate).toBeNull();
    expect(report.overall.precision).toBeNull();
    expect(report.policies).toEqual([]);
  });
});
