import { describe, expect, it } from "vitest";
import type { ResultFinding, ReviewResult } from "../../src/domain/review-result.js";
import type { ReviewRecord } from "../../src/domain/review.js";
import { ZERO_USAGE } from "../../src/domain/usage.js";
import { PR_COMMENT_MARKER, prCommentBody } from "../../src/github/pr-comment.js";
import { stepSummary } from "../../src/github/step-summary.js";

const HEAD = "a1b2c3d".padEnd(40, "0");

function finding(n: number, message = `finding number ${n}`): ResultFinding {
  return {
    specialty: "security",
    policy: "SEC-02",
    severity: "high",
    blocking: true,
    needs_more_context: false,
    file: `src/f${n}.ts`,
    line: n,
    message,
  };
}

function result(findings: ResultFinding[]): ReviewResult {
  return {
    pr: "acme/web#7",
    route: "human",
    status: "waiting_for_human",
    risk: null,
    findings,
    escalation: { reason: "blocking_finding", detail: "blocking: SEC-02" },
    budget: { cycles_used: 0, cycles_max: 2, tool_calls: 0, ...ZERO_USAGE },
    investigations: [],
    coverage: null,
    review_id: "r-0123456789ab",
  };
}

const review = { id: "r-0123456789ab", pr: "acme/web#7", headSha: HEAD } as ReviewRecord;

describe("the PR summary comment's body", () => {
  it("starts with the hidden marker and is the step summary naming the head", () => {
    const r = result([finding(1)]);
    const body = prCommentBody(review, r, [{ covers: "security", ids: ["octo-sec"] }]);
    expect(body.split("\n")[0]).toBe(PR_COMMENT_MARKER);
    expect(body).toContain(`**PR:** acme/web#7 · **Head:** ${HEAD} · **Review:** \`r-0123456789ab\``);
    expect(body).toContain("| SEC-02 **blocking** | `src/f1.ts` | 1 | finding number 1 |");
    expect(body).toContain("- security: `octo-sec`");
    // The same Markdown as `gate check --summary`, bar the head it names.
    const summary = stepSummary(r, { deciders: [{ covers: "security", ids: ["octo-sec"] }] });
    expect(body.replace(` · **Head:** ${HEAD}`, "")).toContain(summary);
  });

  it("puts a known name beside a decider's id, and names who decided", () => {
    const names: Record<string, string> = { U1: "Dana" };
    const waiting = prCommentBody(
      review,
      result([finding(1)]),
      [{ covers: "security", ids: ["U1", "S2"] }],
      (id) => names[id],
    );
    expect(waiting).toContain("- security: Dana (`U1`), `S2`");
    const decided: ReviewResult = {
      ...result([finding(1)]),
      route: "human_approved",
      status: "done",
      decision: { kind: "approve", by: "U1", at: "2026-12-05T10:00:00.000Z" },
    };
    const body = prCommentBody(review, decided, [], (id) => names[id]);
    expect(body).toContain("Approved by Dana at 2026-12-05T10:00:00.000Z.");
    expect(body).not.toContain("U1");
  });

  it("lists 100 findings and says where the rest are", () => {
    const body = prCommentBody(review, result(Array.from({ length: 130 }, (_, i) => finding(i + 1))), []);
    expect(body).toContain("| `src/f100.ts` | 100 |");
    expect(body).not.toContain("`src/f101.ts`");
    expect(body).toContain("…and 30 more (`gate status r-0123456789ab` has them all).");
  });

  it("fits GitHub's 65,536 characters however long the messages are", () => {
    const long = Array.from({ length: 100 }, (_, i) => finding(i + 1, "x".repeat(2000)));
    const longEscalation = {
      ...result(long),
      escalation: { reason: "blocking_finding" as const, detail: "y".repeat(70_000) },
    };
    const body = prCommentBody(review, longEscalation, []);
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body.startsWith(PR_COMMENT_MARKER)).toBe(true);
    expect(body).toMatch(/…\(cut to fit a comment: `gate status r-0123456789ab` has it all\)\n$/);
  });
});
