import type { Octokit } from "@octokit/rest";
import { REPO_CONFIG_PATH, type RepoConfigText } from "../gate-file/repo-file.js";
import { GateError, messageOf } from "../domain/errors.js";

/**
 * A repository's `.github/gate.yml` at `ref` (the pull request's base commit; the default branch
 * when no ref is given), through the contents API; undefined when the repository has none.
 * Never read from a pull request's head, which its author controls.
 *
 * @example await readRepoConfig(octokit, { owner: "acme", repo: "web", ref: pr.baseSha }) // { source, text } | undefined
 */
export async function readRepoConfig(
  octokit: Octokit,
  at: { owner: string; repo: string; ref?: string },
): Promise<RepoConfigText | undefined> {
  const where = `${at.owner}/${at.repo}:${REPO_CONFIG_PATH}@${at.ref ? at.ref.slice(0, 12) : "default branch"}`;
  let data: unknown;
  try {
    ({ data } = await octokit.rest.repos.getContent({
      owner: at.owner,
      repo: at.repo,
      path: REPO_CONFIG_PATH,
      ...(at.ref ? { ref: at.ref } : {}),
    }));
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw new GateError("GITHUB_INTAKE", `could not read ${where}: ${messageOf(error)}`, { cause: error });
  }
  const file = data as { type?: string; encoding?: string; content?: string };
  if (Array.isArray(data) || file.type !== "file" || file.encoding !== "base64" || typeof file.content !== "string") {
    throw new GateError("GITHUB_INTAKE", `${where} is not a file GitHub returned whole`);
  }
  return { source: where, text: Buffer.from(file.content, "base64").toString("utf8") };
}
