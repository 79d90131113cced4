import type { Finding } from "../domain/finding.js";
import type { Specialist, SpecialistInput, SpecialistOutput } from "../domain/specialist.js";
import { latestMachineReport } from "../domain/investigation.js";
import { ZERO_USAGE } from "../domain/usage.js";

/** Turns an investigation's concerns that cite one of this specialty's policies into blocking findings. */
function concernFindings(input: SpecialistInput): Finding[] {
  const ids = new Set(input.policies.map((p) => p.id));
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const report of input.investigations) {
    for (const c of report.concerns) {
      if (!ids.has(c.policy)) continue;
      const k = `${c.policy}@${c.evidence.file}:${c.evidence.line}`;
      if (seen.has(k)) continue;
      seen.add(k);
      const policy = input.policies.find((p) => p.id === c.policy);
      out.push({
        specialty: input.specialty,
        policy: c.policy,
        severity: policy?.severity === "critical" ? "critical" : "high",
        blocking: true,
        needs_more_context: false,
        file: c.evidence.file,
        line: c.evidence.line,
        message: `${c.message} (found by investigation: \`${c.evidence.excerpt.trim().slice(0, 160)}\`)`,
        source: "investigator",
      });
    }
  }
  return out;
}

/**
 * The deterministic rules reviewer: the default specialist, no model. It carries every detector
 * finding of its specialty, settles a `needs_more_context` finding from the newest machine
 * investigation (clean → a non-blocking note; concerns → blocking findings; inconclusive → stays
 * blocking), and turns any investigation's concerns into blocking findings.
 *
 * @example await rulesReviewer.review(input) // { findings: [...detections], verdicts: [], ... }
 */
export const rulesReviewer: Specialist = {
  kind: "rules",
  async review(input: SpecialistInput): Promise<SpecialistOutput> {
    const latest = latestMachineReport(input.investigations);
    const findings: Finding[] = [];
    for (const d of input.detections) {
      if (!d.needs_more_context || !latest) {
        findings.push({ ...d });
        continue;
      }
      if (latest.status === "inconclusive") {
        findings.push({
          ...d,
          needs_more_context: false,
          message: `${d.message} Investigation inconclusive: ${latest.reason ?? "no conclusion"}.`,
        });
      } else if (latest.concerns.length === 0) {
        findings.push({
          ...d,
          severity: "low",
          blocking: false,
          needs_more_context: false,
          source: "rules",
          message: `Reviewed in context: ${latest.answers[0] ?? "no weakened check or logged secret found"}`,
        });
      } else {
        // Concerns found: the block stands, now with evidence (added below), and no more context is needed.
        findings.push({ ...d, needs_more_context: false });
      }
    }
    findings.push(...concernFindings(input));
    return { findings, verdicts: [], usage: { ...ZERO_USAGE }, notReviewed: [] };
  },
};
