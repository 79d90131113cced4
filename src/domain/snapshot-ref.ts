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
