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

/**
 * One finding per line of a file, in line order, from what a detector found there (line →
 * message): the tail every line-by-line security detector shares.
 *
 * @example lineFindings(new Map([[3, "MD5 used"]]), { policy: "SEC-05", detector: "weak-crypto", severity: "medium", blocking: false, file: "a.ts" })
 */
export function lineFindings(
  found: ReadonlyMap<number, string>,
  base: Omit<SecurityFindingInput, "line" | "message">,
): Finding[] {
  return [...found].sort((a, b) => a[0] - b[0]).map(([line, message]) => securityFinding({ ...base, line, message }));
}
