import type { Logger } from "pino";
import type { PushedChange, PushTriage, TriagePush } from "../domain/pushed-change.js";
import type { GitHubAuth } from "./client.js";
import { octokitFor } from "./octokit-for.js";

/** The first line of a commit message. */
export function subjectOf(message: string): string {
  return message.split("\n", 1)[0]?.trim() ?? "";
}

/**
 * Which commits of a push came through a merged pull request, per GitHub's "list pull requests
 * associated with a commit" (`GET /repos/{o}/{r}/commits/{sha}/pulls`). The push's commits are
 * the compare API's (`before...after`, up to 250; the payload lists at most 20), else the
 * payload's. A commit GitHub cannot answer for counts as unreviewed: a person looks at it.
 *
 * @example const { unreviewed } = await createPushTriage(auth, log)(push);
 */
export function createPushTriage(auth: GitHubAuth, log: Logger): TriagePush {
  return async (push: PushedChange): Promise<PushTriage> => {
    const octokit = await octokitFor(auth, {
      owner: push.owner,
      repo: push.name,
      ...(push.installationId !== undefined ? { installationId: push.installationId } : {}),
    });
    let commits = push.commits;
    try {
      const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
        owner: push.owner,
        repo: push.name,
        basehead: `${push.before}...${push.after}`,
      });
      if (data.commits.length > 0) commits = data.commits.map((c) => ({ sha: c.sha, message: c.commit.message }));
    } catch (error) {
      log.warn(
        { err: error, repo: push.repo, after: push.after },
        "could not list the push's commits; the payload's are used",
      );
    }
    const triage: PushTriage = { unreviewed: [], viaPullRequest: [] };
    for (const commit of commits) {
      try {
        const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
          owner: push.owner,
          repo: push.name,
          commit_sha: commit.sha,
        });
        const merged = data.find((pr) => pr.merged_at);
        if (merged) triage.viaPullRequest.push({ sha: commit.sha, pr: merged.number });
        else triage.unreviewed.push(commit);
      } catch (error) {
        log.warn({ err: error, repo: push.repo, sha: commit.sha }, "could not ask GitHub for a commit's pull requests");
        triage.unreviewed.push(commit);
      }
    }
    return triage;
  };
}
