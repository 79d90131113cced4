/**
 * A verified `push` to a watched branch (the repository's default branch, or one of
 * `GATE_PROTECTED_BRANCHES`), as the delivery inbox keeps it until the gate has asked GitHub which
 * of its commits came through a merged pull request. Plain JSON.
 */
export interface PushedChange {
  /** `owner/name`. */
  repo: string;
  owner: string;
  name: string;
  /** The branch (`refs/heads/` taken off). */
  branch: string;
  before: string;
  after: string;
  /** `forced: true`: the push rewrote the branch's history. */
  forced: boolean;
  /** Who pushed (`pusher.name`). */
  pusher: string;
  /** When (the head commit's timestamp, else when the delivery came). */
  at: string;
  /** The commits the payload lists, oldest first (GitHub lists at most 20; the compare API gives the rest). */
  commits: Array<{ sha: string; message: string }>;
  /** GitHub's compare page of the push. */
  compareUrl?: string;
  installationId?: number;
}

/** What GitHub says of each commit of a push: the commits with no merged pull request (reviewed after the fact). */
export interface PushTriage {
  /** Commits that belong to no merged pull request, oldest first: "changed without review". */
  unreviewed: Array<{ sha: string; message: string }>;
  /** Commits that came through a merged pull request (that PR's review, or item 1's `merged_unapproved`, covers them). */
  viaPullRequest: Array<{ sha: string; pr: number }>;
}

/** Asks GitHub which commits of a push came through a merged pull request. */
export type TriagePush = (push: PushedChange) => Promise<PushTriage>;
