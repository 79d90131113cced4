/** Read-only access to files of the PR's head commit, when a snapshot exists. */
export interface HeadFiles {
  /**
   * The file's text at the head SHA, or undefined when there is no snapshot or no such file.
   * Throws a `GateError` when the snapshot exists but cannot be had (not downloadable, over a cap),
   * and SNAPSHOT_INCOMPLETE when the snapshot lost entries while extracting and this path is one of
   * them or absent (it may be one): the review then goes to a person, never on without the head's
   * files.
   */
  read(path: string): Promise<string | undefined>;
}
