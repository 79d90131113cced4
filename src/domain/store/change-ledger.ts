import type { ReviewStatus } from "../review-result.js";

/**
 * How a change reached a repository's default branch: `merge`, a pull request merged (GitHub's
 * `pull_request` `closed` with `merged: true`); `push`, a commit pushed to the branch with no
 * merged pull request (recorded by the `push` handler, when the gate has one).
 */
export type ChangeKind = "merge" | "push";

/** A change to a default branch, as it is recorded when the gate learns of it. */
export interface ChangeInput {
  kind: ChangeKind;
  /** "owner/name". */
  repo: string;
  /** "owner/repo#123" for a merge; absent for a commit pushed without a pull request. */
  pr?: string;
  /** The commit that reached the branch: the merge commit (`merge_commit_sha`) or the pushed commit. */
  commitSha?: string;
  /** The pull request's head at the merge. */
  headSha?: string;
  /** The branch it reached. */
  branch?: string;
  /** Who wrote the change (the PR's author, or the commit's). */
  author: string;
  /** Who merged (or pushed) it. */
  mergedBy: string;
  /** When it reached the branch (ISO-8601). */
  mergedAt: string;
  /** The review that stood for the change's head when it reached the branch; absent when the gate had none. */
  reviewId?: string;
  /** Whether the gate had let that head pass when it reached the branch (approved, auto-approved, an emergency's pass). */
  passed: boolean;
}

/** A recorded change with its review as the review stands now (its status and saved result). */
export interface StoredChange extends ChangeInput {
  /** One per change: the PR ("acme/web#12") for a merge, "owner/name@sha" for a pushed commit. */
  key: string;
  recordedAt: string;
  review?: {
    status: ReviewStatus;
    /** The review's saved result JSON (absent before one was saved). */
    resultJson?: string;
    /** When the review's row last changed (an auto-approval's time). */
    updatedAt: string;
  };
}

/** Which changes a listing takes: of one repository, reaching the branch in [since, until). */
export interface ChangeFilter {
  repo?: string;
  /** One change by its key (the evidence page of one change). */
  key?: string;
  /** Inclusive, ISO-8601. */
  since?: string;
  /** Exclusive, ISO-8601. */
  until?: string;
}

/** Where the previous page ended (its last change's time and key). */
export interface ChangeCursor {
  mergedAt: string;
  key: string;
}

/** The key a change is recorded under: one row per merged PR, one per pushed commit. */
export function changeKey(c: Pick<ChangeInput, "kind" | "repo" | "pr" | "commitSha">): string {
  if (c.kind === "merge" && c.pr) return c.pr;
  return `${c.repo}@${c.commitSha ?? "unknown"}`;
}

/**
 * Every change that reached a default branch, as the gate learned of it (the evidence an auditor
 * samples: `gate evidence`, src/review/evidence-row.ts).
 *
 * @example await ledger.recordChange({ kind: "merge", repo: "acme/web", pr: "acme/web#7", ... });
 */
export interface ChangeLedger {
  /** Records a change once under its key (`changeKey`); false when it was recorded before (a redelivery). */
  recordChange(change: ChangeInput): Promise<boolean>;
  /**
   * Up to `limit` changes matching `filter` after `after`, ordered by when they reached the
   * branch, then key; each with its review as it stands.
   */
  changesPage(filter: ChangeFilter, after: ChangeCursor | undefined, limit: number): Promise<StoredChange[]>;
}
