import type { Logger } from "pino";
import type { ReviewRecord } from "../domain/review.js";
import type { ReviewRunner } from "../review/runner.js";
import type { ReviewJobs } from "../domain/review-jobs.js";
import type { ReviewStore } from "../domain/review-store.js";

/** Starts a fresh review of a review's head; returns the new review. */
export type StartRerun = (reviewId: string, by: string) => Promise<ReviewRecord>;

/**
 * The one way a re-run starts, whichever door asked (GitHub's "Re-run", `/gate rerun`, the card's
 * button): a new review of the same head is registered and shown in progress at once, then, in
 * the queue, the PR's earlier reviews are superseded (their cards point at the new one) and the
 * new review runs (the `rerun` job). Who may ask is the door's to check first.
 *
 * @example const fresh = await createReruns({ runner, store, jobs, log })("r-1", "U123");
 */
export function createReruns(deps: {
  runner: ReviewRunner;
  store: ReviewStore;
  jobs: ReviewJobs;
  log: Logger;
}): StartRerun {
  return async (reviewId, by) => {
    // Registered and queued together: a job exists exactly when its review does.
    const fresh = await deps.store.transaction(async (tx) => {
      const registered = await deps.runner.registerRerun(reviewId, by, tx);
      await deps.jobs.enqueue({ kind: "rerun", reviewId: registered.id }, tx);
      return registered;
    });
    deps.log.info({ reviewId, rerun: fresh.id, by }, "re-run queued");
    void deps.runner.announce(fresh.id);
    return fresh;
  };
}
