import { lstatSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { configFormatOf } from "../../src/config-formats/index.js";
import { codeLanguage } from "../../src/detectors/code-lines.js";

/** Files larger than this are skipped and counted (GitHub shows no patch for very large files either). */
export const MAX_FILE_BYTES = 512 * 1024;

/** One file of the folder, read or skipped. */
export type SourceFile =
  | { path: string; kind: "source"; text: string }
  | { path: string; kind: "too-large" | "binary" };

/** Git's own test for binary content: a NUL byte among the first 8,000 bytes. */
function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

/**
 * Every source file under `root` (a language or configuration format the detectors read, by its
 * name), depth first in
 * name order, as a path relative to `root` with its text; files over `MAX_FILE_BYTES` and binary
 * ones are yielded as skipped. `.git` folders and symbolic links are not followed.
 *
 * @example for (const f of sourceFiles("/work/realcode/express")) if (f.kind === "source") read(f.text);
 */
export function* sourceFiles(root: string, dir = ""): Generator<SourceFile> {
  const entries = readdirSync(path.join(root, dir), { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const entry of entries) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (entry.name !== ".git") yield* sourceFiles(root, rel);
      continue;
    }
    if (!entry.isFile() || (codeLanguage(rel) === undefined && configFormatOf(rel) === undefined)) continue;
    const full = path.join(root, rel);
    if (lstatSync(full).size > MAX_FILE_BYTES) {
      yield { path: rel, kind: "too-large" };
      continue;
    }
    const bytes = readFileSync(full);
    yield isBinary(bytes) ? { path: rel, kind: "binary" } : { path: rel, kind: "source", text: bytes.toString("utf8") };
  }
}
