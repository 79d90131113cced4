import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/domain/finding.js";
import { appendReports, coalesceEscalation, mergeFindings, type SpecialtyBatch } from "../../src/graph/state.js";

const finding = (over: Partial<Finding> = {}): Finding => ({
  specialty: "security",
  policy: "SEC-03",
  severity: "high",
  blocking: true,
  needs_more_context: true,
  file: "src/auth/session.ts",
  line: 10,
  message: "auth changed",
  source: "detector",
  ...over,
});
const batch = (findings: Finding[], round = 0): SpecialtyBatch => ({ findings, verdicts: [], notReviewed: [], round });

describe("mergeFindings", () => {
  it("replaces a specialty's batch whole, so a stale needs_more_context does not survive a re-run", () => {
    const round0 = mergeFindings({}, { security: batch([finding()]) });
    const round1 = mergeFindings(round0, {
      security: batch([finding({ needs_more_context: false, blocking: false })], 1),
    });
    expect(round1.security?.findings).toHaveLength(1);
    expect(round1.security?.findings.some((f) => f.needs_more_context)).toBe(false);
    expect(round1.security?.round).toBe(1);
  });

  it("keeps the other specialties' batches and is order-independent across specialties", () => {
    const sec = { security: batch([finding()]) };
    const lic = { licensing: batch([finding({ specialty: "licensing", policy: "LIC-02" })]) };
    const a = mergeFindings(mergeFindings({}, sec), lic);
    const b = mergeFindings(mergeFindings({}, lic), sec);
    expect(a).toEqual(b);
    expect(Object.keys(a).sort()).toEqual(["licensing", "security"]);
  });

  it("an empty batch clears the specialty's findings", () => {
    const next = mergeFindings(
      { data: batch([finding({ specialty: "data", policy: "DATA-01" })]) },
      { data: batch([]) },
    );
    expect(next.data?.findings).toEqual([]);
  });
});

describe("coalesceEscalation", () => {
  const timeout = { reason: "timeout" as const, detail: "security timed out" };
  const error = { reason: "specialist_error" as const, detail: "data failed" };

  it("keeps the first escalation written", () => {
    expect(coalesceEscalation(null, timeout)).toEqual(timeout);
    expect(coalesceEscalation(timeout, error)).toEqual(timeout);
  });

  it("ignores a null write and clears only on 'clear'", () => {
    expect(coalesceEscalation(timeout, null)).toEqual(timeout);
    expect(coalesceEscalation(timeout, "clear")).toBeNull();
  });
});

describe("appendReports", () => {
  it("appends in order", () => {
    const r = { status: "resolved" } as never;
    const s = { status: "inconclusive" } as never;
    expect(appendReports([r], [s])).toEqual([r, s]);
  });
});
