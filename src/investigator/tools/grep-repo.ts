import { closeSync, type Dirent, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import path from "node:path";
import picomatch from "picomatch";
import { GateError } from "../../domain/errors.js";
import { realRoot } from "../../snapshot/sandbox.js";
import { looksBinary, type ToolOutput } from "./read-file.js";

/** Longest pattern grep_repo accepts. */
export const GREP_MAX_PATTERN = 300;
/** Files larger than this are skipped (they bound the work one regex does on one file). */
export const GREP_MAX_FILE_BYTES = 1024 * 1024;
export const GREP_DEFAULT_RESULTS = 100;
export const GREP_MAX_RESULTS = 1000;
const SKIP_DIRS = new Set([".git", "node_modules"]);
const MAX_LINE_SHOWN = 300;
const YIELD_EVERY = 512;

/** A group holding a quantifier that is itself quantified: `(a+)+`, `(.*)*`, `(\w+\s?){2,}`. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*[+*{]/;
/** A repeated group with alternatives, such as (a|aa)+: overlapping choices backtrack exponentially. */
const QUANTIFIED_ALTERNATION = /\((?:[^()\\]|\\.)*\|(?:[^()\\]|\\.)*\)\s*[+*{]/;

/**
 * Compiles a grep pattern: a JavaScript regular expression, written bare (`verify\w*\(`) or as a
 * literal with flags (`/expir/i`, flags from `ims`). Refuses over-long patterns and nested
 * quantifiers, the usual catastrophic-backtracking shapes.
 *
 * @example compilePattern("/token|secret/i").flags // "i"
 */
export function compilePattern(pattern: string): RegExp {
  if (typeof pattern !== "string" || pattern.length === 0) {
    throw new GateError("SANDBOX_REFUSED", "grep_repo needs a non-empty pattern");
  }
  if (pattern.length > GREP_MAX_PATTERN) {
    throw new GateError("SANDBOX_REFUSED", `grep_repo pattern is longer than ${GREP_MAX_PATTERN} characters`);
  }
  const literal = /^\/(.+)\/([ims]*)$/s.exec(pattern);
  const source = literal?.[1] ?? pattern;
  const flags = [...new Set(literal?.[2] ?? "")].join("");
  if (NESTED_QUANTIFIER.test(source) || QUANTIFIED_ALTERNATION.test(source)) {
    throw new GateError(
      "SANDBOX_REFUSED",
      "grep_repo refuses nested quantifiers and repeated alternatives such as (a+)+ or (a|aa)+ (catastrophic backtracking)",
    );
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new GateError(
      "SANDBOX_REFUSED",
      `grep_repo pattern is not a valid regular expression: ${(error as Error).message}`,
    );
  }
}

/**
 * Reads a regular file of at most 1 MB into `scratch` (open, fstat, read, close: no second stat,
 * no allocation per file). Undefined for larger, vanished or unreadable files. The returned view
 * is only valid until the next call.
 */
function readSmallFile(file: string, scratch: Buffer): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const size = fstatSync(fd).size;
    if (size > scratch.length) return undefined;
    let read = 0;
    while (read < size) {
      const n = readSync(fd, scratch, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return scratch.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function abortIfNeeded(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new GateError("SANDBOX_REFUSED", "grep_repo was stopped (aborted)");
}

/**
 * `grep_repo`: searches every text file of the snapshot in-process (no child process), in sorted
 * path order, and returns `path:line:text` lines. Skips `.git`, `node_modules`, symlinks (never
 * followed), binaries (NUL in the first 8 KB) and files over 1 MB. `glob` is a picomatch glob on
 * the repository-relative path (a glob without `/` matches the file name). Stops at `max_results`.
 *
 * @example await grepRepo(root, { pattern: "verifySignature", glob: "*.ts" })
 *   // { output: "src/auth/session.ts:12:  if (!verifySignature(token)) {", chars: 45 }
 */
export async function grepRepo(
  root: string,
  args: { pattern: string; glob?: string; max_results?: number },
  opts: { signal?: AbortSignal } = {},
): Promise<ToolOutput & { matches: number; files_scanned: number }> {
  const lineRe = compilePattern(args.pattern);
  // A whole-file prefilter: with `m`, anchors match at line ends, so a file with no match is skipped unsplit.
  const fileRe = new RegExp(lineRe.source, lineRe.flags.includes("m") ? lineRe.flags : `${lineRe.flags}m`);
  const limit = Math.min(GREP_MAX_RESULTS, Math.max(1, Math.floor(args.max_results ?? GREP_DEFAULT_RESULTS)));
  // picomatch's `basename` option also changes how globs with a slash match, so it is set only without one.
  const isMatch = args.glob
    ? picomatch(args.glob, { dot: true, noextglob: true, basename: !args.glob.includes("/") })
    : undefined;
  const base = await realRoot(root);
  const out: string[] = [];
  let filesScanned = 0;
  let sinceYield = 0;
  const stack: string[] = [""];
  const scratch = Buffer.allocUnsafe(GREP_MAX_FILE_BYTES);
  walk: while (stack.length > 0) {
    const rel = stack.pop() ?? "";
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(base, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) subdirs.push(childRel);
        continue;
      }
      if (!entry.isFile()) continue; // symlinks, sockets, devices: never followed
      if (isMatch && !isMatch(childRel)) continue;
      if (++sinceYield >= YIELD_EVERY) {
        sinceYield = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
        abortIfNeeded(opts.signal);
      }
      const buf = readSmallFile(path.join(base, childRel), scratch);
      if (!buf) continue;
      filesScanned++;
      if (looksBinary(buf)) continue;
      const text = buf.toString("utf8");
      if (!fileRe.test(text)) continue;
      const lines = text.split("\n");
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i] ?? "";
        if (!lineRe.test(line)) continue;
        const shown = line.replace(/\r$/, "").slice(0, MAX_LINE_SHOWN);
        out.push(`${childRel}:${i + 1}:${shown}`);
        if (out.length >= limit) break walk;
      }
    }
    // Pushed in reverse so that popping visits directories in sorted order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i] ?? "");
  }
  if (out.length === 0) return { output: "(no matches)", chars: 0, matches: 0, files_scanned: filesScanned };
  const body = out.join("\n");
  const output = out.length >= limit ? `${body}\n# stopped at max_results (${limit})` : body;
  return { output, chars: body.length, matches: out.length, files_scanned: filesScanned };
}
