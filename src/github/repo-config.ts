import type { Octokit } from "@octokit/rest";
import { REPO_CONFIG_PATH, REPO_POLICIES_DIR, type RepoConfigText } from "../gate-file/repo-file.js";
import { GateError, messageOf } from "../domain/errors.js";
import { jsonBody, UNPARSED } from "./json-body.js";

/** How many policy files a repository's folder may hold (each is one more contents call per review). */
export const REPO_POLICY_FILES_MAX = 50;
/** The largest policy file read (GitHub's contents API gives a file's text only up to 1 MB). */
export const REPO_POLICY_FILE_MAX_BYTES = 1024 * 1024;

/** Why an entry of the policies folder is not read as a policy file, or undefined when it is (or is its README). */
function notReadWhy(e: { type?: string; name?: string; size?: number }): string | undefined {
  const name = e.name ?? "";
  if (name.toLowerCase() === "readme.md") return undefined;
  if (e.type === "symlink") return "a symbolic link: policy files are read only as regular files";
  if (e.type === "dir") return "a sub-folder: only the folder's own files are read, not its sub-folders'";
  if (e.type !== "file") return `a ${e.type ?? "entry"} GitHub lists, not a regular file`;
  if (!name.endsWith(".md"))
    return name.toLowerCase().endsWith(".md")
      ? "its extension is not `.md` in lower case"
      : "not a policy file: policy files end in `.md`";
  if ((e.size ?? 0) > REPO_POLICY_FILE_MAX_BYTES)
    return `${e.size} bytes; at most ${REPO_POLICY_FILE_MAX_BYTES} are read`;
  return undefined;
}

interface At {
  owner: string;
  repo: string;
  ref?: string;
}

const whereOf = (at: At, file: string) =>
  `${at.owner}/${at.repo}:${file}@${at.ref ? at.ref.slice(0, 12) : "default branch"}`;

/** The contents API's answer for `file` at the ref (a file of up to 1 MB, base64, in JSON); undefined on 404. */
async function contentsOf(octokit: Octokit, at: At, file: string): Promise<unknown> {
  try {
    const { data } = await octokit.rest.repos.getContent({
      owner: at.owner,
      repo: at.repo,
      path: file,
      ...(at.ref ? { ref: at.ref } : {}),
      request: UNPARSED,
    });
    return await jsonBody(data);
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw new GateError("GITHUB_INTAKE", `could not read ${whereOf(at, file)}: ${messageOf(error)}`, { cause: error });
  }
}

async function readFileAt(octokit: Octokit, at: At, file: string): Promise<RepoConfigText | undefined> {
  const where = whereOf(at, file);
  const data = await contentsOf(octokit, at, file);
  if (data === undefined) return undefined;
  const entry = data as { type?: string; encoding?: string; content?: string };
  if (
    Array.isArray(data) ||
    entry.type !== "file" ||
    entry.encoding !== "base64" ||
    typeof entry.content !== "string"
  ) {
    throw new GateError("GITHUB_INTAKE", `${where} is not a file GitHub returned whole`);
  }
  return { source: where, text: Buffer.from(entry.content, "base64").toString("utf8") };
}

/**
 * A repository's `.github/gate.yml` at `ref` (the pull request's base commit; the default branch
 * when no ref is given), through the contents API; undefined when the repository has none.
 * Never read from a pull request's head, which its author controls.
 *
 * @example await readRepoConfig(octokit, { owner: "acme", repo: "web", ref: pr.baseSha }) // { source, text } | undefined
 */
export function readRepoConfig(octokit: Octokit, at: At): Promise<RepoConfigText | undefined> {
  return readFileAt(octokit, at, REPO_CONFIG_PATH);
}

/**
 * A repository's own policy files (`.github/gate/policies/*.md`) at `ref`, the pull request's
 * base commit, never its head; none when the folder is absent. A folder GitHub cannot list, an
 * entry it does not return whole, or more than `REPO_POLICY_FILES_MAX` files is an error (the
 * review then goes to a person saying so). An entry the gate does not read (a symbolic link, a
 * sub-folder, `ACME.MD` or another extension, a file over `REPO_POLICY_FILE_MAX_BYTES`) is never
 * skipped silently: `unread` is told its name and why, and the review goes to a person with it.
 *
 * @example await readRepoPolicies(octokit, { owner: "acme", repo: "web", ref: pr.baseSha }) // [{ source: "acme/web:.github/gate/policies/ACME-01.md@…", text }]
 */
export async function readRepoPolicies(
  octokit: Octokit,
  at: At,
  unread: (what: string) => void = () => {},
): Promise<RepoConfigText[]> {
  const listing = await contentsOf(octokit, at, REPO_POLICIES_DIR);
  if (listing === undefined) return [];
  if (!Array.isArray(listing)) {
    throw new GateError("GITHUB_INTAKE", `${whereOf(at, REPO_POLICIES_DIR)} is not a folder`);
  }
  const entries = listing as { type?: string; name?: string; size?: number }[];
  for (const e of entries) {
    const why = e.name?.toLowerCase() === "readme.md" && e.type === "file" ? undefined : notReadWhy(e);
    if (why) unread(`${whereOf(at, `${REPO_POLICIES_DIR}/${e.name ?? "?"}`)} is not read (${why}); a person decides`);
  }
  const names = entries
    .filter((e) => e.type === "file" && e.name?.toLowerCase() !== "readme.md" && notReadWhy(e) === undefined)
    .map((e) => e.name as string)
    .sort();
  if (names.length > REPO_POLICY_FILES_MAX) {
    throw new GateError(
      "GITHUB_INTAKE",
      `${whereOf(at, REPO_POLICIES_DIR)} holds ${names.length} policy files (at most ${REPO_POLICY_FILES_MAX} are read)`,
    );
  }
  const out: RepoConfigText[] = [];
  for (const name of names) {
    const file = await readFileAt(octokit, at, `${REPO_POLICIES_DIR}/${name}`);
    if (!file)
      throw new GateError("GITHUB_INTAKE", `${whereOf(at, `${REPO_POLICIES_DIR}/${name}`)} vanished while read`);
    out.push(file);
  }
  return out;
}
