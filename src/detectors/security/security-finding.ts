import type { Finding, Severity } from "../../domain/finding.js";

/** The fields a security detector chooses; the rest are fixed for detector findings. */
export interface SecurityFindingInput {
  policy: string;
  detector: string;
  severity: Severity;
  blocking: boolean;
  file: string;
  line?: number;
  message: string;
  needsMoreContext?: boolean;
}

/**
 * Builds a `source: "detector"` finding of the security specialty.
 *
 * @example securityFinding({ policy: "SEC-05", detector: "weak-crypto", severity: "medium",
 *   blocking: false, file: "a.ts", line: 3, message: "MD5 used" })
 */
export function securityFinding(input: SecurityFindingInput): Finding {
  return {
    specialty: "security",
    policy: input.policy,
    severity: input.severity,
    blocking: input.blocking,
    needs_more_context: input.needsMoreContext ?? false,
    file: input.file,
    ...(input.line !== undefined && input.line > 0 ? { line: input.line } : {}),
    message: input.message,
    source: "detector",
    detector: input.detector,
  };
}
