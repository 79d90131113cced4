import type { CarriedFrom, DecidedVia } from "./carry.js";
import type { AfterMergeKind, ApproverConfig, AttemptKind, DecideRefusal, DecisionDoor, Refusal } from "./decision.js";
import type { Approval, ReviewResult, ReviewStatus } from "./review-result.js";
import type { ReviewSource } from "./review-source.js";

export type { DecideRefusal } from "./decision.js";

/**
 * What resumes the human gate. Always an object (older LangGraph dropped falsy resume values).
 * Plain JSON.
 */
export type ResumeValue =
  /** `approvals`: every approval, when the blocking specialties needed several approvers (the last completes them). */
  | { kind: "approve"; by: string; note?: string; approvals?: Approval[]; via?: DecidedVia; carried?: CarriedFrom }
  | { kind: "reject"; by: string; note?: string; via?: DecidedVia; carried?: CarriedFrom }
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
  /** "fixture", "github" (a pull request) or "push" (commits pushed without one: docs/github-app.md). */
  source: ReviewSource["kind"];
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
  /** When a Slack card was first about to be posted (set before the post, so a crash after it can find the card). */
  slackPostStartedAt?: string;
  /** The ts of the PR's Slack thread (its first card) this review's card was posted in. */
  slackThreadTs?: string;
}

/** Live progress of an investigation, for the CLI and the Slack card. */
export interface InvestigationProgress {
  reviewId: string;
  turn: number;
  tool_calls: number;
  chars_read: number;
  cost_usd: number;
}

/** A refused decision: its code, its one message (plain style) and the facts it is made of. */
export interface Refused {
  ok: false;
  code: DecideRefusal;
  message: string;
  refusal: Refusal;
}

export type DecideOutcome = { ok: true; result: ReviewResult } | Refused;

/** Whether a decision may be made now, with the review as it stands when it may. */
export type CheckOutcome = { ok: true; review: ReviewRecord; result: ReviewResult } | Refused;

/**
 * What the Slack surface and the CLI need from the review machinery; the runner implements it.
 */
export interface ReviewService {
  /** Who may decide; the Slack door resolves the user groups these lists name. */
  readonly approvers: ApproverConfig;
  /**
   * Whether this person may make this decision now (the one decision policy), without applying
   * it: lets a door refuse before asking for a reason or a question. A refusal is audited.
   */
  check(reviewId: string, attempt: { kind: AttemptKind; by: string }, door: DecisionDoor): Promise<CheckOutcome>;
  /**
   * Applies a decision or an info request if the decision policy allows it (the door defaults to
   * the CLI's); serialised per review, exactly one resume wins. Every outcome is audited.
   */
  decide(
    reviewId: string,
    resume: ResumeValue,
    opts?: {
      door?: DecisionDoor;
      onProgress?: (p: InvestigationProgress) => void;
      /** Called once the decision is stored durably, before it is applied (Slack answers here). */
      onReceived?: () => Promise<void>;
      /**
       * The door ran `check` for this attempt just before (Slack): the decision policy is not run
       * again unless the review cannot be claimed (then it says why, or "busy").
       */
      checked?: boolean;
      /**
       * Asked just before the decision would be stored; false means the door's answer is already
       * due (Slack's 3 s) and it told the person nothing changed: nothing is stored ("too_late").
       */
      take?: () => boolean;
    },
  ): Promise<DecideOutcome>;
  /**
   * Records a decision after the fact on a review whose PR was merged without approval (approve
   * it, or mark it as an incident), if the decision policy allows it: the same approver lists and
   * the same audit as a decision at the gate; taken once.
   */
  decideAfterMerge(
    reviewId: string,
    decision: { kind: AfterMergeKind; by: string; note?: string },
    opts?: { door?: DecisionDoor },
  ): Promise<DecideOutcome>;
  /** The current result of a review by id, or of the newest review of `owner/repo#n`. */
  status(ref: string): Promise<ReviewResult | undefined>;
  get(reviewId: string): Promise<ReviewRecord | undefined>;
  /** Reviews waiting for a person, oldest first. */
  listWaiting(): Promise<ReviewRecord[]>;
}

/** What a publisher stored about what it published (merged into the review record). */
export type PublishReceipt = Partial<Pick<ReviewRecord, "slackChannel" | "slackTs" | "slackThreadTs" | "checkRunId">>;

/**
 * Publishes a review's state to one outside place (GitHub check run, Slack card).
 * Must be idempotent: the runner re-publishes after a crash, and the receipt says what exists.
 */
export interface Publisher {
  name: string;
  publish(review: ReviewRecord, result: ReviewResult): Promise<PublishReceipt>;
}
