import type { Logger } from "pino";
import type { ReviewRecord } from "../domain/review.js";
import type { ReviewRunner } from "../review/runner.js";
import type { ReviewQueue } from "./review-queue.js";

/** Starts a fresh review of a review's head; returns the new review. */
export type StartRerun = (reviewId: string, by: string) => Promise<ReviewRecord>;

/**
 * The one way a re-run starts, whichever door asked (GitHub's "Re-run", `/gate rerun`, the card's
 * button): a new review of the same head is registered and shown in progress at once, then, in
 * the queue, the PR's earlier reviews are superseded (their cards point at the new one) and the
 * new review runs. Who may ask is the door's to check first.
 *
 * @example const fresh = await createReruns({ runner, queue, log })("r-1", "U123");
 */
export function createReruns(deps: { runner: ReviewRunner; queue: ReviewQueue; log: Logger }): StartRerun {
  return async (reviewId, by) => {
    const fresh = await deps.runner.registerRerun(reviewId, by);
    deps.log.info({ reviewId, rerun: fresh.id, by }, "re-run queued");
    void deps.runner.announce(fresh.id);
    deps.queue.push(async () => {
      await deps.runner.supersedeForRerun(fresh);
      await deps.runner.run(fresh.id);
    });
    return fresh;
  };
}
