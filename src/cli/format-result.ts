import { approvalLines } from "../domain/approval-text.js";
import { PLAIN_STYLE } from "../domain/decision.js";
import { coverageLines } from "../domain/coverage.js";
import type { ReviewResult } from "../domain/review-result.js";

const ROUTE_TEXT: Record<string, string> = {
  auto_approved: "auto-approved (risk gate, no specialist ran)",
  approved: "approved (specialists found nothing blocking)",
  human: "waiting for a person",
  human_approved: "approved by a person",
  human_rejected: "rejected by a person",
  merged_unapproved: "MERGED WITHOUT APPROVAL",
};

/** The budget in one line. */
export function formatBudget(r: ReviewResult): string {
  const b = r.budget;
  return (
    `cycles ${b.cycles_used}/${b.cycles_max}, tool calls ${b.tool_calls}, model calls ${b.model_calls}, ` +
    `tokens ${b.input_tokens} in / ${b.output_tokens} out, $${b.cost_usd.toFixed(4)}`
  );
}

/**
 * A review result as a person reads it in a terminal.
 *
 * @example console.log(formatResult(result))
 */
export function formatResult(r: ReviewResult): string {
  const lines: string[] = [];
  lines.push(`${r.pr}  [${r.review_id}]`);
  lines.push(`  status:   ${r.status}`);
  const route =
    r.pushed && r.route === "merged_unapproved" ? "CHANGED WITHOUT REVIEW (pushed, no pull request)" : r.route;
  lines.push(`  route:    ${route ? (ROUTE_TEXT[route] ?? route) : "(not decided yet)"}`);
  if (r.risk) lines.push(`  risk:     ${r.risk.score}/100 (${r.risk.class}): ${r.risk.reasons.join("; ")}`);
  if (r.findings.length === 0) lines.push(`  findings: none`);
  else {
    lines.push(`  findings:`);
    for (const f of r.findings) {
      const where = f.file ? ` ${f.file}${f.line ? `:${f.line}` : ""}` : "";
      const flags = [f.blocking ? "BLOCKING" : "", f.needs_more_context ? "needs context" : ""]
        .filter(Boolean)
        .join(", ");
      lines.push(`    - ${f.policy} ${f.severity}${flags ? ` [${flags}]` : ""}${where}: ${f.message}`);
      if (f.fingerprint) lines.push(`      fingerprint: ${f.fingerprint}`);
    }
  }
  if (r.escalation) lines.push(`  escalation: ${r.escalation.reason}: ${r.escalation.detail}`);
  if (r.coverage) lines.push(...coverageLines(r.coverage).map((l, i) => (i === 0 ? `  coverage: ${l}` : `    ${l}`)));
  for (const [i, inv] of r.investigations.entries()) {
    lines.push(`  investigation ${i + 1}: ${inv.status} (${inv.tool_calls} tool calls, ${inv.chars_read} chars read)`);
    lines.push(`    question: ${inv.question}`);
    for (const a of inv.answers) lines.push(`    answer: ${a}`);
    for (const e of inv.evidence.slice(0, 6)) lines.push(`    evidence: ${e.file}:${e.line}  ${e.excerpt.trim()}`);
    if (inv.status === "inconclusive" && inv.reason) lines.push(`    reason: ${inv.reason}`);
  }
  for (const line of approvalLines(r, PLAIN_STYLE)) lines.push(`  approval: ${line}`);
  if (r.decision) {
    lines.push(
      `  decision: ${r.decision.kind} by ${r.decision.by} at ${r.decision.at}${r.decision.note ? `: ${r.decision.note}` : ""}`,
    );
    const from = r.decision.carried_from;
    if (from)
      lines.push(
        `  carried forward from review ${from.review_id} at ${from.head_sha.slice(0, 7)} (decided ${from.at})`,
      );
  }
  if (r.merged && r.pushed) {
    const p = r.pushed;
    const how = p.forced ? `force-pushed (history rewritten from ${p.before.slice(0, 7)})` : "pushed";
    lines.push(
      `  pushed:   ${how} to ${p.branch} by ${r.merged.by} at ${r.merged.at}, no pull request: changed without review`,
    );
    lines.push(`  commits:  ${p.commits.map((c) => c.slice(0, 7)).join(", ")}`);
  } else if (r.merged) {
    const was = `${r.merged.was.status}${r.merged.was.route ? `, route ${r.merged.was.route}` : ""}`;
    lines.push(`  merged:   by ${r.merged.by} at ${r.merged.at}, without approval (the review was ${was})`);
  }
  if (r.emergency) {
    const e = r.emergency;
    const state = e.overdue ? "OVERDUE: no approval came by" : "approval due by";
    lines.push(`  emergency: the ${e.label} label since ${e.since}; ${state} ${e.due_at}`);
  }
  if (r.after_the_fact) {
    const a = r.after_the_fact;
    const what = a.kind === "approve" ? "approved after the fact" : "marked as an incident";
    lines.push(`  after the fact: ${what} by ${a.by} at ${a.at}${a.note ? `: ${a.note}` : ""}`);
  } else if (r.status === "merged_unapproved") {
    lines.push("  after the fact: no decision recorded yet (Approve after the fact, or Mark as incident, on the card)");
  }
  if (r.since_decision) {
    const s = r.since_decision;
    lines.push(
      `  changed since the ${s.kind === "approve" ? "approval" : "rejection"} by ${s.by} at ${s.head_sha.slice(0, 7)}:`,
    );
    for (const c of s.changes) lines.push(`    ${c}`);
  }
  if (r.reviewed_files) {
    for (const g of r.reviewed_files)
      lines.push(`  read by the models at ${g.head_sha.slice(0, 7)}: ${g.files.join(", ")}`);
  }
  if (r.superseded_by) lines.push(`  superseded by ${r.superseded_by}`);
  lines.push(`  budget:   ${formatBudget(r)}`);
  return lines.join("\n");
}
