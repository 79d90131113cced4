/**
 * Names a pull request's head snapshot by validated values only (docs/design.md, reason 3). The sandbox
 * root is derived from this in one function (`sandboxRoot`), never from a raw path.
 * Plain JSON (checkpointed).
 */
export type SnapshotRef =
  /** A fixture's `repo/` folder: `<fixturesDir>/<name>/repo`. `fixturesDir` is configuration, not request data. */
  | { kind: "fixture"; fixturesDir: string; name: string }
  /** A GitHub head commit, extracted under `<dataDir>/snapshots/<owner>/<repo>/<sha>`. */
  | { kind: "github"; owner: string; repo: string; sha: string }
  /** No snapshot: the investigator has nothing to read and reports inconclusive. */
  | { kind: "none" };

/**
 * The limits on what extracting a head snapshot may write (README, Security). Each is a setting:
 * `GATE_SNAPSHOT_MAX_BYTES`, `GATE_SNAPSHOT_MAX_FILES`, `GATE_SNAPSHOT_MAX_DEPTH`.
 */
export interface SnapshotCaps {
  /** The most bytes the archive may decompress to (the tar stream: contents, headers and padding). */
  maxBytes: number;
  /** The most entries (files, folders and links) the archive may hold. */
  maxFiles: number;
  /** The most path segments below the repository's root an entry may have. */
  maxDepth: number;
}
