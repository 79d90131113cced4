import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { HeadFiles } from "../../src/domain/head-files.js";

/**
 * A folder's files as a pull request's head snapshot (a fixture's `repo/`, a fetched repository),
 * so a detector that reads beside a changed file (a vendored folder's licence text) reads there.
 * Paths that leave the folder read as absent.
 *
 * @example await folderHead("/work/realcode/express").read("LICENSE") // "(The MIT License)..."
 */
export function folderHead(root: string): HeadFiles {
  const base = path.resolve(root);
  return {
    read: async (p) => {
      const full = path.resolve(base, p);
      if (!full.startsWith(`${base}${path.sep}`)) return undefined;
      try {
        return statSync(full).isFile() ? readFileSync(full, "utf8") : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
