import type { ChangedFile } from "../../domain/pull-request.js";
import { addedLines } from "../../domain/patch.js";
import { readableLine } from "../code-lines.js";
import { languageOf, looksBinary } from "./file-kind.js";

/** One line-level check: a test on an added line and what to tell a person when it matches. */
export interface LineRule {
  /** A short name, e.g. "sql-interpolation". */
  id: string;
  /**
   * True when the added line (in a file of this language) violates the rule. `before` holds up to
   * three preceding added lines, for rules that need the enclosing name (a function, a variable).
   */
  test(line: string, language: ReturnType<typeof languageOf>, before: string): boolean;
  /** What a reviewer reads; it names the construct, never the data. */
  message: string;
}

/** A rule that matched an added line. */
export interface LineMatch {
  rule: LineRule;
  line: number;
  text: string;
}

/** Lines that are only a comment in the common languages (`//`, `#`, `*`, `/*`, `--`). */
const COMMENT_ONLY = /^\s*(\/\/|#(?!!)|\*|\/\*|--\s)/;

/**
 * Runs line rules over a file's added lines: at most one match (the first rule's) per line.
 * Comment-only lines and binary-looking text are skipped.
 *
 * @example matchLineRules(file, [{ id: "md5", test: (l) => /md5/.test(l), message: "MD5" }])
 */
export function matchLineRules(file: ChangedFile, rules: readonly LineRule[]): LineMatch[] {
  const lines = addedLines(file.patch);
  if (lines.length === 0 || looksBinary(lines.map((l) => l.text).join("\n"))) return [];
  const language = languageOf(file.filename);
  const out: LineMatch[] = [];
  lines.forEach((l, i) => {
    // Overlong lines are recorded unread by the coverage ledger.
    const text = readableLine(l.text);
    if (text === undefined || COMMENT_ONLY.test(text)) return;
    const before = lines
      .slice(Math.max(0, i - 3), i)
      .filter((b) => b.line >= l.line - 3)
      .map((b) => b.text)
      .join("\n");
    const rule = rules.find((r) => r.test(text, language, before));
    if (rule) out.push({ rule, line: l.line, text });
  });
  return out;
}
