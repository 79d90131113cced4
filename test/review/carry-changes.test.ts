import { describe, expect, it } from "vitest";
import type { PriorDecision } from "../../src/domain/carry.js";
import type { Finding } from "../../src/domain/finding.js";
import type { PullRequestSummary } from "../../src/domain/pull-request.js";
import { carriedResume, changesSince } from "../../src/review/carry-changes.js";

const finding: Finding = {
  specialty: "licensing",
  policy: "LIC-02",
  severity: "high",
  blocking: true,
  needs_more_context: false,
  file: "package.json",
  line: 3,
  message: "GPL",
  source: "detector",
  fingerprint: "LIC-02:0123456789abcdef",
};

const prior: PriorDecision = {
  review_id: "r-1",
  head_sha: "1".repeat(40),
  kind: "approve",
  by: "UAPPROVER",
  at: "2026-03-02T09:00:00Z",
  origin: { review_id: "r-1", head_sha: "1".repeat(40), at: "2026-03-02T09:00:00Z" },
  covered: [{ fingerprint: "LIC-02:0123456789abcdef", policy: "LIC-02", file: "package.json" }],
  history: "ahead",
  files: ["README.md"],
  base_ref: "main",
};

/** A waiting review's state against a base branch, with the decided finding unchanged. */
const values = (baseRef: string) => ({
  pr: { baseRef } as PullRequestSummary,
  findings: { licensing: { findings: [finding], verdicts: [], notReviewed: [], round: 0 } },
  escalation: { reason: "blocking_finding" as const, detail: "LIC-02" },
});

describe("changesSince: a base-branch change starts over", () => {
  it("carries against the same base, not against another one, nor across an audited retarget", () => {
    expect(changesSince(prior, values("main"), "unchanged_findings")).toEqual([]);
    expect(changesSince(prior, values("release"), "unchanged_findings")).toEqual([
      "the base branch changed from main to release since the decision: starting over",
    ]);
    // Retargeted and back again: the base ref is the same, the retarget in between still counts.
    expect(changesSince({ ...prior, retargeted: true }, values("main"), "unchanged_findings")).toEqual([
      "the pull request moved to another base branch since the decision: starting over",
    ]);
  });

  it("a carried approval keeps every approval it needed", () => {
    const approvals = [
      { by: "USECURITY", at: "2026-03-02T08:00:00Z", covers: ["security" as const] },
      { by: "UAPPROVER", at: "2026-03-02T09:00:00Z", covers: ["licensing" as const] },
    ];
    expect(carriedResume({ ...prior, approvals })).toMatchObject({ kind: "approve", approvals });
  });
});
