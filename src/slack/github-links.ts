/** Links to GitHub pages that the Slack surface shows (commit, file at a commit). */

/** github.com's web address; GitHub Enterprise Server has its own (GATE_GITHUB_WEB_URL). */
export const GITHUB_WEB_URL = "https://github.com";

/**
 * The first seven characters of a commit SHA.
 *
 * @example shortSha("3f9a1c2b7d4e...") // "3f9a1c2"
 */
export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}

/**
 * The page of a commit.
 *
 * @example commitUrl("acme/web", "3f9a1c2") // "https://github.com/acme/web/commit/3f9a1c2"
 */
export function commitUrl(repo: string, sha: string, web = GITHUB_WEB_URL): string {
  return `${web}/${repo}/commit/${encodeURIComponent(sha)}`;
}

/**
 * A file at a commit, with a line anchor when a line is known.
 *
 * @example blobUrl("acme/web", "abc", "src/a b.ts", 12) // "https://github.com/acme/web/blob/abc/src/a%20b.ts#L12"
 */
export function blobUrl(repo: string, sha: string, file: string, line?: number, web = GITHUB_WEB_URL): string {
  const path = file.split("/").map(encodeURIComponent).join("/");
  return `${web}/${repo}/blob/${encodeURIComponent(sha)}/${path}${line !== undefined ? `#L${line}` : ""}`;
}
