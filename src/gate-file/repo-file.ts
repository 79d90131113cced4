/** Where a repository keeps its own configuration, read from the pull request's base commit. */
export const REPO_CONFIG_PATH = ".github/gate.yml";

/** A repository's configuration file as intake found it (its text is parsed by `intake`). */
export interface RepoConfigText {
  /** `owner/repo:.github/gate.yml@<base sha>`, or the fixture's file: named in every problem. */
  source: string;
  text: string;
}

/**
 * Where a repository keeps policies of its own (one `*.md` policy file each, the format of
 * `policies/`), read from the pull request's base commit only, like `.github/gate.yml`.
 */
export const REPO_POLICIES_DIR = ".github/gate/policies";

/** Whether a path is the repository's gate configuration: its `.github/gate.yml` or a file under its policies folder. */
export function isGateConfigPath(file: string | undefined): boolean {
  return file === REPO_CONFIG_PATH || (file?.startsWith(`${REPO_POLICIES_DIR}/`) ?? false);
}
