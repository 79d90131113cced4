import type { PullRequest } from "../../domain/pull-request.js";
import type { InvestigationRequest } from "../../domain/investigation.js";

const CODE_FILE = /\.(ts|tsx|js|jsx|mjs|cjs|py|go|rb|java|kt|rs|php|cs)$/;
/** At most this many changed files are examined in one investigation. */
export const MAX_TARGETS = 4;

/**
 * The changed files an investigation examines: the files of findings that asked for context, or
 * (for a person's question without such findings) the PR's changed code files.
 *
 * @example investigationTargets(request, pr) // ["src/auth/session.ts"]
 */
export function investigationTargets(request: InvestigationRequest, pr: PullRequest): string[] {
  const fromFindings = request.findings.filter((f) => f.needs_more_context && f.file).map((f) => f.file ?? "");
  const chosen = fromFindings.length > 0 ? fromFindings : request.origin === "human" ? changedCode(pr) : [];
  const fallback = chosen.length > 0 ? chosen : changedCode(pr);
  return [...new Set(fallback)].slice(0, MAX_TARGETS);
}

function changedCode(pr: PullRequest): string[] {
  const live = pr.files.filter((f) => f.status !== "removed");
  const code = live.filter((f) => CODE_FILE.test(f.filename));
  return (code.length > 0 ? code : live).map((f) => f.filename);
}
