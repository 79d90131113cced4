import { describe, expect, it } from "vitest";
import type { ResultFinding, ReviewResult } from "../../src/domain/review-result.js";
import { failureSummary, stepSummary } from "../../src/github/step-summary.js";
import { ZERO_USAGE } from "../../src/domain/usage.js";

function finding(over: Partial<ResultFinding> = {}): ResultFinding {
  return {
    specialty: "licensing",
    policy: "LIC-02",
    severity: "high",
    blocking: true,
    needs_more_context: false,
    file: "package.json",
    line: 19,
    message: "gpl-chart-lib@^2.1.0 is licensed GPL-3.0-only | a runtime dependency\nunder strong copyleft",
    ...over,
  };
}

function result(over: Partial<ReviewResult> = {}): ReviewResult {
  return {
    pr: "acme/web-dashboard#214",
    route: "human",
    status: "waiting_for_human",
    risk: { score: 90, class: "deps", reasons: ["detectors found LIC-02"] },
    findings: [
      finding(),
      finding({
        policy: "DATA-02",
        specialty: "data",
        blocking: false,
        file: undefined,
        line: undefined,
        message: "no retention",
      }),
    ],
    escalation: { reason: "blocking_finding", detail: "blocking: LIC-02" },
    budget: { cycles_used: 0, cycles_max: 2, tool_calls: 0, ...ZERO_USAGE },
    investigations: [],
    coverage: {
      complete: true,
      read: [{ by: ["LIC-01", "LIC-02"], language: "package.json", files: ["package.json"] }],
      unread: [],
      exempt: [],
    },
    review_id: "r-96e0df897362",
    ...over,
  };
}

describe("the Markdown summary of a review (GITHUB_STEP_SUMMARY)", () => {
  it("renders the verdict, route, findings table, coverage and who can decide", () => {
    const md = stepSummary(result(), { deciders: [{ covers: "licensing", ids: ["U0LEGAL", "S0OSPO"] }] });
    expect(md.split("\n")).toEqual([
      "## compliance-gate: Waiting for a person: a reviewer",
      "",
      "**PR:** acme/web-dashboard#214 · **Review:** `r-96e0df897362`",
      "**Route:** waiting for a person · **Status:** waiting_for_human",
      "**Why a person:** blocking_finding: blocking: LIC-02",
      "",
      "### Findings (2, 1 blocking)",
      "",
      "| Policy | File | Line | Message |",
      "|---|---|---|---|",
      "| LIC-02 **blocking** | `package.json` | 19 | gpl-chart-lib@^2.1.0 is licensed GPL-3.0-only \\| a runtime dependency under strong copyleft |",
      "| DATA-02 |  |  | no retention |",
      "",
      "### Coverage",
      "",
      "- Read 1 of 1 changed file that need reading.",
      "",
      "### Who can decide",
      "",
      "- licensing: `U0LEGAL`, `S0OSPO`",
      "",
    ]);
  });

  it("says when no approvers are configured, who decided, and that a pass needs no one", () => {
    expect(stepSummary(result(), { deciders: [] })).toContain("No approvers are configured");
    const decided = stepSummary(
      result({
        route: "human_approved",
        status: "done",
        decision: { kind: "approve", by: "dana", at: "2026-12-01T10:00:00.000Z", note: "legal signed off" },
      }),
      { deciders: [] },
    );
    expect(decided).toMatch(/^## compliance-gate: Approved by dana\n/);
    expect(decided).toContain("Approved by dana at 2026-12-01T10:00:00.000Z: legal signed off.");
    const passed = stepSummary(result({ route: "auto_approved", status: "done", findings: [], escalation: null }), {
      deciders: [],
    });
    expect(passed).toContain("No findings.");
    expect(passed).toContain("Nothing to decide.");
  });

  it("keeps a very long table within GitHub's limits", () => {
    const many = Array.from({ length: 250 }, (_, i) => finding({ line: i + 1 }));
    const md = stepSummary(result({ findings: many }), { deciders: [] });
    expect(md.split("\n").filter((l) => l.startsWith("| LIC-02"))).toHaveLength(200);
    expect(md).toContain("…and 50 more (the SARIF file has them all).");
  });

  it("says why there is no verdict when no review could be made", () => {
    expect(failureSummary("acme/web#7", "cannot read pull request acme/web#7: GitHub answered 500")).toBe(
      "## compliance-gate: could not review acme/web#7\n\ncannot read pull request acme/web#7: GitHub answered 500\n",
    );
  });
});
