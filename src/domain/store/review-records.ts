import type { ReviewResult, ReviewStatus } from "../review-result.js";
import type { ReviewSource } from "../review-source.js";
import type { PublishReceipt, ReviewRecord } from "../review.js";

/** What registering a review needs. */
export interface ReviewRegistration {
  source: ReviewSource;
  repo: string;
  number: number;
  headSha: string;
  title?: string;
  url?: string;
  author?: string;
  installationId?: number;
  /** When the PR changed to this head, per GitHub (a webhook's `pull_request.updated_at`). */
  eventAt?: string;
  /** The review's key when it is not `owner/repo#n`: a push's `owner/repo@sha7` (no pull request). */
  pr?: string;
}

/**
 * The store's review records: one row per review (its PR, head, status, what its publishers
 * created) and the result it concluded, saved and published.
 *
 * @example await records.register({ id: "r-1", pr: "acme/web#7", ...registration });
 */
export interface ReviewRecords {
  /** Registers a review before it runs, so `status` can say "queued" (docs/design.md, reason 9). */
  register(input: ReviewRegistration & { id: string; pr: string }): Promise<ReviewRecord>;
  get(id: string): Promise<ReviewRecord | undefined>;
  source(id: string): Promise<ReviewSource | undefined>;
  /** The newest review of `owner/repo#n`. */
  latestForPr(pr: string): Promise<ReviewRecord | undefined>;
  /** Every review of `owner/repo#n`, newest first (a push or a re-run adds one). */
  allForPr(pr: string): Promise<ReviewRecord[]>;
  /** Reviews of a PR that are not finished (queued, running or waiting), oldest first. */
  openForPr(pr: string): Promise<ReviewRecord[]>;
  /** Reviews in any of these statuses, oldest first. */
  withStatus(...statuses: ReviewStatus[]): Promise<ReviewRecord[]>;
  setStatus(id: string, status: ReviewStatus): Promise<void>;
  /**
   * Sets a review's status unless a push superseded it, its PR was closed, or its PR was merged
   * without approval (such a review stays so); false when it was. The saved result counts as not
   * published until the result of the new status is (`unpublished` finds a process that stopped
   * between the two, and the publish saves the result again).
   */
  setStatusUnlessSuperseded(id: string, status: ReviewStatus): Promise<boolean>;
  /**
   * Moves a review from one status to another only if it is still in `from`: the one winner of a
   * race (two clicks, two processes) gets true.
   */
  claim(id: string, from: ReviewStatus, to: ReviewStatus): Promise<boolean>;
  /** Ends a review because its PR was closed: no decision, it stops gating. */
  close(id: string): Promise<void>;
  supersede(id: string, bySha: string): Promise<void>;
  /**
   * Saves the result the graph concluded (what should be published). A queued or running result
   * is saved only while the review is still queued or running: a late announcement (another
   * replica settled the review meanwhile) never overwrites a verdict. False when it was not saved.
   */
  saveResult(id: string, result: ReviewResult): Promise<boolean>;
  lastResult(id: string): Promise<ReviewResult | undefined>;
  /** Records what a publisher created (a Slack message, a check run), so it is updated, never created twice. */
  recordReceipt(id: string, receipt: PublishReceipt): Promise<void>;
  /** Records that every publisher showed this result. */
  markPublished(id: string, result: ReviewResult): Promise<void>;
  /**
   * Reviews whose saved result differs from what was last published (a crash in between), oldest
   * first; only `reviewId`, if it is one, when given. Reads only such reviews (an index holds
   * them), never the settled history.
   */
  unpublished(reviewId?: string): Promise<ReviewRecord[]>;
}
