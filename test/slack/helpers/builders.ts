import type { ResultFinding, ReviewResult } from "../../../src/domain/review-result.js";
import type { ReviewRecord } from "../../../src/domain/review.js";

export const HEAD_SHA = "3f9a1c2b7d4e5f60718293a4b5c6d7e8f9012345";

/** Where the tests' Slack app posted the card of the review `makeReview` builds. */
export const CARD = { channel: "CREVIEWS", ts: "1700000000.000101" };

/** A review record waiting for a person, with overrides. */
export function makeReview(overrides: Partial<ReviewRecord> = {}): ReviewRecord {
  return {
    id: "r-0001",
    pr: "acme/web#12",
    repo: "acme/web",
    number: 12,
    headSha: HEAD_SHA,
    title: "Refactor session validation",
    url: "https://github.com/acme/web/pull/12",
    author: "octocat",
    status: "waiting_for_human",
    source: "github",
    createdAt: "2026-03-01T10:00:00.000Z",
    updatedAt: "2026-03-01T10:00:05.000Z",
    ...overrides,
  };
}

/** A finding with overrides. */
export function makeFinding(overrides: Partial<ResultFinding> = {}): ResultFinding {
  return {
    specialty: "security",
    policy: "SEC-03",
    severity: "high",
    blocking: true,
    needs_more_context: false,
    file: "src/auth/session.ts",
    line: 42,
    message: "Session expiry check removed from validateSession",
    ...overrides,
  };
}

/** A result waiting at the human gate, with overrides. */
export function makeResult(overrides: Partial<ReviewResult> = {}): ReviewResult {
  return {
    pr: "acme/web#12",
    route: "human",
    status: "waiting_for_human",
    risk: { score: 72, class: "auth", reasons: ["touches auth code", "changes session handling"] },
    findings: [makeFinding()],
    escalation: { reason: "blocking_finding", detail: "SEC-03 is blocking" },
    budget: {
      cycles_used: 1,
      cycles_max: 2,
      tool_calls: 5,
      model_calls: 3,
      input_tokens: 1200,
      output_tokens: 300,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cost_usd: 0.0123,
    },
    investigations: [],
    coverage: null,
    review_id: "r-0001",
    ...overrides,
  };
}
