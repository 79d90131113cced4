import type { ReviewSource } from "./review-source.js";
import type { SnapshotRef } from "./snapshot-ref.js";
import type { PullRequest } from "./pull-request.js";

/**
 * What intake produced: the PR, a reference to its snapshot (not downloaded: its first reader
 * fetches it), and why it is incomplete (fail closed) if it is.
 */
export interface IntakeResult {
  pr: PullRequest;
  snapshot: SnapshotRef;
  incomplete?: string;
  /** The repository's own configuration file as its base commit has it (absent: it has none). */
  repoConfig?: { source: string; text: string };
  /** The repository's own policy files as its base commit has them (absent or empty: it has none). */
  repoPolicies?: { source: string; text: string }[];
}

/**
 * Loads a review's pull request from where it lives (a fixture, GitHub). Injected into the graph,
 * so the graph itself does no I/O.
 */
export interface PullRequestLoader {
  load(source: ReviewSource, signal?: AbortSignal): Promise<IntakeResult>;
}

/**
 * Where a review's pull request is kept, once, outside the checkpointed graph state: the graph's
 * state holds only its summary, so a large diff is not saved again at every step. It stays after
 * the review settles (`gate config whatif` replays it).
 */
export interface PullRequestStore {
  put(reviewId: string, pr: PullRequest): Promise<void>;
  /** The review's pull request, or undefined when it was never stored (or was pruned). */
  get(reviewId: string): Promise<PullRequest | undefined>;
  /** Forgets a review's pull request (its result keeps what `status` shows). */
  delete(reviewId: string): Promise<void>;
}
