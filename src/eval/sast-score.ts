import type { FixtureFinding } from "./score.js";
import { type Split, splitOf } from "./held-split.js";

/**
 * The categories of the SAST suites (docs/eval.md, "SEC-02 and SEC-05 on public SAST suites"),
 * each with its policy and what a finding's message must say for the finding to be about it.
 * A case is flagged only by a finding of its category, not by any finding of the same policy: a
 * SQL finding in a command-injection case, or a fixed-IV note in a weak-randomness case, is not a
 * hit. The words are those of the gate's own messages (src/detectors/security/injection.ts and
 * weak-crypto.ts): the weak-cipher and fixed-IV notes also say "hash" and "random" ("random per
 * encryption or hash"), so hashing is matched by the algorithm or "fast hash", and randomness by
 * "predictable"; a cipher finding is about the algorithm or mode, not a constant IV.
 */
export const SAST_CATEGORIES: Readonly<
  Record<string, { policy: "SEC-02" | "SEC-05"; message: RegExp; unless?: RegExp }>
> = {
  sqli: { policy: "SEC-02", message: /\bSQL\b|\bquer(y|ies)\b|\bstatement\b/i },
  cmdi: { policy: "SEC-02", message: /\bshell\b|\bcommand\b|\bprocess(Builder)?\b|\bexec\b/i },
  codeinj: { policy: "SEC-02", message: /\beval\b|\bevaluat|code injection/i },
  hash: { policy: "SEC-05", message: /\bMD[245]\b|\bSHA-?1\b|fast hash|weak hash|\bdigest\b/i },
  crypto: {
    policy: "SEC-05",
    message: /\bcipher\b|\bECB\b|\b3?DES(ede)?\b|\bRC[24]\b|blowfish|weak (encryption|algorithm)/i,
    // A constant IV is a weakness of its own, named by the call (`Cipher.init: a constant IV`).
    unless: /\b(constant|hard-coded|fixed) IV\b/i,
  },
  weakrand: { policy: "SEC-05", message: /predictable|insecure random|not cryptographically/i },
};

/** One case of a SAST suite, as its case.json says (scripts/sast-suite.ts writes them). */
export interface SastCase {
  id: string;
  suite: string;
  language: string;
  category: string;
  policy: string;
  label: "vulnerable" | "safe";
  cwe?: number;
  /** The test file, as the fixture adds it. */
  path: string;
  /**
   * Cases that must fall on the same side of the split (the vulnerable and the fixed file of one
   * real fix): the split is drawn on it instead of the id.
   */
  group?: string;
  /**
   * For a real fix (scripts/real-js-suite.ts): the lines of this file the fix touched. In the file
   * before the fix (a `vulnerable` case) the lines it changed or removed (or, where it only added
   * lines, the line they went after); in the fixed file (a `safe` case) the lines it added or changed.
   */
  fixLines?: number[];
  /**
   * Why the suite's key is wrong for this case, where a mechanical rule shows it (an OWASP case
   * keyed vulnerable whose sink is only ever given a constant): scored as keyed, and also in a
   * second table with such cases set aside (scripts/sast-suite.ts, `keyErratum`).
   */
  keyDisputed?: string;
}

/**
 * How far (in lines) a finding may lie from a line the fix touched and still count for the
 * fix-lines score: a query call often starts a line or two above the argument the fix changed.
 */
export const FIX_WINDOW = 3;

/** A case with its review's verdict. */
export interface ScoredCase extends SastCase {
  split: Split;
  flagged: boolean;
  /** The findings that flagged it (empty when not flagged). */
  hits: FixtureFinding[];
  /**
   * Flagged by a finding within FIX_WINDOW lines of a line the fix touched (`fixLines`); undefined
   * when the case has no fix lines (a suite case, not a real fix).
   */
  flaggedAtFix?: boolean;
}

/** The figures of one (suite, language, category, policy) row; a rate is null when its denominator is 0. */
export interface SastRow {
  suite: string;
  language: string;
  category: string;
  policy: string;
  cases: number;
  vulnerable: number;
  safe: number;
  tp: number;
  fp: number;
  tpr: number | null;
  fpr: number | null;
  /** TPR − FPR (the OWASP Benchmark score), null unless both rates are known. */
  score: number | null;
  /**
   * The same figures scored on the lines each fix touched (`flaggedAtFix`), when every case of
   * the row is a real fix with its fix lines.
   */
  fixLines?: Rates;
}

/** The counts and rates of some cases. */
export type Rates = Pick<SastRow, "cases" | "vulnerable" | "safe" | "tp" | "fp" | "tpr" | "fpr" | "score">;

/**
 * The lines a fix touched in a file, from `git diff -U0 <before> <after> -- <file>`: `before` the
 * lines of the old file it changed or removed (where a hunk only adds, the old line the new
 * lines follow, at least 1), `after` the lines of the new file it added or changed.
 *
 * @example fixLinesOf("@@ -3,2 +3 @@\n-a\n-b\n+c") // { before: [3, 4], after: [3] }
 */
export function fixLinesOf(diff: string): { before: number[]; after: number[] } {
  const before: number[] = [];
  const after: number[] = [];
  for (const m of diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    const [oldStart, oldCount, newStart, newCount] = [m[1], m[2] ?? "1", m[3], m[4] ?? "1"].map(Number) as [
      number,
      number,
      number,
      number,
    ];
    if (oldCount === 0) before.push(Math.max(1, oldStart));
    for (let i = 0; i < oldCount; i++) before.push(oldStart + i);
    for (let i = 0; i < newCount; i++) after.push(newStart + i);
  }
  return { before, after };
}

/**
 * Does a finding lie within FIX_WINDOW lines of one of the fix's lines? A finding without a line
 * does not.
 *
 * @example nearFix({ policy: "SEC-02", line: 12, message: "SQL" }, [10]) // true
 */
export function nearFix(finding: FixtureFinding, fixLines: readonly number[]): boolean {
  const line = finding.line;
  return line !== undefined && fixLines.some((l) => Math.abs(l - line) <= FIX_WINDOW);
}

/**
 * Is this finding about this case's category? Its policy must be the category's, its place (when
 * it has one) the case's file, and its message, with the file's path taken out (a path such as
 * `testcode/…` must not read as "code"), must say what the category is about.
 *
 * @example findingMatches({ category: "sqli", path: "a.java" }, { policy: "SEC-02", message: "SQL text built..." }) // true
 */
export function findingMatches(kase: Pick<SastCase, "category" | "path">, finding: FixtureFinding): boolean {
  const category = SAST_CATEGORIES[kase.category];
  if (!category || finding.policy !== category.policy) return false;
  if (finding.file !== undefined && finding.file !== kase.path) return false;
  const message = finding.message.split(kase.path).join(" ");
  return category.message.test(message) && !(category.unless?.test(message) ?? false);
}

/**
 * A case scored on its review's findings: flagged when at least one finding matches its category.
 * Its split is drawn on its group when it has one, else on its id.
 *
 * @example scoreCase(kase, [{ policy: "SEC-05", message: "java.util.Random (a predictable generator) ..." }]).flagged
 */
export function scoreCase(kase: SastCase, findings: readonly FixtureFinding[]): ScoredCase {
  const hits = findings.filter((f) => findingMatches(kase, f));
  const fixLines = kase.fixLines;
  return {
    ...kase,
    split: splitOf(kase.group ?? kase.id),
    flagged: hits.length > 0,
    hits,
    ...(fixLines === undefined ? {} : { flaggedAtFix: hits.some((h) => nearFix(h, fixLines)) }),
  };
}

/**
 * TP, FP, TPR, FPR and TPR − FPR of some cases (of one category, or any set).
 *
 * @example rates([{ label: "vulnerable", flagged: true }, { label: "safe", flagged: false }]) // { tpr: 1, fpr: 0, score: 1, ... }
 */
export function rates(cases: readonly Pick<ScoredCase, "label" | "flagged">[]): Rates {
  const vulnerable = cases.filter((c) => c.label === "vulnerable");
  const safe = cases.length - vulnerable.length;
  const tp = vulnerable.filter((c) => c.flagged).length;
  const fp = cases.filter((c) => c.label === "safe" && c.flagged).length;
  const tpr = vulnerable.length === 0 ? null : tp / vulnerable.length;
  const fpr = safe === 0 ? null : fp / safe;
  return {
    cases: cases.length,
    vulnerable: vulnerable.length,
    safe,
    tp,
    fp,
    tpr,
    fpr,
    score: tpr === null || fpr === null ? null : tpr - fpr,
  };
}

/**
 * One row per (suite, language, category, policy), sorted by those keys.
 *
 * @example sastTable(scored).map((r) => `${r.suite} ${r.category} ${r.score}`)
 */
export function sastTable(cases: readonly ScoredCase[]): SastRow[] {
  const groups = new Map<string, ScoredCase[]>();
  for (const c of cases) {
    const key = [c.suite, c.language, c.category, c.policy].join("\u0000");
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.keys()].sort().map((key) => {
    const [suite = "", language = "", category = "", policy = ""] = key.split("\u0000");
    const group = groups.get(key) ?? [];
    const located = group.every((c) => c.flaggedAtFix !== undefined);
    return {
      suite,
      language,
      category,
      policy,
      ...rates(group),
      ...(located ? { fixLines: rates(group.map((c) => ({ label: c.label, flagged: c.flaggedAtFix === true }))) } : {}),
    };
  });
}
