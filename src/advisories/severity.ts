import { createRequire } from "node:module";
import type { AdvisorySeverity } from "../domain/advisory-source.js";
import type { OsvRecord } from "./osv-record.js";

/** The one part of ae-cvss-calculator used here: a vector's scores (its `fromVector` is typed `any`). */
interface CvssCalculator {
  fromVector(vector: string): { calculateScores(): { overall?: number; base?: number } } | null;
  Cvss2: new (vector: string) => { calculateScores(): { overall?: number; base?: number } };
}

let calculator: CvssCalculator | undefined;

/** GitHub's words, and OSV's `MEDIUM` for the same thing. */
const NAMED: Record<string, AdvisorySeverity> = {
  low: "low",
  moderate: "moderate",
  medium: "moderate",
  high: "high",
  critical: "critical",
};

/** Newest CVSS first: a record that gives several is rated by the most recent standard. */
const CVSS_TYPES = ["CVSS_V4", "CVSS_V3", "CVSS_V2"];

function scoreOf(type: string, vector: string): number | undefined {
  calculator ??= createRequire(import.meta.url)("ae-cvss-calculator") as CvssCalculator;
  try {
    const cvss =
      type === "CVSS_V2" && !vector.startsWith("CVSS:") ? new calculator.Cvss2(vector) : calculator.fromVector(vector);
    const scores = cvss?.calculateScores();
    const score = scores?.overall ?? scores?.base;
    return typeof score === "number" && Number.isFinite(score) ? score : undefined;
  } catch {
    return undefined; // a vector the calculator cannot read: the next one, or the default, rates it
  }
}

/**
 * CVSS's qualitative scale (FIRST, CVSS v3.1 specification, section 5): below 4 low, below 7
 * medium (GitHub says moderate), below 9 high, else critical.
 *
 * @example severityOfScore(9.8) // "critical"
 */
export function severityOfScore(score: number): AdvisorySeverity {
  if (score < 4) return "low";
  if (score < 7) return "moderate";
  if (score < 9) return "high";
  return "critical";
}

/**
 * An advisory's severity and where it came from: GitHub's rating (`database_specific.severity`)
 * where the record gives one, else computed from its newest CVSS vector, else high.
 *
 * @example advisorySeverity({ id: "X", severity: [{ type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" }] }) // { severity: "critical", from: "CVSS 9.8" }
 */
export function advisorySeverity(record: OsvRecord): { severity: AdvisorySeverity; from: string } {
  const named = record.database_specific?.severity?.trim().toLowerCase();
  if (named && NAMED[named]) return { severity: NAMED[named], from: "GitHub's rating" };
  for (const type of CVSS_TYPES) {
    for (const s of record.severity ?? []) {
      if (s.type !== type) continue;
      const score = scoreOf(type, s.score);
      if (score !== undefined) return { severity: severityOfScore(score), from: `CVSS ${score.toFixed(1)}` };
    }
  }
  return { severity: "high", from: "no severity given, counted as high" };
}
