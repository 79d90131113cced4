import fs from "node:fs/promises";
import type { HeadFiles } from "../domain/head-files.js";
import { resolveInSandbox, sandboxRoot } from "./sandbox.js";
import type { SnapshotRef } from "../domain/snapshot-ref.js";

const MAX_HEAD_FILE_BYTES = 2 * 1024 * 1024;

/**
 * Head-commit files for the detectors, read through the same sandbox as the investigator's tools.
 * Anything refused, missing, binary or oversized reads as `undefined`.
 *
 * @example await headFilesFor(ref, { dataDir }).read("package.json")
 */
export function headFilesFor(snapshot: SnapshotRef, opts: { dataDir: string }): HeadFiles {
  let root: string | undefined;
  try {
    root = snapshot.kind === "none" ? undefined : sandboxRoot(snapshot, opts);
  } catch {
    root = undefined;
  }
  return {
    async read(path: string) {
      if (!root) return undefined;
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
