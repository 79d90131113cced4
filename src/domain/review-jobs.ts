import { GateError } from "./errors.js";
import type { ReviewStore } from "./review-store.js";

/**
 * A pull request's merge, as its `pull_request` `closed` delivery says it: who merged it and when,
 * the head merged, and (when GitHub says them) the merge commit, the author, the branch merged
 * into and the repository's default branch (a merge into another branch is no change to it).
 */
export interface PrMerge {
  by: string;
  at: string;
  headSha: string;
  commitSha?: string;
  author?: string;
  branch?: string;
  defaultBranch?: string;
}

/**
 * One unit of background work on a review, as data (so a database can hold it and any replica
 * can take it):
 * - `register`: a recorded pull_request delivery whose review is not registered yet: it is
 *   registered (unless its head is under review already) and its `review` job queued.
 * - `review`: a review registered from a push; the PR's older reviews are superseded, then it runs.
 * - `rerun`: a re-run's fresh review; the PR's earlier reviews are superseded, then it runs.
 * - `decision`: a person's decision that was received and not yet applied is finished.
 * - `publish`: a review's saved result is published again (a publisher failed, or a replica died).
 * - `close`: a closed (or merged) PR's unfinished reviews are ended; with `merge`, a review that had
 *   not let the merged head pass ends `merged_unapproved`.
 * - `label`: a label was added to a PR: the emergency label grants its waiting review an emergency
 *   pass (`by`: who labelled it).
 * - `recover`: after a restart (one process on SQLite): everything left queued, running or
 *   unpublished is finished.
 * - `hand_over`: a review whose job failed (or whose replica died) too many times goes to a
 *   person with the reason, rather than being tried for ever or dropped.
 */
export type ReviewJob =
  | { kind: "review" | "rerun" | "decision" | "publish"; reviewId: string }
  | { kind: "hand_over"; reviewId: string; why: string }
  | { kind: "register"; deliveryId: string }
  | { kind: "close"; pr: string; merge?: PrMerge }
  | { kind: "label"; pr: string; label: string; by?: string }
  | { kind: "recover" };

/**
 * Where the server puts background work on reviews, whatever runs it: an in-process queue (SQLite,
 * one process) or a table every replica takes jobs from (PostgreSQL). A job is never run in the
 * caller's turn: the webhook's answer goes out first.
 *
 * @example await store.transaction(async (tx) => jobs.enqueue({ kind: "review", reviewId }, tx));
 */
export interface ReviewJobs {
  /**
   * Queues a job. Given `tx`, a job held in the database is written in that transaction (it
   * exists exactly when the transaction's other writes do).
   */
  enqueue(job: ReviewJob, tx?: ReviewStore): Promise<void>;
  /** Jobs waiting or running (for /metrics): this process's, or the whole database's. */
  depth(): Promise<number>;
  /** Resolves when this process runs no job and has none waiting for it (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops taking jobs and waits for the running ones. */
  close(): Promise<void>;
}

/** What a job does; the server maps each kind to the runner. */
export type JobHandler = (job: ReviewJob) => Promise<void>;

/** A job this process holds from the moment it is written: another process takes it only if this one stops renewing it. */
export interface HeldJob {
  /** Done: the job is deleted. */
  release(): Promise<void>;
  /** Failed: the lease is no longer renewed, so another process takes the job over once it expires. */
  abandon(): void;
}

/**
 * What processes sharing one database need from each other (PostgreSQL, several replicas);
 * with SQLite there is one process and none of it is needed.
 */
export interface ReplicaCoordination {
  /** Writes a job held by this process (inside `tx`, with the writes it covers). */
  hold(job: ReviewJob, tx?: ReviewStore): Promise<HeldJob>;
  /** Drops a review's queued runs that no process holds (a push superseded it; inside `tx`). */
  dropQueued(reviewId: string, tx?: ReviewStore): Promise<void>;
  /**
   * Runs `work` while holding `key` against every process on the database. Rejects with
   * `LockLost` when the hold ended before `work` did (its connection was lost): another process
   * may have held `key` meanwhile, and what `work` did may have landed after what that one did.
   */
  exclusive<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/**
 * An `exclusive` hold that ended before its work did: the work ran (or failed, its error the
 * cause) while another process may have held the same key. Work that must not be overtaken
 * (a publish) is done again.
 *
 * @example try { await coordination.exclusive(key, work) } catch (e) { if (e instanceof LockLost) await again() }
 */
export class LockLost extends GateError {
  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super("LOCK_LOST", `the hold on ${key} ended before its work did`, options);
    this.name = "LockLost";
  }
}
