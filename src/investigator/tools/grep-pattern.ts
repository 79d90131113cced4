import { RE2JS } from "re2js";
import { GateError, messageOf } from "../../domain/errors.js";

/** Longest pattern grep_repo accepts. */
export const GREP_MAX_PATTERN = 300;
/**
 * Largest compiled program grep_repo runs (RE2 instructions). Matching costs at most time
 * proportional to the text's length times this, so it bounds the slowest search; only counted
 * repetition such as `(.{0,90}a){20}` comes near it.
 */
export const GREP_MAX_PROGRAM = 1000;

/**
 * Literals a text must hold to match, tested on raw bytes before any decoding: one literal, all
 * of some, or any of some.
 */
export type Need = Buffer | { all: Need[] } | { any: Need[] };

/** A compiled grep pattern. */
export interface GrepPattern {
  /** Matches one line (no newline in it). */
  line: RE2JS;
  /** The same with `^` and `$` at line ends: tests a run of whole lines at once. */
  lines: RE2JS;
  /** The program's size: a bound on the work per byte when matching cannot take a fast path. */
  cost: number;
  /** What a matching text must contain, or undefined when the pattern needs no literal. */
  need: Need | undefined;
  /**
   * Sets of literals: every matching line holds a literal of each set, so only such lines are
   * tested (at most three sets, the longest literals first).
   */
  anchors: Buffer[][] | undefined;
  /**
   * For a case-insensitive pattern: `need` and `anchors` are in lower case, to be looked for in the
   * text lowered byte by byte, and only in ASCII text (Unicode folds `K` and `ſ` into `k` and `s`).
   */
  folded: boolean;
}

const LOOKAROUND: Record<string, string> = {
  "(?=": "lookahead (?=…)",
  "(?!": "negative lookahead (?!…)",
  "(?<=": "lookbehind (?<=…)",
  "(?<!": "negative lookbehind (?<!…)",
};

/** The first construct of `source` that RE2 cannot express (it needs backtracking), if any. */
function unsupported(source: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      const next = source[i + 1] ?? "";
      if (!inClass && next >= "1" && next <= "9") return `backreference \\${next}`;
      if (!inClass && next === "k" && source[i + 2] === "<") return "named backreference \\k<…>";
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") {
      inClass = true;
      if (source[i + 1] === "^") i++;
      if (source[i + 1] === "]") i++; // a `]` first in a class is a literal
    } else if (c === "(") {
      for (const [open, what] of Object.entries(LOOKAROUND)) if (source.startsWith(open, i)) return what;
    }
  }
  return undefined;
}

function refuse(message: string): never {
  throw new GateError("SANDBOX_REFUSED", message);
}

/**
 * Compiles a grep pattern for RE2's linear-time engine (re2js): a regular expression in JavaScript
 * syntax, written bare (`verify\w*\(`) or as a literal with flags (`/expir/i`, flags from `ims`).
 * Whatever the pattern, matching takes time linear in the text. Refused (GateError SANDBOX_REFUSED,
 * with a message for the model): empty or over-long patterns, invalid syntax, backreferences and
 * lookaround (RE2 cannot express them), and programs over GREP_MAX_PROGRAM instructions.
 *
 * @example compilePattern("/token|secret/i").line.test("a Secret") // true
 */
export function compilePattern(pattern: string): GrepPattern {
  if (typeof pattern !== "string" || pattern.length === 0) refuse("grep_repo needs a non-empty pattern");
  if (pattern.length > GREP_MAX_PATTERN) refuse(`grep_repo pattern is longer than ${GREP_MAX_PATTERN} characters`);
  const literal = /^\/(.+)\/([ims]*)$/s.exec(pattern);
  const source = literal?.[1] ?? pattern;
  const flags = literal?.[2] ?? "";
  const missing = unsupported(source);
  if (missing !== undefined) {
    refuse(
      `grep_repo matches with RE2 (linear time), which has no ${missing}; rewrite the pattern without it (search for the plain part, then read the lines)`,
    );
  }
  // `m` changes nothing: every line is matched on its own, so `^` and `$` are always line ends.
  const base = (flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes("s") ? RE2JS.DOTALL : 0);
  let line: RE2JS;
  let lines: RE2JS;
  try {
    const translated = RE2JS.translateRegExp(source);
    line = RE2JS.compile(translated, base);
    lines = RE2JS.compile(translated, base | RE2JS.MULTILINE);
  } catch (error) {
    return refuse(`grep_repo pattern is not a valid regular expression (RE2 syntax): ${messageOf(error)}`);
  }
  const cost = line.programSize();
  if (cost > GREP_MAX_PROGRAM) {
    refuse(
      `grep_repo pattern compiles to ${cost} instructions (at most ${GREP_MAX_PROGRAM}); use smaller repetition counts`,
    );
  }
  let need = needOf(lines.re2().prefilter);
  let folded = false;
  if (need === undefined && flags.includes("i")) {
    // RE2 finds no literal under case folding; the case-sensitive pattern's literals, lowered, are
    // what a match needs in ASCII text lowered the same way.
    const exact = needOf(RE2JS.compile(RE2JS.translateRegExp(source), RE2JS.MULTILINE).re2().prefilter);
    need = exact === undefined ? undefined : lowerNeed(exact);
    folded = need !== undefined;
  }
  return { line, lines, cost, need, anchors: need === undefined ? undefined : anchorSets(need), folded };
}

/** The need with ASCII letters lowered; undefined if a literal is not ASCII. */
function lowerNeed(need: Need): Need | undefined {
  if (Buffer.isBuffer(need)) {
    const out = Buffer.from(need);
    for (let i = 0; i < out.length; i++) {
      const c = out[i] ?? 0;
      if (c >= 0x80) return undefined;
      if (c >= 0x41 && c <= 0x5a) out[i] = c | 0x20;
    }
    return out;
  }
  const parts = ("all" in need ? need.all : need.any).map(lowerNeed);
  if (parts.some((p) => p === undefined)) return undefined;
  return "all" in need ? { all: parts as Need[] } : { any: parts as Need[] };
}

/**
 * Writes `src` with ASCII letters lowered into `dst` (same offsets); false when `src` holds any
 * byte outside ASCII, where ASCII lowering is not what case folding means.
 */
export function lowerAscii(src: Buffer, dst: Buffer): boolean {
  let high = 0;
  let i = 0;
  if (src.byteOffset % 4 === 0 && dst.byteOffset % 4 === 0) {
    // Four bytes at a time: a byte is upper case when its low 7 bits are at least 0x41 and below
    // 0x5b and its high bit is clear; 0x20 is added to exactly those bytes.
    const words = src.length >>> 2;
    const from = new Uint32Array(src.buffer, src.byteOffset, words);
    const to = new Uint32Array(dst.buffer, dst.byteOffset, words);
    for (let w = 0; w < words; w++) {
      const x = from[w] as number;
      const low7 = x & 0x7f7f7f7f;
      const upper = (low7 + 0x3f3f3f3f) & ~(low7 + 0x25252525) & ~x & 0x80808080;
      high |= x;
      to[w] = x | (upper >>> 2);
    }
    high = high & 0x80808080 ? 0x80 : 0;
    i = words * 4;
  }
  for (; i < src.length; i++) {
    const c = src[i] as number;
    high |= c;
    dst[i] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
  }
  return high < 0x80;
}

/**
 * The literals re2js itself requires of a match (its prefilter tree, built from the parsed pattern:
 * type 1 one literal, 2 all of, 3 any of; re2js is pinned to an exact version), as byte strings.
 * Anything of another shape reads as "no requirement", which only costs speed.
 */
function needOf(node: unknown): Need | undefined {
  if (typeof node !== "object" || node === null) return undefined;
  const { type, bytes, subs } = node as { type?: unknown; bytes?: unknown; subs?: unknown };
  if (type === 1) {
    if (bytes instanceof Uint8Array) return bytes.length > 0 ? Buffer.from(bytes) : undefined;
    return Array.isArray(bytes) && bytes.length > 0 && bytes.every((b) => Number.isInteger(b))
      ? Buffer.from(bytes as number[])
      : undefined;
  }
  if ((type !== 2 && type !== 3) || !Array.isArray(subs) || subs.length === 0) return undefined;
  const parts = subs.map(needOf);
  if (type === 2) {
    const kept = parts.filter((p): p is Need => p !== undefined);
    return kept.length === 0 ? undefined : kept.length === 1 ? kept[0] : { all: kept };
  }
  return parts.every((p): p is Need => p !== undefined) ? { any: parts } : undefined;
}

const score = (set: Buffer[]): number => Math.min(...set.map((b) => b.length)) / set.length;

/** The sets of literals every match holds one of each: one set per required part, best first. */
function anchorSets(need: Need): Buffer[][] | undefined {
  const parts = Buffer.isBuffer(need) || "any" in need ? [need] : need.all;
  const sets = parts.map(anchorsOf).filter((s): s is Buffer[] => s !== undefined);
  sets.sort((a, b) => score(b) - score(a));
  return sets.length > 0 ? sets.slice(0, 3) : undefined;
}

/** Literals of which every match holds one, choosing the longest shortest literal among alternatives. */
function anchorsOf(need: Need): Buffer[] | undefined {
  if (Buffer.isBuffer(need)) return [need];
  if ("any" in need) {
    const all: Buffer[] = [];
    for (const sub of need.any) {
      const found = anchorsOf(sub);
      if (!found) return undefined;
      all.push(...found);
    }
    return all;
  }
  let best: Buffer[] | undefined;
  let bestScore = -1;
  for (const sub of need.all) {
    const found = anchorsOf(sub);
    if (!found) continue;
    if (score(found) > bestScore) {
      best = found;
      bestScore = score(found);
    }
  }
  return best;
}

/**
 * Whether `text` holds what a match needs (a necessary condition, never a sufficient one).
 *
 * @example holds(Buffer.from("token"), Buffer.from("a token here")) // true
 */
export function holds(need: Need, text: Buffer): boolean {
  if (Buffer.isBuffer(need)) return text.indexOf(need) >= 0;
  if ("all" in need) return need.all.every((n) => holds(n, text));
  return need.any.some((n) => holds(n, text));
}
