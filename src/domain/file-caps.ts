import type { ChangedFile } from "./pull-request.js";

/** The most of one changed file's diff a review reads (`GATE_MAX_FILE_LINES`, `GATE_MAX_FILE_BYTES`). */
export interface FileCaps {
  lines: number;
  bytes: number;
}

/** The defaults: 100,000 lines, 8 MiB. */
export const DEFAULT_FILE_CAPS: FileCaps = { lines: 100_000, bytes: 8 * 1024 * 1024 };

/** Lines of a text, counted no further than `stopAfter` + 1. */
function linesOf(text: string, stopAfter: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0 && n <= stopAfter; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * The changed files with every diff over a cap taken out, and one sentence per file saying what was
 * not read and which setting stopped it. A file without its diff is then a file the review did not
 * read: the review goes to a person naming it, never to a pass. The caps keep a generated or vendored
 * file of a million lines from holding the answering thread while the detectors split and parse it.
 *
 * @example capPatches(files, { lines: 100_000, bytes: 8_388_608 }).notRead // ["src/table.ts: its diff is 1000001 lines; at most 100000 are read (GATE_MAX_FILE_LINES), so it was not read"]
 */
export function capPatches(
  files: readonly ChangedFile[],
  caps: FileCaps = DEFAULT_FILE_CAPS,
): { files: ChangedFile[]; notRead: string[] } {
  const notRead: string[] = [];
  const out = files.map((f): ChangedFile => {
    if (f.patch === undefined) return f;
    // A string's length bounds its UTF-8 size from below: only a long one is measured.
    const bytes = f.patch.length * 3 > caps.bytes ? Buffer.byteLength(f.patch) : f.patch.length;
    const lines = linesOf(f.patch, caps.lines);
    let why: string | undefined;
    if (lines > caps.lines) {
      why = `its diff is ${linesOf(f.patch, Number.POSITIVE_INFINITY)} lines; at most ${caps.lines} are read (GATE_MAX_FILE_LINES)`;
    } else if (bytes > caps.bytes) {
      why = `its diff is ${bytes} bytes; at most ${caps.bytes} are read (GATE_MAX_FILE_BYTES)`;
    }
    if (why === undefined) return f;
    notRead.push(`${f.filename}: ${why}, so it was not read`);
    const { patch: _dropped, ...rest } = f;
    return { ...rest, patchNotRead: `${why}, so it was not read` };
  });
  return { files: out, notRead };
}
