/** GitHub logins and organisations: letters, digits and single inner hyphens, at most 39 characters. */
export const GITHUB_OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
/** Repository names: letters, digits, `.`, `_`, `-`, at most 100 characters (never `.` or `..`, see isRepoName). */
export const GITHUB_REPO = /^[A-Za-z0-9._-]{1,100}$/;
/** A full commit SHA, as the gate accepts it: 40 lowercase hex digits. */
export const GITHUB_SHA = /^[0-9a-f]{40}$/;

/** A valid repository name (the pattern, and not `.` or `..`). */
export function isRepoName(name: string): boolean {
  return GITHUB_REPO.test(name) && name !== "." && name !== "..";
}

/**
 * A valid `owner/repo`.
 *
 * @example isFullRepoName("acme/web") // true; isFullRepoName("acme/..") // false
 */
export function isFullRepoName(fullName: string): boolean {
  const [owner = "", repo = "", ...rest] = fullName.split("/");
  return rest.length === 0 && GITHUB_OWNER.test(owner) && isRepoName(repo);
}
