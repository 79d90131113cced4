import { approvalLines } from "../domain/approval-text.js";
import { coverageLines } from "../domain/coverage.js";
import type { ReviewResult } from "../domain/review-result.js";
import type { ReviewRecord } from "../domain/review.js";
import { escapeMrkdwn, formatUsd, mentionOrName, mrkdwnLink, slackDate, truncateMrkdwn } from "./mrkdwn.js";
import { cardLink } from "./card-link.js";

/** Findings listed by `/gate status`; the card has the rest. */
const MAX_STATUS_FINDINGS = 5;
/** `/gate status` answers stay short. */
const STATUS_TEXT_MAX = 3000;

/**
 * A short mrkdwn summary of a review for `/gate status`: state, route, risk, coverage, findings,
 * budget, decision, and a link to the card when there is one.
 *
 * @example await respond({ response_type: "ephemeral", text: renderStatusText(result, review) });
 */
export function renderStatusText(result: ReviewResult, review?: ReviewRecord): string {
  const title = review ? ` ${mrkdwnLink(review.url, review.title)}` : "";
  const lines = [`*${escapeMrkdwn(result.pr)}*${title} · \`${escapeMrkdwn(result.review_id)}\``];
  lines.push(`Status: ${result.status.replace(/_/g, " ")}${result.route ? ` · route: ${result.route}` : ""}`);
  if (result.risk) lines.push(`Risk: ${result.risk.score}/100 (${escapeMrkdwn(result.risk.class)})`);
  if (result.escalation)
    lines.push(
      `Escalation: ${result.escalation.reason} (${escapeMrkdwn(truncateMrkdwn(result.escalation.detail, 200))})`,
    );
  if (result.coverage) {
    const [read, ...unread] = coverageLines(result.coverage, 3);
    lines.push(`Coverage: ${escapeMrkdwn(read ?? "")}`, ...unread.map((l) => truncateMrkdwn(escapeMrkdwn(l), 400)));
  }
  const blocking = result.findings.filter((f) => f.blocking).length;
  lines.push(`Findings: ${result.findings.length} (${blocking} blocking)`);
  for (const f of result.findings.slice(0, MAX_STATUS_FINDINGS)) {
    const where = f.file ? ` \`${escapeMrkdwn(f.file)}${f.line !== undefined ? `:${f.line}` : ""}\`` : "";
    lines.push(
      `• ${escapeMrkdwn(f.policy)} ${f.severity}${f.blocking ? " blocking" : ""}${where}: ${truncateMrkdwn(escapeMrkdwn(f.message), 160)}`,
    );
  }
  if (result.findings.length > MAX_STATUS_FINDINGS)
    lines.push(`• +${result.findings.length - MAX_STATUS_FINDINGS} more`);
  const b = result.budget;
  lines.push(
    `Budget: cycles ${b.cycles_used}/${b.cycles_max} · ${b.tool_calls} tool calls · ${b.model_calls} model calls · ${b.input_tokens} in / ${b.output_tokens} out tokens · ${formatUsd(b.cost_usd)}`,
  );
  lines.push(...approvalLines(result, { person: mentionOrName, date: slackDate }));
  if (result.decision) {
    const d = result.decision;
    lines.push(
      `${d.kind === "approve" ? "Approved" : "Rejected"} by ${mentionOrName(d.by)} at ${slackDate(d.at)}${d.note ? `: ${escapeMrkdwn(d.note)}` : ""}`,
    );
    const from = d.carried_from;
    if (from) {
      lines.push(
        `Carried forward from review \`${escapeMrkdwn(from.review_id)}\` at \`${from.head_sha.slice(0, 7)}\` (decided ${slackDate(from.at)}): no change to the decided findings`,
      );
    }
  }
  if (result.emergency)
    lines.push(
      `:rotating_light: Emergency (\`${escapeMrkdwn(result.emergency.label)}\`): ${result.emergency.overdue ? "OVERDUE, approval was due by" : "approval due by"} ${slackDate(result.emergency.due_at)}`,
    );
  if (result.merged)
    lines.push(
      `:rotating_light: Merged without approval by ${escapeMrkdwn(result.merged.by)} at ${slackDate(result.merged.at)}`,
    );
  if (result.after_the_fact) {
    const a = result.after_the_fact;
    lines.push(
      `${a.kind === "approve" ? "Approved after the fact" : "Marked as an incident"} by ${mentionOrName(a.by)} at ${slackDate(a.at)}${a.note ? `: ${escapeMrkdwn(a.note)}` : ""}`,
    );
  }
  if (result.superseded_by) lines.push(`Superseded by ${escapeMrkdwn(result.superseded_by)}`);
  const link = review ? cardLink(review) : undefined;
  if (link) lines.push(mrkdwnLink(link, "Open the card"));
  return truncateMrkdwn(lines.join("\n"), STATUS_TEXT_MAX);
}
