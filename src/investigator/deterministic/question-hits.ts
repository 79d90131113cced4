import type { QuestionTerm } from "./question-terms.js";
import { stripStrings, type SourceLine } from "./tool-text.js";

const CONDITIONAL = /\bif\s*\(|\bthrow\b|[<>]=?|verify\w*\s*\(/;

/** A grep hit for a person's question, with the question words it matches. */
export interface RankedHit {
  hit: SourceLine;
  words: string[];
}

/**
 * Orders grep hits for a person's question: rarer question words weigh more (a line matching
 * "expiry" beats one matching only "session"), then hits in the changed files, then lines that
 * make a check. Comment-only lines go last.
 *
 * @example rankQuestionHits(hits, terms, ["src/auth/session.ts"])[0]?.words // ["expiry"]
 */
export function rankQuestionHits(hits: SourceLine[], terms: QuestionTerm[], changed: string[]): RankedHit[] {
  const matchers = terms.map((t) => ({ word: t.word, re: new RegExp(t.source, "i") }));
  const df = matchers.map((m) => hits.filter((h) => m.re.test(h.text)).length);
  const ranked = hits.map((hit, i) => {
    const code = stripStrings(hit.text, hit.file);
    const matched = matchers.map((m, k) => (m.re.test(hit.text) ? k : -1)).filter((k) => k >= 0);
    // A word met only inside a string literal ("expired") says less than one in the code.
    const weight = matched.reduce(
      (sum, k) => sum + Math.log(1 + hits.length / Math.max(1, df[k] ?? 1)) * (matchers[k]?.re.test(code) ? 1 : 0.3),
      0,
    );
    const score =
      weight * 2 +
      (changed.includes(hit.file) ? 1 : 0) +
      (CONDITIONAL.test(hit.text) ? 1 : 0) -
      (/^\s*(\/\/|\*|#)/.test(hit.text) ? 5 : 0);
    return { hit, i, score, words: matched.map((k) => matchers[k]?.word ?? "") };
  });
  return ranked.sort((a, b) => b.score - a.score || a.i - b.i).map(({ hit, words }) => ({ hit, words }));
}
