import type { ReviewResult, ReviewStatus } from "./review-result.js";

/**
 * What resumes the human gate. Always an object (older LangGraph dropped falsy resume values).
 * Plain JSON.
 */
export type ResumeValue =
  | { kind: "approve"; by: string; note?: string }
  | { kind: "reject"; by: string; note?: string }
  | { kind: "info"; by: string; question: string };

/** One review as the app's `reviews` table holds it. */
export interface ReviewRecord {
  /** The LangGraph thread id, e.g. "r-3f9a1c2b7d4e". */
  id: string;
  /** "owner/repo#123". */
  pr: string;
  repo: string;
  number: number;
  headSha: string;
  title: string;
  url: string;
  /** The PR author's GitHub login. */
  author: string;
  status: ReviewStatus;
  /** "fixture" or "github". */
  source: "fixture" | "github";
  createdAt: string;
  updatedAt: string;
  slackChannel?: string;
  slackTs?: string;
  checkRunId?: number;
  supersededBy?: string;
  /** Installation id of the GitHub App, for live reviews. */
  installationId?: number;
  /** When the PR changed to this head, per GitHub; orders out-of-order webhook deliveries. */
  eventAt?: string;
}

/** Live progress of an investigation, for the CLI and the Slack card. */
export interface InvestigationProgress {
  reviewId: string;
  turn: number;
  tool_calls: number;
  chars_read: number;
  cost_usd: number;
}

/** Why a decision was not applied. */
export type DecideRefusal =
  | "not_found"
  | "not_waiting"
  | "already_decided"
  | "superseded"
  | "busy"
  | "budget_spent"
  | "not_allowed";

export type DecideOutcome =
  | { ok: true; result: ReviewResult }
  | { ok: false; code: DecideRefusal; message: string; decidedBy?: string };

/**
 * What the Slack surface and the CLI need from the review machinery; the runner implements it.
 */
export interface ReviewService {
  /** Applies a decision or an info request; serialised per review, exactly one resume wins. */
  decide(
    reviewId: string,
    resume: ResumeValue,
    opts?: { onProgress?: (p: InvestigationProgress) => void },
  ): Promise<DecideOutcome>;
  /** The current result of a review by id, or of the newest review of `owner/repo#n`. */
  status(ref: string): Promise<ReviewResult | undefined>;
  get(reviewId: string): ReviewRecord | undefined;
  /** Reviews waiting for a person, oldest first. */
  listWaiting(): ReviewRecord[];
}

/** What a publisher stored about what it published (merged into the review record). */
export type PublishReceipt = Partial<Pick<ReviewRecord, "slackChannel" | "slackTs" | "checkRunId">>;

/**
 * Publishes a review's state to one outside place (GitHub check run, Slack card).
 * Must be idempotent: the runner re-publishes after a crash, and the receipt says what exists.
 */
export interface Publisher {
  name: string;
  publish(review: ReviewRecord, result: ReviewResult): Promise<PublishReceipt>;
}
