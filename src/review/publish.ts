import pRetry from "p-retry";
import type { Logger } from "pino";
import type { ReviewResult } from "../domain/review-result.js";
import type { Publisher, PublishReceipt, ReviewRecord } from "../domain/review.js";
import type { ReviewStore } from "../domain/review-store.js";
import { LockLost, type ReplicaCoordination } from "../domain/review-jobs.js";
import { KeyedLock } from "./keyed-lock.js";

/** How often a publish whose shared lock was lost is done again: 11 times, backing off from 0.1 s to 2 s (about 15 s in all). */
const LOCK_LOST_RETRY = { retries: 11, minTimeout: 100, maxTimeout: 2000, factor: 2 };

/** The record as the store holds it once a receipt is recorded (a receipt only adds). */
function withReceipt(review: ReviewRecord, receipt: PublishReceipt): ReviewRecord {
  const added = Object.fromEntries(Object.entries(receipt).filter(([, v]) => v !== undefined && v !== null));
  return { ...review, ...added };
}

export interface PublishDeps {
  store: ReviewStore;
  /** The publishers for a review (GitHub check run for live PRs, Slack card when configured). */
  publishersFor(review: ReviewRecord): Publisher[];
  log: Logger;
  /** Several replicas on one database (PostgreSQL): a review is published by one at a time. */
  coordination?: Pick<ReplicaCoordination, "exclusive">;
}

/**
 * Shows what a review concluded everywhere it belongs, and records what it showed: each
 * publisher's receipt (a check run id, a card's place), and the result once every publisher
 * showed it, so a crash or a failing publisher in between is repaired by publishing again.
 *
 * @example await publishing.record(review.id, result);
 */
export class ReviewPublishing {
  // One publish at a time per review: a push superseding a review that is still running publishes
  // beside the run, and the later publish must see the earlier one's receipt (its check run id).
  // Across replicas (PostgreSQL) the same holds through the coordination's shared lock.
  private readonly lock = new KeyedLock();

  private publishersFor: PublishDeps["publishersFor"];

  constructor(private readonly deps: PublishDeps) {
    this.publishersFor = deps.publishersFor;
  }

  /** Publishes through these publishers from now on (the server's, once their store is open). */
  use(publishersFor: PublishDeps["publishersFor"]): void {
    this.publishersFor = publishersFor;
  }

  /**
   * Saves what the review concluded, then publishes it. A queued or running result that came too
   * late (the review settled meanwhile, on this replica or another) is neither saved nor published.
   */
  async record(reviewId: string, result: ReviewResult): Promise<void> {
    if (!(await this.deps.store.saveResult(reviewId, result))) {
      this.deps.log.debug({ reviewId, status: result.status }, "a late announcement of a settled review: not shown");
      return;
    }
    await this.publish(reviewId);
  }

  /**
   * Publishes the review's last saved result. A failing publisher is logged, and the result
   * stays unpublished until the next publish (`recover` on restart).
   */
  async publish(reviewId: string): Promise<void> {
    const shared = this.deps.coordination;
    if (!shared) return this.lock.run(reviewId, () => this.publishNow(reviewId));
    // A publish whose shared lock was lost midway may have landed after another replica's (a stale
    // "in progress" over the verdict, the review marked published): it is done again, under a lock
    // held to its end, so what shows last is the saved result.
    await this.lock.run(reviewId, () =>
      pRetry(() => shared.exclusive(`publish:${reviewId}`, () => this.publishNow(reviewId)), {
        ...LOCK_LOST_RETRY,
        shouldRetry: ({ error }) => error instanceof LockLost,
        onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
          if (error instanceof LockLost && retriesLeft > 0)
            this.deps.log.warn(
              { err: error, reviewId, attempt: attemptNumber },
              "the publish lock was lost midway: publishing again",
            );
        },
      }),
    );
  }

  private async publishNow(reviewId: string): Promise<void> {
    // Publish what the review concluded last, whichever call got here first: a late "queued"
    // announcement must never overwrite a verdict.
    const result = await this.deps.store.lastResult(reviewId);
    let review = await this.deps.store.get(reviewId);
    if (!result || !review) return;
    let allOk = true;
    for (const publisher of this.publishersFor(review)) {
      try {
        const receipt = await publisher.publish(review, result);
        await this.deps.store.recordReceipt(reviewId, receipt);
        // The next publisher sees this one's receipt (the check run links to the card).
        review = withReceipt(review, receipt);
      } catch (error) {
        allOk = false;
        this.deps.log.error({ err: error, reviewId, publisher: publisher.name }, "publish failed");
      }
    }
    if (allOk) await this.deps.store.markPublished(reviewId, result);
  }
}
