/** Links to GitHub pages that the Slack surface shows (commit, file at a commit). */

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
export function commitUrl(repo: string, sha: string): string {
  return `https://github.com/${repo}/commit/${encodeURIComponent(sha)}`;
}

/**
 * A file at a commit, with a line anchor when a line is known.
 *
 * @example blobUrl("acme/web", "abc", "src/a b.ts", 12) // "https://github.com/acme/web/blob/abc/src/a%20b.ts#L12"
 */
export function blobUrl(repo: string, sha: string, file: string, line?: number): string {
  const path = file.split("/").map(encodeURIComponent).join("/");
  return `https://github.com/${repo}/blob/${encodeURIComponent(sha)}/${path}${line !== undefined ? `#L${line}` : ""}`;
}
