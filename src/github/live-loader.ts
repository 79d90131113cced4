import { messageOf } from "../domain/errors.js";
import type { FileCaps } from "../domain/file-caps.js";
import type { ReviewSource } from "../domain/review-source.js";
import type { IntakeResult, PullRequestLoader } from "../domain/pull-request-loader.js";
import { snapshotOf } from "../domain/snapshot-ref.js";
import type { GitHubAuth } from "./client.js";
import { octokitFor } from "./octokit-for.js";
import { loadPullRequest } from "./intake.js";
import { loadPush } from "./push-loader.js";
import { readRepoConfig, readRepoPolicies } from "./repo-config.js";

/**
 * Live intake: the PR and its files from the REST API (the same `PullRequest` a fixture gives),
 * and a reference to its head commit's snapshot. Nothing is downloaded here: the snapshot is
 * fetched by the first reader that needs it (`createSnapshotCache`), so a PR whose review reads no
 * head file (a docs-only change) never downloads its tarball. An incomplete file list, or a diff
 * over `fileCaps` (`GATE_MAX_FILE_LINES`, `GATE_MAX_FILE_BYTES`), marks the review incomplete, so it
 * goes to a person saying why.
 *
 * @example const loader = createGitHubLoader({ auth });
 */
export function createGitHubLoader(opts: {
  auth: GitHubAuth;
  /** `GATE_MAX_FILE_LINES`, `GATE_MAX_FILE_BYTES`, and `GATE_MAX_ANSWER_BYTES` for each page of the file list. */
  fileCaps?: FileCaps & { answerBytes?: number };
}): PullRequestLoader {
  return {
    async load(source: ReviewSource): Promise<IntakeResult> {
      if (source.kind === "fixture") throw new Error("the GitHub loader reads GitHub sources only");
      const octokit = await octokitFor(opts.auth, source);
      // Commits pushed with no pull request: the pushed range, reviewed after the fact.
      if (source.kind === "push") return loadPush(octokit, source, opts.fileCaps);
      const { pr, incomplete } = await loadPullRequest(
        octokit,
        { owner: source.owner, repo: source.repo, number: source.number },
        opts.fileCaps,
      );
      const problems = incomplete ? [incomplete] : [];
      if (pr.headSha !== source.headSha) {
        // The PR moved on; its new head gets its own review. This one reviews what GitHub now serves.
        problems.push(
          `the PR's head moved from ${source.headSha.slice(0, 7)} to ${pr.headSha.slice(0, 7)} during intake`,
        );
      }
      // The repository's configuration comes from the base commit, never the head its author controls.
      let repoConfig: IntakeResult["repoConfig"];
      try {
        repoConfig = await readRepoConfig(octokit, { owner: source.owner, repo: source.repo, ref: pr.baseSha });
      } catch (error) {
        problems.push(`${messageOf(error)}; the review cannot use the repository's configuration`);
      }
      // Its own policies too: from the base commit only (a PR adding one raises SEC-06 instead).
      let repoPolicies: IntakeResult["repoPolicies"];
      try {
        repoPolicies = await readRepoPolicies(
          octokit,
          { owner: source.owner, repo: source.repo, ref: pr.baseSha },
          (unread) => problems.push(unread),
        );
      } catch (error) {
        problems.push(`${messageOf(error)}; the review cannot use the repository's own policies`);
      }
      return {
        pr,
        // The snapshot is of the commit this review is for (the webhook's head), never a moving ref.
        snapshot: snapshotOf(source),
        ...(problems.length > 0 ? { incomplete: problems.join("; ") } : {}),
        ...(repoConfig ? { repoConfig } : {}),
        ...(repoPolicies?.length ? { repoPolicies } : {}),
      };
    },
  };
}
