import type { Logger } from "pino";
import type { ReviewSource } from "../domain/review-source.js";
import type { IntakeResult, PullRequestLoader } from "../domain/pull-request-loader.js";
import { sandboxRoot } from "../snapshot/sandbox.js";
import type { SnapshotCaps, SnapshotRef } from "../domain/snapshot-ref.js";
import { GateError } from "../domain/errors.js";
import type { GitHubAuth } from "./client.js";
import { loadPullRequest } from "./intake.js";
import { readRepoConfig } from "./repo-config.js";
import { fetchSnapshot, removeSnapshot } from "../snapshot/tarball.js";

/**
 * Live intake: the PR and its files from the REST API (the same `PullRequest` a fixture gives),
 * and the head commit's tarball extracted into the sandbox root derived from owner/repo/SHA.
 * A snapshot that cannot be had (over one of its caps, unreadable, not downloadable) or an
 * incomplete file list marks the review incomplete, so it goes to a person saying why.
 *
 * @example const loader = createGitHubLoader({ auth, dataDir, snapshotCaps: settings.snapshot, log });
 */
export function createGitHubLoader(opts: {
  auth: GitHubAuth;
  dataDir: string;
  snapshotCaps: SnapshotCaps;
  log: Logger;
}): PullRequestLoader {
  return {
    async load(source: ReviewSource): Promise<IntakeResult> {
      if (source.kind !== "github") throw new Error("the GitHub loader reads GitHub sources only");
      const octokit =
        source.installationId !== undefined
          ? await opts.auth.forInstallation(source.installationId)
          : await opts.auth.forRepo(source.owner, source.repo);
      const { pr, incomplete } = await loadPullRequest(octokit, {
        owner: source.owner,
        repo: source.repo,
        number: source.number,
      });
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
        problems.push(`${(error as Error).message}; the review cannot use the repository's configuration`);
      }
      // The snapshot is of the commit this review is for (the webhook's head), never a moving ref.
      let snapshot: SnapshotRef = { kind: "github", owner: source.owner, repo: source.repo, sha: source.headSha };
      try {
        const root = sandboxRoot(snapshot, { dataDir: opts.dataDir });
        const stats = await fetchSnapshot(
          octokit,
          { owner: source.owner, repo: source.repo, sha: source.headSha },
          { root, ...opts.snapshotCaps },
        );
        if (stats.refused.length > 0) {
          opts.log.warn(
            { pr: `${pr.repo}#${pr.number}`, refused: stats.refused.slice(0, 20) },
            "snapshot entries refused",
          );
        }
      } catch (error) {
        // Without the head's files the detectors and the investigator saw nothing: a person reviews.
        problems.push(
          error instanceof GateError && error.code === "SNAPSHOT_OVER_CAP"
            ? `the head snapshot was refused: ${error.message}`
            : `the head snapshot could not be extracted: ${error instanceof Error ? error.message : String(error)}`,
        );
        opts.log.warn({ err: error, pr: `${pr.repo}#${pr.number}` }, "no snapshot: the review goes to a person");
        snapshot = { kind: "none" };
      }
      return {
        pr,
        snapshot,
        ...(problems.length > 0 ? { incomplete: problems.join("; ") } : {}),
        ...(repoConfig ? { repoConfig } : {}),
      };
    },
    async release(source: ReviewSource) {
      if (source.kind !== "github") return;
      const ref: SnapshotRef = { kind: "github", owner: source.owner, repo: source.repo, sha: source.headSha };
      await removeSnapshot(sandboxRoot(ref, { dataDir: opts.dataDir }));
    },
  };
}
