import { SEVERITY_RANK, type Finding, type Severity } from "../domain/finding.js";
import type { EffectiveConfig } from "./effective.js";
import { exceptionFor, exceptionRef } from "./exceptions.js";
import { LOCKED_POLICIES } from "./schema.js";

const higher = (a: Severity, b: Severity): Severity => (SEVERITY_RANK[a] >= SEVERITY_RANK[b] ? a : b);

function describeException(e: {
  package?: string;
  path?: string;
  advisory?: string;
  granted_by: string;
  expires: string;
}): string {
  return `${e.package ?? e.path ?? e.advisory}, granted by ${e.granted_by}, until ${e.expires}`;
}

/**
 * The detectors' findings as the configuration in force has them, on `today` (`YYYY-MM-DD`):
 * - a finding of a policy with no policy file, or a disabled one, is dropped (not enforced);
 * - severity and blocking: what the configuration file sets, either way; otherwise the policy
 *   file's front matter raises the detector's own rating (never lowers it);
 * - an exception that covers it clears it: not blocking, low, and it names the exception; an
 *   expired one changes nothing but says so.
 * Findings of locked policies are never changed. Pure.
 *
 * @example applyConfig(detections, config, "2026-11-30").filter((f) => f.blocking)
 */
export function applyConfig(detections: readonly Finding[], config: EffectiveConfig, today: string): Finding[] {
  const out: Finding[] = [];
  for (const d of detections) {
    if (LOCKED_POLICIES.has(d.policy)) {
      out.push(d);
      continue;
    }
    const policy = config.policies[d.policy];
    if (!policy?.enabled) continue;
    // A known-vulnerability finding was graded by `vulnerabilities.fail_on`: the file's defaults do not raise it.
    const graded = d.advisories !== undefined;
    const tuned: Finding = {
      ...d,
      severity: policy.configured.severity ?? (graded ? d.severity : higher(d.severity, policy.severity)),
      blocking: policy.configured.blocking ?? (graded ? d.blocking : d.blocking || policy.blocking),
    };
    const { applied, expired } = exceptionFor(config.exceptions, tuned, today);
    if (applied) {
      out.push({
        ...tuned,
        severity: "low",
        blocking: false,
        needs_more_context: false,
        message: `Cleared by exception (${describeException(applied)}: ${applied.reason}). ${d.message}`,
        exception: exceptionRef(applied, "applied"),
      });
    } else if (expired) {
      out.push({
        ...tuned,
        message: `${d.message} (An exception for this, ${describeException(expired)}, has expired and no longer applies.)`,
        exception: exceptionRef(expired, "expired"),
      });
    } else {
      out.push(tuned);
    }
  }
  return out;
}
