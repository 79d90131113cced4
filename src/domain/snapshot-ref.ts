import type { ReviewSource } from "./review-source.js";

/**
 * Names a pull request's head snapshot by validated values only (docs/design.md, reason 3). The sandbox
 * root is derived from this in one function (`sandboxRoot`), never from a raw path.
 * Plain JSON (checkpointed): it is all a process needs to fetch the snapshot again.
 */
export type SnapshotRef =
  /** A fixture's `repo/` folder: `<fixturesDir>/<name>/repo`. `fixturesDir` is configuration, not request data. */
  | { kind: "fixture"; fixturesDir: string; name: string }
  /**
   * A GitHub head commit, fetched when first read and extracted under
   * `<dataDir>/snapshots/<owner>/<repo>/<sha>.snapshot/tree`; `installationId` names the GitHub App installation
   * that may download it (absent: the repository's own is looked up, or the token is used).
   */
  | { kind: "github"; owner: string; repo: string; sha: string; installationId?: number }
  /** No snapshot: the investigator has nothing to read and reports inconclusive. */
  | { kind: "none" };

/**
 * The snapshot a review's source has: a fixture's `repo/` folder, or the GitHub commit the review is
 * for (the webhook's head, never a moving ref).
 *
 * @example snapshotOf({ kind: "github", owner: "acme", repo: "web", number: 7, headSha: sha }) // { kind: "github", owner: "acme", repo: "web", sha }
 */
export function snapshotOf(source: ReviewSource): SnapshotRef {
  if (source.kind === "fixture") return { kind: "fixture", fixturesDir: source.fixturesDir, name: source.name };
  return {
    kind: "github",
    owner: source.owner,
    repo: source.repo,
    sha: source.headSha,
    ...(source.installationId !== undefined ? { installationId: source.installationId } : {}),
  };
}

/**
 * An entry of the head archive that extraction could not write whole (the disk full, an I/O error,
 * a name the filesystem cannot hold), and why. Not an entry refused as unsafe, nor a cap: those are
 * the gate's own refusals.
 */
export interface LostEntry {
  /** The entry's path below the repository's root, `/`-separated; a folder's ends with `/`. */
  path: string;
  /** The error, without the local path: `ENOSPC: no space left on device`. */
  cause: string;
}

/**
 * A snapshot on disk: the sandbox root to read, and what its extraction lost. Empty `lost` means
 * whole. Otherwise it is incomplete: a read of a lost entry, or of a path absent from it (it may
 * be one the extraction never reached), must fail with SNAPSHOT_INCOMPLETE, never read as "no
 * such file".
 */
export interface OpenSnapshot {
  root: string;
  lost: LostEntry[];
}

/**
 * The snapshots on this process's disk. A GitHub snapshot is a per-process cache: it is downloaded
 * by the first reader that needs it (concurrent readers share one download), again by a process
 * that never had it (a restart, another replica), and removed once its review is settled.
 */
export interface SnapshotCache {
  /**
   * The snapshot, extracted, fetching it first when it is absent. Throws a `GateError` when it
   * cannot be had: SNAPSHOT_OVER_CAP, SNAPSHOT_INCOMPLETE (nothing of it could be written whole),
   * GITHUB_INTAKE (not downloadable), SANDBOX_REFUSED. A snapshot that lost some entries opens,
   * and says which in `lost`: every reader checks it (see `OpenSnapshot`).
   */
  open(ref: SnapshotRef): Promise<OpenSnapshot>;
  /** Removes this process's copy of a GitHub snapshot (nothing to do for others, or when it is gone). */
  release(ref: SnapshotRef): Promise<void>;
}

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
