import type { Logger } from "pino";
import { refusalMessage, type Refusal } from "../domain/decision.js";
import type { ReviewRecord } from "../domain/review.js";
import type { ReviewRunner } from "../review/runner.js";
import type { ReviewJobs } from "../domain/review-jobs.js";
import type { ReviewStore } from "../domain/review-store.js";
import { audits } from "../review/audit-entries.js";

/** A re-run started (the new review), or refused (a review of the same head is already queued or running). */
export type RerunOutcome = { ok: true; review: ReviewRecord } | { ok: false; refusal: Refusal };

/** Starts a fresh review of a review's head; returns the new review, or why none was started. */
export type StartRerun = (reviewId: string, by: string) => Promise<RerunOutcome>;

/**
 * Why a re-run of this review's head must not start now: the PR's newest review is of the same head
 * and queued or running, or another re-run from the same newest review was taken first (the key
 * `rerun-of:<newest id>`, claimed in the transaction, makes two replicas agree). Undefined when it may.
 */
async function rerunRefusal(tx: ReviewStore, review: ReviewRecord): Promise<Refusal | undefined> {
  const newest = (await tx.latestForPr(review.pr)) ?? review;
  const busy = { code: "already_running" as const, pr: review.pr, reviewId: newest.id };
  if (newest.headSha !== review.headSha) return undefined;
  if (newest.status === "queued" || newest.status === "running") return busy;
  return (await tx.claimSlackNote(`rerun-of:${newest.id}`, newest.id)) ? undefined : busy;
}

/**
 * The one way a re-run starts, whichever door asked (GitHub's "Re-run", `/gate rerun`, the card's
 * button): a new review of the same head is registered and shown in progress at once, then, in
 * the queue, the PR's earlier reviews are superseded (their cards point at the new one) and the
 * new review runs (the `rerun` job). Who may ask is the door's to check first; a second re-run of
 * a head while one is queued or running is refused here, and audited.
 *
 * @example const outcome = await createReruns({ runner, store, jobs, log })("r-1", "U123");
 */
export function createReruns(deps: {
  runner: ReviewRunner;
  store: ReviewStore;
  jobs: ReviewJobs;
  log: Logger;
}): StartRerun {
  return async (reviewId, by) => {
    // Registered and queued together: a job exists exactly when its review does.
    const outcome = await deps.store.transaction(async (tx): Promise<RerunOutcome> => {
      const review = await tx.get(reviewId);
      const refusal = review ? await rerunRefusal(tx, review) : { code: "not_found" as const, reviewId };
      if (refusal) {
        const message = refusalMessage(refusal);
        await tx.audit(audits.requestRefused(reviewId, by, "rerun", refusal, { message }));
        return { ok: false, refusal };
      }
      const registered = await deps.runner.registerRerun(reviewId, by, tx);
      await deps.jobs.enqueue({ kind: "rerun", reviewId: registered.id }, tx);
      return { ok: true, review: registered };
    });
    if (!outcome.ok) {
      deps.log.info({ reviewId, by, code: outcome.refusal.code }, "re-run refused");
      return outcome;
    }
    deps.log.info({ reviewId, rerun: outcome.review.id, by }, "re-run queued");
    void deps.runner.announce(outcome.review.id);
    return outcome;
  };
}
