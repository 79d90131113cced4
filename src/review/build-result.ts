import { SEVERITY_RANK, SPECIALTIES, type Finding } from "../domain/finding.js";
import type { ReviewStateValue } from "../graph/state.js";
import type { Evidence } from "../domain/investigation.js";
import { coverageComplete, coverageView } from "../domain/coverage.js";
import { toResultFinding, type ResultCoverage, type ReviewResult, type ReviewStatus } from "../domain/review-result.js";
import type { ReviewRecord } from "../domain/review.js";

/** Blocking first, then by severity, policy, file and line: the order a person reads. */
export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      Number(b.blocking) - Number(a.blocking) ||
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      a.policy.localeCompare(b.policy) ||
      (a.file ?? "").localeCompare(b.file ?? "") ||
      (a.line ?? 0) - (b.line ?? 0),
  );
}

function uniqueEvidence(items: Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return items.filter((e) => {
    const k = `${e.file}:${e.line}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The ledger for the result: each unread file says whether a model reviewer was given it. */
function resultCoverage(values: Partial<ReviewStateValue>): ResultCoverage | null {
  const coverage = values.coverage;
  if (!coverage) return null;
  const batches = SPECIALTIES.map((s) => values.findings?.[s]).filter((b) => b !== undefined);
  const modelsRan = (values.usage?.model_calls ?? 0) > 0 && batches.length > 0;
  const cut = new Set(batches.flatMap((b) => b.notReviewed));
  const view = coverageView(coverage);
  return {
    complete: coverageComplete(coverage),
    ...view,
    unread: view.unread.map((u) => ({ ...u, read_by_model: modelsRan && !cut.has(u.file) })),
  };
}

/**
 * The review result (docs/fixtures.md) for a review's current state. `values` is empty for a review
 * that has not run yet (queued).
 *
 * @example buildResult(record, state.values, "done").route // "auto_approved"
 */
export function buildResult(
  record: ReviewRecord,
  values: Partial<ReviewStateValue>,
  status: ReviewStatus,
  cyclesMaxDefault: number,
): ReviewResult {
  const batches = values.findings ?? {};
  const findings = sortFindings(SPECIALTIES.flatMap((s) => batches[s]?.findings ?? []));
  const investigations = values.investigations ?? [];
  const usage = values.usage;
  const route = values.route ?? (status === "waiting_for_human" ? "human" : null);
  return {
    pr: record.pr,
    route,
    status,
    risk: values.risk ?? null,
    findings: findings.map(toResultFinding),
    escalation: values.escalation ?? null,
    budget: {
      cycles_used: investigations.length,
      cycles_max: values.cyclesMax ?? cyclesMaxDefault,
      tool_calls: investigations.reduce((n, r) => n + r.tool_calls, 0),
      model_calls: usage?.model_calls ?? 0,
      input_tokens: usage?.input_tokens ?? 0,
      output_tokens: usage?.output_tokens ?? 0,
      cache_creation_input_tokens: usage?.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: usage?.cache_read_input_tokens ?? 0,
      cost_usd: usage?.cost_usd ?? 0,
    },
    investigations: investigations.map((r) => ({
      status: r.status,
      question: r.question,
      answers: r.answers,
      // What the investigator found wrong leads; then what supports its answers.
      evidence: uniqueEvidence([...r.concerns.map((c) => c.evidence), ...r.evidence]),
      tool_calls: r.tool_calls,
      chars_read: r.chars_read,
      reason: r.reason ?? "",
    })),
    coverage: resultCoverage(values),
    review_id: record.id,
    ...(values.decision ? { decision: values.decision } : {}),
    ...(record.supersededBy ? { superseded_by: record.supersededBy } : {}),
    ...reviewedFiles(record.headSha, values),
  };
}

/** Which files the model specialists read at which head, this head first; nothing when no model read. */
function reviewedFiles(headSha: string, values: Partial<ReviewStateValue>): Pick<ReviewResult, "reviewed_files"> {
  const byFile: Record<string, string> = Object.assign(
    {},
    ...SPECIALTIES.map((s) => values.findings?.[s]?.reviewed ?? {}),
  );
  const heads = new Map<string, string[]>();
  for (const [file, sha] of Object.entries(byFile).sort(([a], [b]) => a.localeCompare(b))) {
    heads.set(sha, [...(heads.get(sha) ?? []), file]);
  }
  if (heads.size === 0) return {};
  const groups = [...heads].map(([head_sha, files]) => ({ head_sha, files }));
  return { reviewed_files: groups.sort((a, b) => Number(b.head_sha === headSha) - Number(a.head_sha === headSha)) };
}
