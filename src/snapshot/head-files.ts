import fs from "node:fs/promises";
import type { HeadFiles } from "../domain/head-files.js";
import { resolveInSandbox } from "./sandbox.js";
import type { SnapshotCache, SnapshotRef } from "../domain/snapshot-ref.js";

const MAX_HEAD_FILE_BYTES = 2 * 1024 * 1024;

/**
 * Head-commit files for the detectors, read through the same sandbox as the investigator's tools.
 * The first read fetches the snapshot (a PR whose detectors read no head file downloads nothing);
 * a snapshot that cannot be had throws (see `HeadFiles`). Anything refused, missing, binary or
 * oversized reads as `undefined`.
 *
 * @example await headFilesFor(ref, snapshots).read("package.json")
 */
export function headFilesFor(snapshot: SnapshotRef, snapshots: SnapshotCache): HeadFiles {
  return {
    async read(path: string) {
      if (snapshot.kind === "none") return undefined;
      const root = await snapshots.root(snapshot);
      try {
        const file = await resolveInSandbox(root, path);
        const stat = await fs.stat(file);
        if (!stat.isFile() || stat.size > MAX_HEAD_FILE_BYTES) return undefined;
        const text = await fs.readFile(file, "utf8");
        return text.includes("\0") ? undefined : text;
      } catch {
        return undefined;
      }
    },
  };
}
