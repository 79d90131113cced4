import { describe, expect, it } from "vitest";
import type { EmergencyPass, ReviewResult, ReviewStatus, Route } from "../../src/domain/review-result.js";
import { checkOutcome, dueText } from "../../src/github/check-run.js";

const PASS: EmergencyPass = {
  label: "emergency",
  since: "2026-03-02T10:15:00.000Z",
  due_at: "2026-03-03T10:15:00.000Z",
  overdue: false,
};

function result(route: Route | null, status: ReviewStatus, over: Partial<ReviewResult> = {}): ReviewResult {
  return {
    pr: "acme/web#7",
    route,
    status,
    risk: null,
    findings: [
      {
        specialty: "licensing",
        policy: "LIC-02",
        severity: "high",
        blocking: true,
        needs_more_context: false,
        message: "GPL dependency",
      },
    ],
    escalation: { reason: "blocking_finding", detail: "LIC-02" },
    budget: {
      cycles_used: 0,
      cycles_max: 2,
      tool_calls: 0,
      model_calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cost_usd: 0,
    },
    investigations: [],
    coverage: null,
    review_id: "r-abc",
    ...over,
  };
}

describe("checkOutcome of an emergency change", () => {
  // One row per state: the verdict the check run, the commit status and `gate check` share.
  const rows: Array<[string, ReviewResult, string, string]> = [
    ["waiting without a pass", result("human", "waiting_for_human"), "action_required", "Waiting for a person"],
    [
      "waiting on a pass",
      result("human", "waiting_for_human", { emergency: PASS }),
      "success",
      "Emergency: approval due by 2026-03-03 10:15 UTC",
    ],
    [
      "waiting, overdue",
      result("human", "waiting_for_human", { emergency: { ...PASS, overdue: true } }),
      "action_required",
      "Emergency overdue: approval was due by 2026-03-03 10:15 UTC",
    ],
    [
      "approved on a pass",
      result("human_approved", "done", {
        emergency: PASS,
        decision: { kind: "approve", by: "U1", at: "2026-03-02T12:00:00Z" },
      }),
      "success",
      "Approved by U1",
    ],
    [
      "rejected on a pass",
      result("human_rejected", "done", {
        emergency: PASS,
        decision: { kind: "reject", by: "U1", at: "2026-03-02T12:00:00Z" },
      }),
      "failure",
      "Rejected by U1",
    ],
    [
      "merged on a pass",
      result("merged_unapproved", "merged_unapproved", {
        emergency: PASS,
        merged: { by: "sam", at: "2026-03-02T11:00:00Z", was: { status: "waiting_for_human", route: "human" } },
      }),
      "success",
      "Emergency merged by sam: approval due by 2026-03-03 10:15 UTC",
    ],
    [
      "merged, overdue",
      result("merged_unapproved", "merged_unapproved", {
        emergency: { ...PASS, overdue: true },
        merged: { by: "sam", at: "2026-03-02T11:00:00Z", was: { status: "waiting_for_human", route: "human" } },
      }),
      "failure",
      "Emergency overdue: merged by sam",
    ],
    [
      "merged, overdue, approved after the fact",
      result("merged_unapproved", "merged_unapproved", {
        emergency: { ...PASS, overdue: true },
        merged: { by: "sam", at: "2026-03-02T11:00:00Z", was: { status: "waiting_for_human", route: "human" } },
        after_the_fact: { kind: "approve", by: "U1", at: "2026-03-04T09:00:00Z" },
      }),
      "success",
      "approved after the fact by U1",
    ],
  ];
  it.each(rows)("%s", (_name, r, conclusion, title) => {
    const outcome = checkOutcome(r, {});
    expect(outcome.conclusion).toBe(conclusion);
    expect(outcome.title).toContain(title);
  });

  it("says a due time in UTC to the minute, and an unreadable one as it is", () => {
    expect(dueText("2026-03-03T10:15:42.123Z")).toBe("2026-03-03 10:15 UTC");
    expect(dueText("soon")).toBe("soon");
  });
});
