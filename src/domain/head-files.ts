/** Read-only access to files of the PR's head commit, when a snapshot exists. */
export interface HeadFiles {
  /** The file's text at the head SHA, or undefined when there is no snapshot or no such file. */
  read(path: string): Promise<string | undefined>;
}
