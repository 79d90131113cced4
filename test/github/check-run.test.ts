import { describe, expect, it } from "vitest";
import type { ResultFinding, ReviewResult, ReviewStatus, Route } from "../../src/domain/review-result.js";
import {
  annotationBatches,
  annotationsFor,
  buildCheckRun,
  buildCommitStatus,
  CHECK_ACTION_APPROVE,
  CHECK_ACTION_REJECT,
  CHECK_NAME,
  SUMMARY_LIMIT,
} from "../../src/github/check-run.js";

const HEAD = "d".repeat(40);

function finding(over: Partial<ResultFinding> = {}): ResultFinding {
  return {
    specialty: "security",
    policy: "SEC-01",
    severity: "critical",
    blocking: true,
    needs_more_context: false,
    file: "src/config.ts",
    line: 12,
    message: "AWS access key in code",
    ...over,
  };
}

function result(route: Route | null, status: ReviewStatus, over: Partial<ReviewResult> = {}): ReviewResult {
  return {
    pr: "acme/web#7",
    route,
    status,
    risk: { score: 72, class: "code", reasons: ["touches auth code"] },
    findings: [],
    escalation: null,
    budget: {
      cycles_used: 1,
      cycles_max: 2,
      tool_calls: 3,
      model_calls: 4,
      input_tokens: 500,
      output_tokens: 60,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cost_usd: 0.0123,
    },
    investigations: [],
    coverage: null,
    review_id: "r-abc",
    ...over,
  };
}

describe("buildCheckRun / buildCommitStatus", () => {
  it.each<[string, ReviewResult, string, string | undefined, string, RegExp]>([
    ["queued", result(null, "queued"), "in_progress", undefined, "pending", /queued/],
    ["running", result(null, "running"), "in_progress", undefined, "pending", /running/],
    [
      "waiting",
      result("human", "waiting_for_human"),
      "completed",
      "action_required",
      "pending",
      /^Waiting for a person: #sec-review$/,
    ],
    ["auto approved", result("auto_approved", "done"), "completed", "success", "success", /Low risk/],
    ["approved", result("approved", "done"), "completed", "success", "success", /Approved/],
    [
      "human approved",
      result("human_approved", "done", { decision: { kind: "approve", by: "alice", at: "2026-01-01T00:00:00Z" } }),
      "completed",
      "success",
      "success",
      /Approved by alice/,
    ],
    [
      "human rejected",
      result("human_rejected", "done", {
        decision: { kind: "reject", by: "bob", at: "2026-01-01T00:00:00Z", note: "no" },
      }),
      "completed",
      "failure",
      "failure",
      /Rejected by bob/,
    ],
    [
      "superseded",
      result("human", "superseded", { superseded_by: "e".repeat(40) }),
      "completed",
      "neutral",
      "error",
      /^Superseded by eeeeeee$/,
    ],
    ["done without a route", result(null, "done"), "completed", "failure", "failure", /without a verdict/],
  ])("%s", (_name, r, status, conclusion, state, title) => {
    const run = buildCheckRun(r, { headSha: HEAD, askedWho: "#sec-review", detailsUrl: "https://slack.example/x" });
    expect(run.name).toBe(CHECK_NAME);
    expect(run.head_sha).toBe(HEAD);
    expect(run.status).toBe(status);
    expect(run.conclusion).toBe(conclusion);
    expect(run.output.title).toMatch(title);
    expect(run.details_url).toBe("https://slack.example/x");
    expect(run.external_id).toBe("r-abc");
    const commit = buildCommitStatus(r, { headSha: HEAD, askedWho: "#sec-review" });
    expect(commit).toMatchObject({ sha: HEAD, state, context: CHECK_NAME });
    expect(commit.description.length).toBeLessThanOrEqual(140);
  });

  it("says who a waiting review waits for, with a default", () => {
    expect(buildCheckRun(result("human", "waiting_for_human"), { headSha: HEAD }).output.title).toBe(
      "Waiting for a person: a reviewer",
    );
  });

  it("offers Approve and Reject (within GitHub's limits) only while the review waits for a person", () => {
    const waiting = buildCheckRun(result("human", "waiting_for_human"), { headSha: HEAD });
    expect(waiting.actions.map((a) => a.identifier)).toEqual([CHECK_ACTION_APPROVE, CHECK_ACTION_REJECT]);
    for (const a of waiting.actions) {
      expect(a.label.length).toBeLessThanOrEqual(20);
      expect(a.identifier.length).toBeLessThanOrEqual(20);
      expect(a.description.length).toBeLessThanOrEqual(40);
    }
    expect(waiting.output.summary).toContain("**Approve** or **Reject**");
    const partly = result("human", "waiting_for_human", {
      approvals_needed: [{ covers: "security", from: "security", ids: ["U1"] }],
    });
    expect(buildCheckRun(partly, { headSha: HEAD }).actions).toHaveLength(2);
    const decided = result("human_approved", "done", {
      decision: { kind: "approve", by: "alice", at: "2026-01-01T00:00:00Z" },
    });
    for (const r of [
      decided,
      result(null, "running"),
      result(null, "queued"),
      result("human", "superseded"),
      result("human", "closed"),
      result("auto_approved", "done"),
    ]) {
      const run = buildCheckRun(r, { headSha: HEAD });
      expect(run.actions, `${r.status}/${r.route}`).toEqual([]);
      expect(run.output.summary).not.toContain("**Approve** or **Reject**");
    }
  });

  it("writes a Markdown summary with route, risk, findings table, escalation, budget and decision", () => {
    const r = result("human_rejected", "done", {
      findings: [
        finding(),
        finding({
          policy: "LIC-01",
          severity: "low",
          blocking: false,
          file: "package.json",
          line: 4,
          message: "licence | unknown\nsecond line",
        }),
      ],
      escalation: { reason: "blocking_finding", detail: "SEC-01 in src/config.ts" },
      decision: { kind: "reject", by: "bob", at: "2026-01-01T00:00:00Z", note: "rotate the key" },
    });
    const summary = buildCheckRun(r, { headSha: HEAD }).output.summary;
    expect(summary).toContain("**Route:** human_rejected");
    expect(summary).toContain("**Risk:** 72/100 (code): touches auth code");
    expect(summary).toContain("| Policy | Severity | Blocking | Location | Message |");
    expect(summary).toContain("| SEC-01 | critical | yes | `src/config.ts:12` | AWS access key in code |");
    expect(summary).toContain("| LIC-01 | low | no | `package.json:4` | licence \\| unknown second line |");
    expect(summary).toContain("**blocking_finding**: SEC-01 in src/config.ts");
    expect(summary).toContain("Cycles 1/2 · tool calls 3 · model calls 4 · tokens 500 in / 60 out · $0.0123");
    expect(summary).toContain("Rejected by bob at 2026-01-01T00:00:00Z: rotate the key");
  });

  it("caps the summary at GitHub's 65,535 characters", () => {
    const findings = Array.from({ length: 400 }, (_, i) => finding({ line: i + 1, message: "x".repeat(400) }));
    const summary = buildCheckRun(result("human", "waiting_for_human", { findings }), { headSha: HEAD }).output.summary;
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(summary).toMatch(/truncated/);
  });

  it("annotates findings with a file and line: failure when blocking, warning otherwise", () => {
    const annotations = annotationsFor([
      finding(),
      finding({ blocking: false, severity: "medium", policy: "SEC-05" }),
      finding({ file: undefined, line: undefined }),
      finding({ line: undefined }),
    ]);
    expect(annotations).toEqual([
      {
        path: "src/config.ts",
        start_line: 12,
        end_line: 12,
        annotation_level: "failure",
        title: "SEC-01 (critical, blocking)",
        message: "AWS access key in code",
      },
      {
        path: "src/config.ts",
        start_line: 12,
        end_line: 12,
        annotation_level: "warning",
        title: "SEC-05 (medium)",
        message: "AWS access key in code",
      },
    ]);
  });

  it("batches annotations into chunks of 50", () => {
    const items = Array.from({ length: 120 }, (_, i) => i);
    expect(annotationBatches(items).map((b) => b.length)).toEqual([50, 50, 20]);
    expect(annotationBatches([])).toEqual([]);
  });

  it("keeps the commit status description within 140 characters", () => {
    const findings = Array.from({ length: 3 }, () => finding());
    const commit = buildCommitStatus(result("human", "waiting_for_human", { findings }), {
      headSha: HEAD,
      askedWho: "x".repeat(300),
    });
    expect(commit.description.length).toBeLessThanOrEqual(140);
    expect(commit.description.startsWith("Waiting for a person: xxx")).toBe(true);
  });
});
