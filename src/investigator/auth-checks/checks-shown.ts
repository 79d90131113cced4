import type { Evidence, InvestigationRequest } from "../../domain/investigation.js";
import type { PullRequest } from "../../domain/pull-request.js";
import { normalizePath } from "../evidence-check.js";
import type { FollowVerdict } from "./followed-call.js";
import { clearanceNeed, lineCheck, showsNeededCheck, type CheckNeed, type LineCheck } from "./line-check.js";

/** The lines an investigation read, by file and line (the harness's `LinesRead`). */
export type ReadLines = (file: string, line: number) => string | undefined;

/**
 * The files a question's SEC-03 findings are about, or undefined when none of its findings cites
 * SEC-03. A finding without a file is the empty string: any cited line may show its check.
 *
 * @example sec03Files({ findings: [{ policy: "SEC-03", file: "src/auth/token.ts", ... }], ... }) // ["src/auth/token.ts"]
 */
export function sec03Files(request: InvestigationRequest): string[] | undefined {
  const files = request.findings.filter((f) => f.policy === "SEC-03").map((f) => f.file ?? "");
  return files.length > 0 ? [...new Set(files)] : undefined;
}

/** One file's verdict: the cited line that shows its check, if one does. */
export interface FileCheck {
  file: string;
  /** What its clearance must cite. */
  need: CheckNeed;
  /** The first cited line that shows the check this file needs. */
  shownAt?: Evidence & { check: LineCheck };
  /** Cited helper calls whose bodies, followed into the snapshot, do not verify: why, for messages. */
  notVerified?: string[];
}

/** The verdict on a cited helper call (`LineCheck.helper`) at a file and line, once followed. */
export type FollowedAt = (file: string, line: number, check: LineCheck) => FollowVerdict | undefined;

/**
 * For each file of the question's SEC-03 findings: does one of the cited lines (already verified as
 * read and quoted right) show the check a clearance of that file needs (see `clearanceNeed`)? The
 * line must be in that file; for a removed file, or a finding without a file, a line of any file
 * will do. The recogniser reads the line as the tools showed it, never the excerpt (an excerpt may
 * quote only part of a line). A cited call of a project's own helper counts only when `followed`
 * says its body verifies (no verdict: it does not count). Empty when the question has no SEC-03 finding.
 *
 * @example fileChecks(request, pr, report.evidence, (f, n) => lines.text(f, n))[0]?.shownAt?.check.kind // "verification"
 */
export function fileChecks(
  request: InvestigationRequest,
  pr: PullRequest,
  verified: readonly Evidence[],
  read: ReadLines,
  followed: FollowedAt = () => undefined,
): FileCheck[] {
  return (sec03Files(request) ?? []).map((file) => {
    const changed = pr.files.find((f) => f.filename === file);
    const need = clearanceNeed(changed);
    const anywhere = file === "" || changed?.status === "removed";
    const notVerified: string[] = [];
    for (const e of verified) {
      if (!anywhere && normalizePath(e.file) !== file) continue;
      const check = lineCheck(e.file, (n) => read(e.file, n), e.line);
      if (!showsNeededCheck(check, need) || !check) continue;
      if (check.helper !== undefined) {
        const verdict = followed(e.file, e.line, check);
        if (!verdict?.verifies) {
          notVerified.push(verdict?.reason ?? `${check.what} was not followed into its body`);
          continue;
        }
      }
      return { file, need, shownAt: { ...e, check } };
    }
    return { file, need, ...(notVerified.length > 0 ? { notVerified } : {}) };
  });
}
