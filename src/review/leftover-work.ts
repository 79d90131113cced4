import type { ReviewStatus } from "../domain/review-result.js";
import type { ReviewJob } from "../domain/review-jobs.js";
import type { ReviewStore } from "../domain/review-store.js";

/** A job that finishes work a stopped process left undone. */
export type LeftoverJob = ReviewJob & { kind: "decision" | "review" | "publish"; reviewId: string };

/**
 * The reviews a restart runs again when one process holds the database (SQLite): queued, and
 * running when it stopped. Replicas (PostgreSQL) pick up queued ones only: a running review may
 * be another live process's.
 */
export const RUN_AFTER_RESTART: readonly ReviewStatus[] = ["queued", "running"];

/**
 * What a stopped process left undone, as the jobs that finish it, in the order they must run:
 * each decision received and not applied (its review shows as running until then), each review
 * in one of `run`'s statuses, each review whose saved result was not published. Each list is read
 * when the walk reaches it, so what the earlier jobs did (a decision applied and published) is
 * not found again; each reads only the rows that need work (by index), never the settled history.
 * A restart runs these jobs (`ReviewRunner.recover`); a replica's start queues them.
 *
 * @example for await (const job of leftoverWork(store, ["queued"])) await queue.adopt(job);
 */
export async function* leftoverWork(
  store: ReviewStore,
  run: readonly ReviewStatus[] = RUN_AFTER_RESTART,
): AsyncGenerator<LeftoverJob> {
  for (const d of await store.pendingDecisions()) yield { kind: "decision", reviewId: d.reviewId };
  for (const r of await store.withStatus(...run)) yield { kind: "review", reviewId: r.id };
  for (const r of await store.unpublished()) yield { kind: "publish", reviewId: r.id };
}
