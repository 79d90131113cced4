import { closeSync, type Dirent, readdirSync, readSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { GateError } from "../../domain/errors.js";
import { Turns } from "../../domain/turns.js";
import { realRoot } from "../../snapshot/sandbox.js";
import { compileGlob } from "./grep-glob.js";
import { compilePattern, type GrepPattern, holds, lowerAscii } from "./grep-pattern.js";
import { BINARY_PROBE, type ToolOutput } from "./read-file.js";
import { openRegularFileSync } from "./regular-file.js";

export { compilePattern, GREP_MAX_PATTERN, GREP_MAX_PROGRAM } from "./grep-pattern.js";

/** Files larger than this are not searched, and the answer names them. */
export const GREP_MAX_FILE_BYTES = 32 * 1024 * 1024;
/** Files are read and searched this many bytes at a time (cut at a line end). */
export const GREP_BLOCK_BYTES = 256 * 1024;
/** One call's time budget: checked between blocks; when spent, the answer says what is left. */
export const GREP_TIME_BUDGET_MS = 10_000;
export const GREP_DEFAULT_RESULTS = 100;
export const GREP_MAX_RESULTS = 1000;
/**
 * Bytes × program size handed to the regex engine in one go when no literal narrows the lines
 * (worst case about 20 ns per unit on its slow path: ~170 ms), so the event loop is never held long.
 */
const SLICE_UNITS = 8_000_000;
/** A single line costing more than this (bytes × program size, ~0.7 s) is named, not matched. */
const LINE_UNITS = 32_000_000;
const SKIP_DIRS = new Set([".git", "node_modules"]);
const MAX_LINE_SHOWN = 300;
const MAX_NAMED = 20;
const NL = 0x0a;

function abortIfNeeded(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new GateError("SANDBOX_REFUSED", "grep_repo was stopped (aborted)");
}

/** `a, b, c (and 4 more)`: at most MAX_NAMED names. */
function named(items: string[]): string {
  const shown = items.slice(0, MAX_NAMED).join(", ");
  return items.length > MAX_NAMED ? `${shown} (and ${items.length - MAX_NAMED} more)` : shown;
}

/** Newlines in buf[from, to). */
function countLines(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(NL, from); i >= 0 && i < to; i = buf.indexOf(NL, i + 1)) n++;
  return n;
}

/**
 * Reads one open file as runs of whole lines of about GREP_BLOCK_BYTES each, into one buffer that
 * is reused from file to file (grown only for a line longer than it). A view is valid until the
 * next call.
 */
class LineBlocks {
  private have = 0;
  private consumed = 0;
  private offset = 0;
  private eof = false;
  /** True when the file's first 8,000 bytes hold a NUL (git's test); known after the first read. */
  readonly binary: boolean;

  constructor(
    private readonly fd: number,
    private readonly size: number,
    private buf: Buffer,
  ) {
    this.fill();
    this.binary = this.buf.subarray(0, Math.min(this.have, BINARY_PROBE)).includes(0);
  }

  /** The buffer in use (it may have grown). */
  get buffer(): Buffer {
    return this.buf;
  }

  /** Whether more blocks follow the last one returned. */
  get more(): boolean {
    return this.have > this.consumed || !this.eof;
  }

  next(): Buffer | undefined {
    if (this.consumed > 0) {
      this.buf.copyWithin(0, this.consumed, this.have);
      this.have -= this.consumed;
      this.consumed = 0;
    }
    for (;;) {
      this.fill();
      if (this.have === 0) return undefined;
      if (this.eof) {
        this.consumed = this.have;
        return this.buf.subarray(0, this.have);
      }
      const cut = this.buf.lastIndexOf(NL, this.have - 1);
      if (cut >= 0) {
        this.consumed = cut + 1;
        return this.buf.subarray(0, cut + 1);
      }
      // One line longer than the buffer: grow it (the file is under the size cap).
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.have);
      this.buf = bigger;
    }
  }

  private fill(): void {
    while (!this.eof && this.have < this.buf.length) {
      const want = Math.min(this.buf.length - this.have, this.size - this.offset);
      const n = want > 0 ? readSync(this.fd, this.buf, this.have, want, this.offset) : 0;
      if (n === 0) this.eof = true;
      this.have += n;
      this.offset += n;
    }
  }
}

/**
 * Finds the next line holding a literal of every anchor set, leapfrogging: each set's next
 * occurrence is looked up from the current line, and the search moves to the latest line any of
 * them lands on until all land on the same line. A rare literal thus sets the pace.
 */
class LineFinder {
  private readonly next: number[][];
  constructor(
    private readonly hay: Buffer,
    private readonly sets: Buffer[][],
  ) {
    this.next = sets.map((set) => set.map(() => -1));
  }

  /** The start of the first line starting at or after `from` (a line start) that holds every set, or -1. */
  find(from: number): number {
    let lineStart = from;
    for (;;) {
      let target = lineStart;
      for (let k = 0; k < this.sets.length; k++) {
        const at = this.nextOf(k, lineStart);
        if (at < 0) return -1;
        const start = at === 0 ? 0 : this.hay.lastIndexOf(NL, at - 1) + 1;
        if (start > target) target = start;
      }
      if (target === lineStart) return lineStart;
      lineStart = target;
    }
  }

  /** The first occurrence at or after `from` of a literal of set `k`, or -1 (cached per literal). */
  private nextOf(k: number, from: number): number {
    const set = this.sets[k] as Buffer[];
    const next = this.next[k] as number[];
    let best = -1;
    for (let a = 0; a < set.length; a++) {
      let at = next[a] as number;
      if (at !== -2 && at < from) {
        at = this.hay.indexOf(set[a] as Buffer, from);
        if (at < 0) at = -2; // none left in this block
        next[a] = at;
      }
      if (at >= 0 && (best < 0 || at < best)) best = at;
    }
    return best;
  }
}

/** What one search found, and what it could not search. */
class Findings {
  readonly out: string[] = [];
  readonly tooLarge: string[] = [];
  readonly longLines: string[] = [];
  private lowerBuf: Buffer = Buffer.alloc(0);
  constructor(
    readonly pattern: GrepPattern,
    readonly limit: number,
  ) {}

  /**
   * The text to look for the pattern's literals in: the block itself, or for a case-insensitive
   * pattern the block lowered (same offsets); undefined when the literals cannot be trusted on it.
   */
  haystack(block: Buffer): Buffer | undefined {
    if (this.pattern.need === undefined) return undefined;
    if (!this.pattern.folded) return block;
    if (this.lowerBuf.length < block.length)
      this.lowerBuf = Buffer.allocUnsafe(Math.max(block.length, GREP_BLOCK_BYTES));
    const lowered = this.lowerBuf.subarray(0, block.length);
    return lowerAscii(block, lowered) ? lowered : undefined;
  }

  get full(): boolean {
    return this.out.length >= this.limit;
  }

  /** Tests one line, buf[start, end) without its newline, and records it if it matches. */
  testLine(rel: string, buf: Buffer, start: number, end: number, lineNo: number): void {
    if ((end - start) * this.pattern.cost > LINE_UNITS) {
      this.longLines.push(`${rel}:${lineNo}`);
      return;
    }
    const text = buf.toString("utf8", start, end);
    if (this.pattern.line.test(text)) this.record(rel, lineNo, text);
  }

  record(rel: string, lineNo: number, text: string): void {
    const shown = (text.endsWith("\r") ? text.slice(0, -1) : text).slice(0, MAX_LINE_SHOWN);
    this.out.push(`${rel}:${lineNo}:${shown}`);
  }
}

/**
 * The clock of one call: when the budget is spent, and (its `Turns`, as all review work on the
 * answering thread) when to give the event loop a turn.
 */
class Pace {
  private readonly started = performance.now();
  private readonly turns = new Turns();
  constructor(
    private readonly budgetMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {}

  get spent(): boolean {
    return performance.now() - this.started >= this.budgetMs;
  }

  /** Lets other work run if this call has held the event loop for a slice; throws when aborted. */
  async breathe(): Promise<void> {
    if (!this.turns.due()) return;
    await this.turns.take();
    abortIfNeeded(this.signal);
  }
}

/**
 * Searches one block of whole lines starting at line `first`; returns the number of the line after
 * it, or undefined when the budget ran out inside it (`stop` then holds the line reached).
 */
async function searchBlock(
  rel: string,
  block: Buffer,
  first: number,
  more: boolean,
  found: Findings,
  pace: Pace,
  stop: { line?: number },
): Promise<number | undefined> {
  const { need, anchors, cost } = found.pattern;
  const hay = found.haystack(block);
  if (hay !== undefined && need !== undefined && !holds(need, hay)) {
    return more ? first + countLines(block, 0, block.length) : first;
  }
  if (hay !== undefined && anchors !== undefined) {
    // Only lines holding a literal of every anchor set can match: jump from one to the next.
    const finder = new LineFinder(hay, anchors);
    let lineNo = first;
    let counted = 0;
    let from = 0;
    let units = 0;
    const lineNeed = need !== undefined && !Buffer.isBuffer(need) ? need : undefined;
    while (from < block.length && !found.full) {
      const start = finder.find(from);
      if (start < 0) break;
      const nl = block.indexOf(NL, start);
      const end = nl < 0 ? block.length : nl;
      lineNo += countLines(block, counted, start);
      counted = start;
      // A line holding the anchor but not all the pattern needs cannot match: no regex run.
      if (lineNeed === undefined || holds(lineNeed, hay.subarray(start, end))) {
        found.testLine(rel, block, start, end, lineNo);
      }
      from = end + 1;
      // Many costly lines in one block: give the event loop its turn, and keep to the budget.
      units += (end - start) * cost;
      if (units >= SLICE_UNITS) {
        units = 0;
        if (pace.spent && from < block.length) {
          stop.line = lineNo + 1;
          return undefined;
        }
        await pace.breathe();
      }
    }
    return more ? lineNo + countLines(block, counted, block.length) : lineNo;
  }
  // No literal to narrow the lines: test runs of lines sized to the program, then their lines.
  const slice = Math.max(1, Math.floor(SLICE_UNITS / cost));
  let lineNo = first;
  let pos = 0;
  while (pos < block.length && !found.full) {
    let end = Math.min(block.length, pos + slice);
    if (end < block.length) {
      const nl = block.lastIndexOf(NL, end - 1);
      end = nl >= pos ? nl + 1 : block.indexOf(NL, end) + 1 || block.length;
    }
    const lines = countLines(block, pos, end);
    const text = block.toString("utf8", pos, end);
    if ((end - pos) * cost > LINE_UNITS && lines <= 1) {
      found.longLines.push(`${rel}:${lineNo}`);
    } else if (found.pattern.lines.test(text)) {
      const parts = text.split("\n");
      if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
      for (let i = 0; i < parts.length && !found.full; i++) {
        const part = parts[i] ?? "";
        if (found.pattern.line.test(part)) found.record(rel, lineNo + i, part);
      }
    }
    lineNo += lines;
    pos = end;
    if (pace.spent && pos < block.length) {
      stop.line = lineNo;
      return undefined;
    }
    await pace.breathe();
  }
  return lineNo;
}

/** Every file under the root (not .git, node_modules or links) that the glob admits, in path order. */
async function listFiles(base: string, admit: ((rel: string) => boolean) | undefined, pace: Pace): Promise<string[]> {
  const files: string[] = [];
  const stack: string[] = [""];
  while (stack.length > 0) {
    const rel = stack.pop() ?? "";
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(base, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) stack.push(childRel);
      } else if (entry.isFile() && (!admit || admit(childRel))) {
        files.push(childRel); // symlinks, FIFOs, sockets, devices: never opened
      }
    }
    await pace.breathe();
  }
  // git's order: by the whole path, so `a/b` comes before `a.c`... as git grep lists them.
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * `grep_repo`: searches every text file of the snapshot in-process (no child process) with RE2's
 * linear-time engine, and returns `path:line:text` lines in path order. Skips `.git`,
 * `node_modules`, symlinks (never followed), anything but regular files (never opened in a way that
 * blocks) and binaries (NUL in the first 8,000 bytes). Files are read in blocks of whole lines;
 * files over 32 MB are named in the answer as not searched. `glob` is a glob on the
 * repository-relative path (a glob without `/` matches the file name). Stops at `max_results`, and
 * when its time budget (10 s) is spent it says so and names the files left. A pattern RE2 cannot
 * express (backreferences, lookaround) gets an answer saying so rather than an error.
 *
 * @example await grepRepo(root, { pattern: "verifySignature", glob: "*.ts" })
 *   // { output: "src/auth/session.ts:12:  if (!verifySignature(token)) {", chars: 45, ... }
 */
export async function grepRepo(
  root: string,
  args: { pattern: string; glob?: string; max_results?: number },
  opts: { signal?: AbortSignal; budgetMs?: number } = {},
): Promise<ToolOutput & { matches: number; files_scanned: number }> {
  let pattern: GrepPattern;
  let admit: ((rel: string) => boolean) | undefined;
  try {
    pattern = compilePattern(args.pattern);
    admit = args.glob ? compileGlob(args.glob) : undefined;
  } catch (error) {
    if (!(error instanceof GateError)) throw error;
    return { output: `# refused: ${error.message}`, chars: 0, matches: 0, files_scanned: 0 };
  }
  const limit = Math.min(GREP_MAX_RESULTS, Math.max(1, Math.floor(args.max_results ?? GREP_DEFAULT_RESULTS)));
  const base = await realRoot(root);
  const budgetMs = opts.budgetMs ?? GREP_TIME_BUDGET_MS;
  const pace = new Pace(budgetMs, opts.signal);
  abortIfNeeded(opts.signal);
  const files = await listFiles(base, admit, pace);
  const found = new Findings(pattern, limit);
  let scratch: Buffer = Buffer.allocUnsafe(GREP_BLOCK_BYTES);
  let filesScanned = 0;
  let left: string[] = [];
  for (let i = 0; i < files.length && !found.full; i++) {
    const rel = files[i] as string;
    if (pace.spent) {
      left = files.slice(i);
      break;
    }
    const opened = openRegularFileSync(path.join(base, rel));
    if (!opened) continue;
    try {
      if (opened.size > GREP_MAX_FILE_BYTES) {
        found.tooLarge.push(`${rel} (${(opened.size / 1024 / 1024).toFixed(1)} MB)`);
        continue;
      }
      filesScanned++;
      const reader = new LineBlocks(opened.fd, opened.size, scratch);
      if (reader.binary) continue;
      let lineNo: number | undefined = 1;
      const stop: { line?: number } = {};
      for (let block = reader.next(); block && !found.full; block = reader.next()) {
        lineNo = await searchBlock(rel, block, lineNo, reader.more, found, pace, stop);
        if (lineNo === undefined || (pace.spent && reader.more)) {
          left = [`${rel} (from line ${stop.line ?? lineNo})`, ...files.slice(i + 1)];
          break;
        }
        await pace.breathe();
      }
      scratch = reader.buffer;
      if (left.length > 0) break;
    } finally {
      closeSync(opened.fd);
    }
    await pace.breathe();
  }
  const body = found.out.join("\n");
  const notes: string[] = [];
  if (found.full) notes.push(`# stopped at max_results (${limit})`);
  if (found.tooLarge.length > 0) {
    notes.push(`# not searched, over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB: ${named(found.tooLarge)}`);
  }
  if (found.longLines.length > 0) {
    notes.push(`# lines too long to match with this pattern, not searched: ${named(found.longLines)}`);
  }
  if (left.length > 0) {
    notes.push(`# time budget (${budgetMs / 1000} s) ran out; ${left.length} files not searched: ${named(left)}`);
  }
  const output = [found.out.length > 0 ? body : "(no matches)", ...notes].join("\n");
  return { output, chars: body.length, matches: found.out.length, files_scanned: filesScanned };
}
