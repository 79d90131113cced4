import type { ChangedFile } from "../../domain/pull-request.js";
import { addedLines } from "../../domain/patch.js";
import type { Detector } from "../detector.js";
import type { Finding, Severity } from "../../domain/finding.js";
import { isDocPath, languageOf, looksBinary } from "./file-kind.js";
import { securityFinding } from "./security-finding.js";

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
    if (COMMENT_ONLY.test(l.text) || l.text.length > 2000) return;
    const before = lines
      .slice(Math.max(0, i - 3), i)
      .filter((b) => b.line >= l.line - 3)
      .map((b) => b.text)
      .join("\n");
    const rule = rules.find((r) => r.test(l.text, language, before));
    if (rule) out.push({ rule, line: l.line, text: l.text });
  });
  return out;
}

/**
 * A detector made of line rules: every match in an added line of a code file is one finding of
 * the given policy, severity and blocking flag.
 *
 * @example export const weakCryptoDetector = lineRuleDetector({ id: "weak-crypto", policy: "SEC-05", severity: "medium", blocking: false, rules });
 */
export function lineRuleDetector(spec: {
  id: string;
  policy: string;
  severity: Severity;
  blocking: boolean;
  rules: readonly LineRule[];
}): Detector {
  return {
    id: spec.id,
    policies: [spec.policy],
    async detect(ctx) {
      const findings: Finding[] = [];
      for (const file of ctx.pr.files) {
        if (file.status === "removed" || !file.patch || isDocPath(file.filename)) continue;
        for (const m of matchLineRules(file, spec.rules)) {
          findings.push(
            securityFinding({
              policy: spec.policy,
              detector: spec.id,
              severity: spec.severity,
              blocking: spec.blocking,
              file: file.filename,
              line: m.line,
              message: m.rule.message,
            }),
          );
        }
      }
      return findings;
    },
  };
}
