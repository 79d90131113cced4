/** Where a repository keeps its own configuration, read from the pull request's base commit. */
export const REPO_CONFIG_PATH = ".github/gate.yml";

/** A repository's configuration file as intake found it (its text is parsed by `intake`). */
export interface RepoConfigText {
  /** `owner/repo:.github/gate.yml@<base sha>`, or the fixture's file: named in every problem. */
  source: string;
  text: string;
}
