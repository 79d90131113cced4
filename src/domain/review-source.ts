/** Where a review's pull request comes from. Plain JSON, validated by the runner. */
export type ReviewSource =
  | { kind: "fixture"; fixturesDir: string; name: string }
  | {
      kind: "github";
      owner: string;
      repo: string;
      number: number;
      headSha: string;
      installationId?: number;
      /** The PR's labels when the delivery was sent (`pull_request.labels[].name`): the emergency label is one. */
      labels?: string[];
      /** Who sent the delivery (`sender.login`): who labelled it, for an emergency granted on a label. */
      sender?: string;
    }
  | PushSource;

/**
 * Commits pushed straight to a watched branch (the default branch, or `GATE_PROTECTED_BRANCHES`)
 * with no merged pull request: reviewed after the fact, as one change from `before` to `headSha`
 * (GitHub's compare API), however many commits the push carried.
 */
export interface PushSource {
  kind: "push";
  owner: string;
  repo: string;
  /** The branch pushed to (`refs/heads/` taken off). */
  branch: string;
  /** The branch's head before the push. */
  before: string;
  /** The branch's head after it (`after`): the snapshot the review reads. */
  headSha: string;
  /** The push rewrote the branch's history (`forced: true`). */
  forced: boolean;
  /** The commits of the push that belong to no merged pull request, oldest first. */
  commits: string[];
  installationId?: number;
}
