import fs from "node:fs/promises";
import path from "node:path";
import type { HeadFiles } from "../domain/head-files.js";
import type { SnapshotCache, SnapshotRef } from "../domain/snapshot-ref.js";
import { realRoot, resolveInSandbox } from "./sandbox.js";
import { isSnapshotIncomplete, lostEntryOf, readingWhole, snapshotIncomplete } from "./snapshot-loss.js";

const MAX_HEAD_FILE_BYTES = 2 * 1024 * 1024;

/**
 * Head-commit files for the detectors, read through the same sandbox as the investigator's tools.
 * The first read fetches the snapshot (a PR whose detectors read no head file downloads nothing);
 * a snapshot that cannot be had throws (see `HeadFiles`), and so does a read that an incomplete
 * snapshot cannot answer: a lost file, or one absent while entries were lost (SNAPSHOT_INCOMPLETE).
 * Anything else refused, missing, binary or oversized reads as `undefined`.
 *
 * @example await headFilesFor(ref, snapshots).read("package.json")
 */
export function headFilesFor(snapshot: SnapshotRef, snapshots: SnapshotCache): HeadFiles {
  return {
    async read(relPath: string) {
      if (snapshot.kind === "none") return undefined;
      const { root, lost } = await snapshots.open(snapshot);
      try {
        return await readingWhole(lost, relPath, async () => {
          const file = await resolveInSandbox(root, relPath);
          // A link to a lost file is the lost file.
          const target = path
            .relative(await realRoot(root), file)
            .split(path.sep)
            .join("/");
          if (lostEntryOf(lost, target)) throw snapshotIncomplete(lost, target);
          const stat = await fs.stat(file);
          if (!stat.isFile() || stat.size > MAX_HEAD_FILE_BYTES) return undefined;
          const text = await fs.readFile(file, "utf8");
          return text.includes("\0") ? undefined : text;
        });
      } catch (error) {
        if (isSnapshotIncomplete(error)) throw error;
        return undefined;
      }
    },
  };
}
