import type { Logger } from "pino";
import type { HeadComparison, PushHistory } from "../domain/carry.js";
import type { GitHubAuth } from "./client.js";
import { octokitFor } from "./octokit-for.js";

/** GitHub lists at most this many files in a comparison; a longer list is cut short. */
const COMPARE_FILE_LIMIT = 300;

/**
 * A PR's heads compared through GitHub's compare API (`GET /repos/{o}/{r}/compare/{base}...{head}`):
 * `ahead` or `identical` means the old head is an ancestor of the new one; `diverged` or `behind`
 * means the history was rewritten (a force-push). Any failure answers `unknown` (start over).
 *
 * @example await createPushHistory(auth, log).compare({ repo: "acme/web", installationId: 7 }, oldSha, newSha) // { history: "ahead", files: ["README.md"] }
 */
export function createPushHistory(auth: GitHubAuth, log: Logger): PushHistory {
  return {
    async compare(where, baseSha, headSha): Promise<HeadComparison> {
      const [owner = "", repo = ""] = where.repo.split("/");
      try {
        const octokit = await octokitFor(auth, {
          owner,
          repo,
          ...(where.installationId !== undefined ? { installationId: where.installationId } : {}),
        });
        const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
          owner,
          repo,
          basehead: `${baseSha}...${headSha}`,
          per_page: COMPARE_FILE_LIMIT,
        });
        if (data.status !== "ahead" && data.status !== "identical") return { history: "rewritten" };
        const listed = data.files ?? [];
        // A cut-short list cannot say which files did not change.
        if (listed.length >= COMPARE_FILE_LIMIT) return { history: "ahead" };
        const files = listed.flatMap((f) => (f.previous_filename ? [f.filename, f.previous_filename] : [f.filename]));
        return { history: "ahead", files: [...new Set(files)].sort() };
      } catch (error) {
        log.warn({ err: error, repo: where.repo, baseSha, headSha }, "could not compare the PR's heads");
        return { history: "unknown" };
      }
    },
  };
}
