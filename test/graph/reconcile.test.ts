import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/domain/finding.js";
import type { InvestigationReport } from "../../src/domain/investigation.js";
import { reconcile, type ReconcileInput } from "../../src/graph/reconcile.js";
import { ZERO_USAGE } from "../../src/domain/usage.js";

const f = (over: Partial<Finding> = {}): Finding => ({
  specialty: "security",
  policy: "SEC-01",
  severity: "critical",
  blocking: true,
  needs_more_context: false,
  file: "config/aws.ts",
  line: 3,
  message: "key",
  source: "detector",
  ...over,
});
const report = (status: "resolved" | "inconclusive", over: Partial<InvestigationReport> = {}): InvestigationReport => ({
  status,
  question: "q",
  origin: "machine",
  answers: [],
  evidence: [],
  concerns: [],
  turns: 1,
  tool_calls: 1,
  chars_read: 10,
  usage: { ...ZERO_USAGE },
  ...(status === "inconclusive" ? { reason: "budget: max tool calls (2) reached" } : {}),
  ...over,
});
const sec03 = f({ policy: "SEC-03", severity: "high", needs_more_context: true, file: "src/auth/session.ts" });
const input = (over: Partial<ReconcileInput>): ReconcileInput => ({
  findings: {},
  detections: [],
  escalation: null,
  investigations: [],
  cyclesMax: 2,
  costUsd: 0,
  maxCostUsd: null,
  incomplete: [],
  lookupFailures: [],
  unread: [],
  ...over,
});
const perl = {
  file: "cgi-bin/lookup.pl",
  kind: "code" as const,
  language: "perl",
  reason: "language" as const,
  detail: "perl: no detector reads this language",
};
const gplDown = {
  ecosystem: "npm" as const,
  name: "gpl-chart-lib",
  version: "2.1.0",
  registry: "npm registry http://127.0.0.1:1",
  reason: "answered 503 (3 attempts)",
};
const batch = (findings: Finding[], extra: object = {}) => ({
  findings,
  verdicts: [],
  notReviewed: [],
  round: 0,
  ...extra,
});

// One row per rung of the ladder, in order; each row's input would also match the later rungs
// where it can, so the row proves the rung's precedence.
const rows: Array<{ rung: string; input: ReconcileInput; next: string; reason?: string }> = [
  {
    rung: "1 an escalation already recorded (timeout) goes to a person",
    input: input({
      escalation: { reason: "timeout", detail: "security specialist timed out" },
      findings: { security: batch([sec03]) },
      detections: [sec03],
    }),
    next: "human_gate",
  },
  {
    rung: "2 a licence lookup got no answer, whatever else was found",
    input: input({
      lookupFailures: [gplDown],
      unread: [perl],
      findings: { security: batch([sec03], { notReviewed: ["big.ts"] }) },
      detections: [sec03],
      incomplete: ["detector x failed"],
    }),
    next: "human_gate",
    reason: "lookup_failed",
  },
  {
    rung: "3 the detectors could not read part of the change, whatever the specialists say",
    input: input({
      unread: [perl],
      findings: {
        security: batch([], {
          notReviewed: ["big.ts"],
          verdicts: [{ policy: "SEC-02", verdict: "compliant", reason: "a model read it" }],
        }),
      },
      detections: [sec03],
      incomplete: ["detector x failed"],
    }),
    next: "human_gate",
    reason: "not_inspected",
  },
  {
    rung: "2 part of the PR was not reviewed",
    input: input({ findings: { security: batch([], { notReviewed: ["big.ts"] }) }, incomplete: [] }),
    next: "human_gate",
    reason: "not_fully_reviewed",
  },
  {
    rung: "2b intake could not read every file",
    input: input({ incomplete: ["3000+ files"] }),
    next: "human_gate",
    reason: "not_fully_reviewed",
  },
  {
    rung: "3 a specialist drops a detector's block",
    input: input({ detections: [f()], findings: { security: batch([]) } }),
    next: "human_gate",
    reason: "disagreement",
  },
  {
    rung: "3b a specialist calls a flagged policy compliant",
    input: input({
      detections: [f()],
      findings: {
        security: batch([f()], { verdicts: [{ policy: "SEC-01", verdict: "compliant", reason: "test key" }] }),
      },
    }),
    next: "human_gate",
    reason: "disagreement",
  },
  {
    rung: "4 the latest investigation was inconclusive",
    input: input({
      detections: [sec03],
      findings: { security: batch([{ ...sec03, needs_more_context: false }]) },
      investigations: [report("inconclusive")],
    }),
    next: "human_gate",
    reason: "inconclusive",
  },
  {
    rung: "4b a model's clearance of a new auth file the deterministic investigation could not assess (withCrossCheck)",
    input: input({
      detections: [sec03],
      findings: { security: batch([{ ...sec03, needs_more_context: false }]) },
      investigations: [
        report("inconclusive", {
          reason:
            "src/auth/token.ts is a new authentication file that the deterministic investigation could not assess " +
            "(no line it read shows the check), so the model's clearance does not settle SEC-03: a person decides",
          checks_shown: ["src/auth/token.ts"],
        }),
      ],
    }),
    next: "human_gate",
    reason: "inconclusive",
  },
  {
    rung: "5 a blocking finding",
    input: input({ detections: [f()], findings: { security: batch([f()]) } }),
    next: "human_gate",
    reason: "blocking_finding",
  },
  {
    rung: "6a needs more context with cycles left",
    input: input({ detections: [sec03], findings: { security: batch([sec03]) } }),
    next: "investigate",
  },
  {
    rung: "6b needs more context with no cycle left",
    input: input({
      detections: [sec03],
      findings: { security: batch([sec03]) },
      investigations: [report("resolved"), report("resolved")],
    }),
    next: "human_gate",
    reason: "budget_exhausted",
  },
  {
    rung: "6c needs more context with cycles left but the money spent",
    input: input({ detections: [sec03], findings: { security: batch([sec03]) }, costUsd: 1.02, maxCostUsd: 1 }),
    next: "human_gate",
    reason: "budget_exhausted",
  },
  {
    rung: "7 clean, including a conditional block cleared by a resolved investigation",
    input: input({
      detections: [sec03],
      findings: { security: batch([{ ...sec03, blocking: false, needs_more_context: false, severity: "low" }]) },
      investigations: [report("resolved")],
    }),
    next: "verdict",
  },
  {
    rung: "7b non-blocking findings only",
    input: input({ findings: { security: batch([f({ policy: "SEC-05", blocking: false, severity: "medium" })]) } }),
    next: "verdict",
  },
];

describe("reconcile: one row per rung", () => {
  it.each(rows)("$rung", ({ input: i, next, reason }) => {
    const out = reconcile(i);
    expect(out.next).toBe(next);
    if (reason) expect(out.escalation?.reason).toBe(reason);
    if (next === "investigate") {
      expect(out.question?.origin).toBe("machine");
      expect(out.question?.findings.map((x) => x.policy)).toEqual(["SEC-03"]);
    }
  });

  it("unread files are named, each with why, at most ten and a count of the rest", () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ ...perl, file: `cgi-bin/s${i}.pl` }));
    const out = reconcile(input({ unread: many }));
    expect(out.escalation?.detail).toContain("cgi-bin/s0.pl (perl: no detector reads this language)");
    expect(out.escalation?.detail).toContain("cgi-bin/s9.pl");
    expect(out.escalation?.detail).not.toContain("cgi-bin/s10.pl");
    expect(out.escalation?.detail).toMatch(/and 2 more$/);
  });

  it("a failed lookup names the package, the registry and the error", () => {
    const out = reconcile(input({ lookupFailures: [gplDown] }));
    expect(out.escalation).toEqual({
      reason: "lookup_failed",
      detail:
        "licence lookup failed, so the licence is not known: gpl-chart-lib@2.1.0 (npm): npm registry http://127.0.0.1:1 answered 503 (3 attempts)",
    });
  });

  it("a failed advisory lookup says what is not known, naming OSV and the error; with a licence one, both", () => {
    const osvDown = {
      ecosystem: "npm" as const,
      name: "lodash",
      version: "4.17.20",
      lookup: "advisories" as const,
      registry: "OSV http://127.0.0.1:2",
      reason: "querybatch answered 500 (3 attempts)",
    };
    expect(reconcile(input({ lookupFailures: [osvDown] })).escalation).toEqual({
      reason: "lookup_failed",
      detail:
        "advisory lookup failed, so known vulnerabilities are not known: lodash@4.17.20 (npm): OSV http://127.0.0.1:2 querybatch answered 500 (3 attempts)",
    });
    expect(reconcile(input({ lookupFailures: [gplDown, osvDown] })).escalation?.detail).toMatch(
      /^licence and advisory lookups failed, so licences and known vulnerabilities are not known: gpl-chart-lib@2\.1\.0 .*; lodash@4\.17\.20/,
    );
  });

  it("is deterministic: the same input gives the same route every time", () => {
    for (const row of rows) expect(reconcile(row.input)).toEqual(reconcile(structuredClone(row.input)));
  });

  it("a conditional block cannot be cleared without a resolved investigation", () => {
    const out = reconcile(input({ detections: [sec03], findings: { security: batch([]) } }));
    expect(out.escalation?.reason).toBe("disagreement");
  });

  it("a person's resolved question does not clear a conditional block: only the newest machine investigation can", () => {
    const human = report("resolved", { origin: "human" });
    const out = reconcile(input({ detections: [sec03], findings: { security: batch([]) }, investigations: [human] }));
    expect(out.escalation?.reason).toBe("disagreement");
    const stale = reconcile(
      input({
        detections: [sec03],
        findings: { security: batch([]) },
        investigations: [report("resolved"), report("inconclusive"), human],
      }),
    );
    expect(stale.next).toBe("human_gate");
  });
});
