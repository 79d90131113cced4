import type { Octokit } from "@octokit/rest";
import type { GitHubAuth } from "./client.js";

/**
 * The client for a repository: as the named App installation, or the repository's own (a token
 * when there is no App).
 *
 * @example const octokit = await octokitFor(auth, { owner: "acme", repo: "web", installationId: 42 });
 */
export function octokitFor(
  auth: GitHubAuth,
  where: { owner: string; repo: string; installationId?: number },
): Promise<Octokit> {
  return where.installationId !== undefined
    ? auth.forInstallation(where.installationId)
    : auth.forRepo(where.owner, where.repo);
}
