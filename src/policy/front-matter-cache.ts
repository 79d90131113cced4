import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import YAML, { isSeq, LineCounter } from "yaml";
import { PACKAGE_ROOT } from "../package-paths.js";

/**
 * A policy's front matter as YAML reads it: the raw value (validated by the caller, every time) and
 * the file line of each `rules:` entry.
 */
export interface ParsedFrontMatter {
  meta: unknown;
  ruleLines: number[];
}

/**
 * The shipped policies' front matter, parsed when the package is built (`npm run build`), keyed by
 * the front matter's own text: YAML is most of what loading the policies costs (about 30 ms of a
 * CLI review, docs/performance.md). A text that differs by one byte is not in it and is parsed.
 */
export const PARSED_POLICIES_FILE = path.join(PACKAGE_ROOT, "dist", "policies.parsed.json");

/**
 * Texts parsed in this process (a repository's own policies are read again with every review): at
 * most 64, none longer than 256 KB (a file of thousands of rules is parsed each time, not kept).
 */
const MEMO_LIMIT = 64;
const MEMO_MAX_CHARS = 256 * 1024;
const memo = new Map<string, ParsedFrontMatter>();
let shipped: Map<string, ParsedFrontMatter> | undefined;

function shippedParses(): Map<string, ParsedFrontMatter> {
  if (shipped) return shipped;
  shipped = new Map();
  try {
    const entries = JSON.parse(fs.readFileSync(PARSED_POLICIES_FILE, "utf8")) as unknown;
    if (Array.isArray(entries)) {
      for (const e of entries as { text?: unknown; meta?: unknown; ruleLines?: unknown }[]) {
        if (typeof e?.text === "string" && Array.isArray(e.ruleLines)) {
          shipped.set(e.text, { meta: e.meta, ruleLines: e.ruleLines as number[] });
        }
      }
    }
  } catch {
    // No build output (tests from src/ before a build) or an unreadable file: every text is parsed.
  }
  return shipped;
}

/**
 * Reads front matter as YAML, the file line of each rule with it (lines count from the line below
 * the opening `---`). Throws what YAML throws for text that is not YAML.
 *
 * @example parseFrontMatter("id: SEC-01\nrules:\n  - id: a\n").ruleLines // [4]
 */
export function parseFrontMatter(text: string): ParsedFrontMatter {
  const meta: unknown = YAML.parse(text);
  const rules = (meta as { rules?: unknown } | null)?.rules;
  return { meta, ruleLines: Array.isArray(rules) && rules.length > 0 ? ruleLines(text, rules.length) : [] };
}

/**
 * `parseFrontMatter`, answered from the build's parses or this process's own when the same text
 * was parsed before. Each answer is a copy of its own: a caller may keep or change it.
 *
 * @example cachedFrontMatter(match[1]).meta // { id: "SEC-01", ... }
 */
export function cachedFrontMatter(text: string): ParsedFrontMatter {
  let known = shippedParses().get(text) ?? memo.get(text);
  if (!known) {
    known = parseFrontMatter(text);
    if (text.length <= MEMO_MAX_CHARS) {
      if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
      memo.set(text, known);
    }
  }
  return { meta: structuredClone(known.meta), ruleLines: [...known.ruleLines] };
}

/** The file line of each `rules:` entry (the front matter starts on line 2, below its `---`). */
export function ruleLines(frontMatter: string, count: number): number[] {
  const lineCounter = new LineCounter();
  const doc = YAML.parseDocument(frontMatter, { lineCounter });
  const list = doc.get("rules", true);
  return Array.from({ length: count }, (_, i) => {
    const item = isSeq(list) ? (list.items[i] as { range?: [number, number, number] } | undefined) : undefined;
    return lineCounter.linePos(item?.range?.[0] ?? 0).line + 1;
  });
}

/**
 * Writes the parses of a folder's policy files (the shipped ones, at build time) for
 * `cachedFrontMatter`.
 *
 * @example writeParsedPolicies(BUNDLED_POLICIES_DIR) // 13
 */
export function writeParsedPolicies(dir: string, file = PARSED_POLICIES_FILE): number {
  const entries = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith(".md") && n.toLowerCase() !== "readme.md")
    .sort()
    .flatMap((n) => {
      const text = frontMatterOf(fs.readFileSync(path.join(dir, n), "utf8"));
      if (text === undefined) return [];
      const parsed = parseFrontMatter(text);
      // Only what JSON keeps exactly (no NaN, no Infinity, no undefined) is written.
      return isDeepStrictEqual(JSON.parse(JSON.stringify(parsed)), parsed) ? [{ text, ...parsed }] : [];
    });
  fs.writeFileSync(file, JSON.stringify(entries));
  return entries.length;
}

/** A policy file: YAML front matter between `---` lines, then Markdown prose. */
export const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

function frontMatterOf(text: string): string | undefined {
  return FRONT_MATTER.exec(text)?.[1];
}
