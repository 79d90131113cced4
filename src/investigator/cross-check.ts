import type { InvestigationReport, InvestigationRequest } from "../domain/investigation.js";
import type { PullRequest } from "../domain/pull-request.js";
import { sec03Files } from "./auth-checks/checks-shown.js";

/**
 * The new files of a question's SEC-03 findings that a report did not assess: no line it cited
 * (and the harness verified) shows the check such a file needs.
 *
 * @example unassessedNewAuthFiles(request, pr, deterministicReport) // ["src/auth/token.ts"]
 */
export function unassessedNewAuthFiles(
  request: InvestigationRequest,
  pr: PullRequest,
  check: InvestigationReport,
): string[] {
  const shown = new Set(check.checks_shown ?? []);
  return (sec03Files(request) ?? []).filter(
    (file) => pr.files.find((f) => f.filename === file)?.status === "added" && !shown.has(file),
  );
}

/**
 * A model's clearance, weighed against the deterministic investigation of the same question. The
 * rules, in order:
 * 1. the deterministic investigation found a concern → inconclusive, with its concerns and their
 *    lines as evidence;
 * 2. a newly added file of a SEC-03 finding that the deterministic investigation could not assess
 *    (it cited no line of it that shows the check) → inconclusive, whatever the model says: a new
 *    file has no earlier version to compare with, so the rules' reading is the only second opinion;
 * 3. otherwise → the model's report as it is.
 *
 * @example withCrossCheck(modelSaysResolved, rulesFoundTokenLogged, request, pr).status // "inconclusive"
 */
export function withCrossCheck(
  report: InvestigationReport,
  check: InvestigationReport,
  request: InvestigationRequest,
  pr: PullRequest,
): InvestigationReport {
  if (check.concerns.length > 0) {
    const first = check.concerns[0];
    return {
      ...report,
      status: "inconclusive",
      concerns: [...check.concerns],
      evidence: [...report.evidence, ...check.concerns.map((c) => c.evidence)],
      reason:
        `the answer cleared the question, but the deterministic investigation of the same question found a concern` +
        (first ? `: ${first.message}` : ""),
    };
  }
  const unassessed = unassessedNewAuthFiles(request, pr, check);
  if (unassessed.length > 0) {
    const files = unassessed.join(", ");
    return {
      ...report,
      status: "inconclusive",
      reason:
        `${files} ${unassessed.length === 1 ? "is a new authentication file" : "are new authentication files"} that ` +
        `the deterministic investigation could not assess (no line it read shows the check), so the model's ` +
        `clearance does not settle SEC-03: a person decides`,
    };
  }
  return report;
}
