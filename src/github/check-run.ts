import { coverageLines } from "../domain/coverage.js";
import { approvalLines } from "../domain/approval-text.js";
import type { ResultCoverage, ResultFinding, ReviewResult } from "../domain/review-result.js";

/** The check run's name, and the commit status's context: what branch protection requires. */
export const CHECK_NAME = "compliance-gate";
/** GitHub's limit on a check run's `output.summary` and `output.text`. */
export const SUMMARY_LIMIT = 65_535;
/** GitHub accepts at most this many annotations per check-run request. */
export const ANNOTATIONS_PER_REQUEST = 50;
const STATUS_DESCRIPTION_LIMIT = 140;
const TITLE_LIMIT = 200;

export type CheckConclusion = "success" | "failure" | "neutral" | "action_required";

/** One check-run annotation (GitHub's shape). */
export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "failure" | "warning" | "notice";
  title: string;
  message: string;
  /** GitHub shows it under the annotation; the gate puts the finding's fingerprint here. */
  raw_details?: string;
}

/** A button on a check run (GitHub's requested action): label and identifier ≤ 20 characters, description ≤ 40. */
export interface CheckAction {
  label: string;
  description: string;
  identifier: string;
}

/** The requested action's identifier of each decision a check run offers. */
export const CHECK_ACTION_APPROVE = "approve";
export const CHECK_ACTION_REJECT = "reject";

/**
 * The buttons of a review waiting for a person: Approve and Reject, decided by the same rules as
 * the Slack card's (only a configured approver, never the author). None once it is decided, or
 * while it runs: an update with an empty list takes them away.
 */
export const DECISION_ACTIONS: readonly CheckAction[] = [
  { label: "Approve", description: "Approve as a configured approver", identifier: CHECK_ACTION_APPROVE },
  { label: "Reject", description: "Reject as a configured approver", identifier: CHECK_ACTION_REJECT },
];

/** Everything a check run says, before it is split into requests of 50 annotations. */
export interface CheckRunPayload {
  name: typeof CHECK_NAME;
  head_sha: string;
  status: "in_progress" | "completed";
  conclusion?: CheckConclusion;
  details_url?: string;
  /** The review id, so a check run leads back to its review. */
  external_id: string;
  output: { title: string; summary: string };
  annotations: CheckAnnotation[];
  /** The buttons it offers: Approve and Reject while the review waits for a person, else none. */
  actions: CheckAction[];
}

/** The same verdict as a commit status (token mode: tokens cannot create check runs). */
export interface CommitStatusPayload {
  sha: string;
  state: "pending" | "success" | "failure" | "error";
  context: typeof CHECK_NAME;
  description: string;
  target_url?: string;
}

export interface VerdictOptions {
  headSha: string;
  detailsUrl?: string;
  /** Who the review waits for (a Slack channel, a team); "a reviewer" when unknown. */
  askedWho?: string;
  /** A decider's name (Slack display name, GitHub login) for their id; the id when unknown. */
  personName?: (id: string) => string | undefined;
}

/** A decider as the check run names them. */
function nameOf(by: string | undefined, opts: Omit<VerdictOptions, "headSha">): string {
  if (!by) return "a person";
  return opts.personName?.(by) ?? by;
}

/** What a review result says as a check: its status, its conclusion once completed, and its title. */
export interface CheckOutcome {
  status: CheckRunPayload["status"];
  conclusion?: CheckConclusion;
  title: string;
}

function shortSha(sha: string): string {
  return sha.slice(0, 7);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function blockingCount(result: ReviewResult): number {
  return result.findings.filter((f) => f.blocking).length;
}

/**
 * The verdict a review result stands for: the check run's, the commit status's, and `gate check`'s
 * exit code (0 only for `success`). One function, so they never disagree.
 *
 * @example checkOutcome(result, {}).conclusion // "action_required" while waiting for a person
 */
export function checkOutcome(result: ReviewResult, opts: Omit<VerdictOptions, "headSha">): CheckOutcome {
  if (result.status === "superseded") {
    const by = result.superseded_by?.startsWith("r-")
      ? "a re-run"
      : result.superseded_by
        ? shortSha(result.superseded_by)
        : "a newer commit";
    return { status: "completed", conclusion: "neutral", title: `Superseded by ${by}` };
  }
  if (result.status === "closed") {
    return { status: "completed", conclusion: "neutral", title: "Pull request closed: the review ended" };
  }
  if (result.status === "merged_unapproved" || result.route === "merged_unapproved") return mergedOutcome(result, opts);
  if (result.status === "queued" || result.status === "running") {
    return { status: "in_progress", title: result.status === "queued" ? "Review queued" : "Review running" };
  }
  const n = result.findings.length;
  switch (result.route) {
    case "human":
      if (result.emergency) return emergencyOutcome(result.emergency);
      return {
        status: "completed",
        conclusion: "action_required",
        title: result.approvals_needed?.length
          ? `Partly approved; still needed: ${result.approvals_needed.map((a) => (a.covers === "general" ? "an approver" : `a ${a.covers} approver`)).join(", ")}`
          : `Waiting for a person: ${opts.askedWho ?? "a reviewer"}`,
      };
    case "auto_approved":
      return { status: "completed", conclusion: "success", title: "Low risk: approved without review" };
    case "approved":
      return {
        status: "completed",
        conclusion: "success",
        title: n === 0 ? "Approved: no findings" : `Approved: ${n} non-blocking finding(s)`,
      };
    case "human_approved":
      return { status: "completed", conclusion: "success", title: decidedTitle(result, "approved", opts) };
    case "human_rejected":
      return { status: "completed", conclusion: "failure", title: decidedTitle(result, "rejected", opts) };
    case null:
      // A finished review with no route is an internal fault: fail closed.
      return { status: "completed", conclusion: "failure", title: "The review ended without a verdict" };
  }
}

/** A due time as the check run says it: "2026-03-03 10:15 UTC". */
export function dueText(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * A review waiting for a person on an emergency pass: the check passes, saying when the approval
 * is due, so the merge is not blocked; once overdue it asks for the person again (action_required).
 */
function emergencyOutcome(pass: NonNullable<ReviewResult["emergency"]>): CheckOutcome {
  if (pass.overdue)
    return {
      status: "completed",
      conclusion: "action_required",
      title: `Emergency overdue: approval was due by ${dueText(pass.due_at)}`,
    };
  return { status: "completed", conclusion: "success", title: `Emergency: approval due by ${dueText(pass.due_at)}` };
}

/**
 * A head merged without the gate's approval: a failure until a person approves it after the fact
 * (then a success that says so); marked as an incident, it stays a failure.
 */
function mergedOutcome(result: ReviewResult, opts: Omit<VerdictOptions, "headSha">): CheckOutcome {
  const by = result.merged ? ` by ${result.merged.by}` : "";
  const after = result.after_the_fact;
  if (after?.kind === "approve")
    return {
      status: "completed",
      conclusion: "success",
      title: `Merged without approval${by}; approved after the fact by ${nameOf(after.by, opts)}`,
    };
  if (after)
    return {
      status: "completed",
      conclusion: "failure",
      title: `Merged without approval${by}; marked as an incident by ${nameOf(after.by, opts)}`,
    };
  // An emergency merged while its approval was due: a pass until it is overdue.
  const pass = result.emergency;
  if (pass && !pass.overdue)
    return {
      status: "completed",
      conclusion: "success",
      title: `Emergency merged${by}: approval due by ${dueText(pass.due_at)}`,
    };
  if (pass)
    return {
      status: "completed",
      conclusion: "failure",
      title: `Emergency overdue: merged${by}, approval was due by ${dueText(pass.due_at)}`,
    };
  return { status: "completed", conclusion: "failure", title: `Merged without approval${by}` };
}

/** Table cells cannot hold pipes or line breaks. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function location(f: ResultFinding): string {
  if (!f.file) return "";
  return f.line !== undefined ? `\`${cell(f.file)}:${f.line}\`` : `\`${cell(f.file)}\``;
}

function findingsTable(findings: ResultFinding[]): string[] {
  if (findings.length === 0) return ["No findings."];
  return [
    "| Policy | Severity | Blocking | Location | Message |",
    "|---|---|---|---|---|",
    ...findings.map(
      (f) =>
        `| ${cell(f.policy)} | ${f.severity} | ${f.blocking ? "yes" : "no"} | ${location(f)} | ${cell(clip(f.message, 500))} |`,
    ),
  ];
}

/** "Approved by Dana", or for a decision carried from an earlier head, where it was made and why it still holds. */
function decidedTitle(
  result: ReviewResult,
  word: "approved" | "rejected",
  opts: Omit<VerdictOptions, "headSha">,
): string {
  const d = result.decision;
  const lead = `${word === "approved" ? "Approved" : "Rejected"} by ${nameOf(d?.by, opts)}`;
  if (!d?.carried_from) return lead;
  return `${lead} at ${shortSha(d.carried_from.head_sha)}, carried forward: no change to the ${word} findings`;
}

function summary(result: ReviewResult, title: string, opts: VerdictOptions): string {
  const lines: string[] = [`## ${title}`, ""];
  lines.push(`**PR:** ${result.pr} · **Review:** \`${result.review_id}\``);
  lines.push(`**Route:** ${result.route ?? "pending"} · **Status:** ${result.status}`);
  if (result.status === "waiting_for_human" && result.route === "human")
    lines.push(
      "",
      "An approver may decide with this check run's **Approve** or **Reject** (their GitHub login mapped to them by the gate), by the same rules as everywhere: never the PR's author.",
    );
  if (result.risk) {
    const reasons = result.risk.reasons.length > 0 ? `: ${result.risk.reasons.join("; ")}` : "";
    lines.push(`**Risk:** ${result.risk.score}/100 (${result.risk.class})${reasons}`);
  }
  lines.push("", `### Findings (${result.findings.length}, ${blockingCount(result)} blocking)`, "");
  lines.push(...findingsTable(result.findings));
  if (result.escalation) {
    lines.push("", "### Escalation", "", `**${result.escalation.reason}**: ${result.escalation.detail}`);
  }
  if (result.coverage) lines.push("", "### Coverage", "", ...coverageLines(result.coverage).map((l) => `- ${l}`));
  const b = result.budget;
  lines.push(
    "",
    "### Budget",
    "",
    `Cycles ${b.cycles_used}/${b.cycles_max} · tool calls ${b.tool_calls} · model calls ${b.model_calls} · ` +
      `tokens ${b.input_tokens} in / ${b.output_tokens} out · $${b.cost_usd.toFixed(4)}`,
  );
  const approvals = approvalLines(result, { person: (id) => nameOf(id, opts), date: (iso) => iso });
  if (approvals.length > 0) lines.push("", "### Approvals per specialty", "", ...approvals.map((l) => `- ${l}`));
  if (result.decision) {
    const d = result.decision;
    const note = d.note ? `: ${d.note}` : "";
    lines.push(
      "",
      "### Decision",
      "",
      `${d.kind === "approve" ? "Approved" : "Rejected"} by ${nameOf(d.by, opts)} at ${d.at}${note}`,
    );
    const from = d.carried_from;
    if (from)
      lines.push(
        "",
        `Carried forward from review \`${from.review_id}\` of \`${shortSha(from.head_sha)}\` (decided ${from.at}).`,
      );
  }
  const since = result.since_decision;
  if (since) {
    const decided = `${since.kind === "approve" ? "approval" : "rejection"} by ${nameOf(since.by, opts)} at \`${shortSha(since.head_sha)}\``;
    lines.push("", `### Changed since the ${decided}`, "", ...since.changes.map((c) => `- ${c}`));
  }
  const text = lines.join("\n");
  if (text.length <= SUMMARY_LIMIT) return text;
  const tail = "\n\n…(truncated: the full result is in `gate status`)";
  return text.slice(0, SUMMARY_LIMIT - tail.length) + tail;
}

/**
 * The annotations of a result: one per finding with a file and line, blocking ones as failures;
 * then one per file the detectors could not read (a failure, or a warning where the configuration
 * accepts it), at the overlong line where that is why.
 *
 * @example annotationsFor(result.findings)[0]?.annotation_level // "failure"
 */
export function annotationsFor(findings: ResultFinding[], coverage: ResultCoverage | null = null): CheckAnnotation[] {
  const unread = (coverage?.unread ?? []).map((u): CheckAnnotation => {
    const line = u.line ?? 1;
    return {
      path: u.file,
      start_line: line,
      end_line: line,
      annotation_level: u.accepted === undefined ? "failure" : "warning",
      title: clip(`Not read by the detectors (${u.reason.replace(/_/g, " ")})`, 255),
      message: clip(u.accepted === undefined ? u.detail : `${u.detail}; accepted: ${u.accepted}`, 60_000),
    };
  });
  return [...findingAnnotations(findings), ...unread];
}

function findingAnnotations(findings: ResultFinding[]): CheckAnnotation[] {
  return findings
    .filter((f): f is ResultFinding & { file: string; line: number } => f.file !== undefined && f.line !== undefined)
    .map((f) => ({
      path: f.file,
      start_line: f.line,
      end_line: f.line,
      annotation_level: f.blocking ? "failure" : "warning",
      title: clip(`${f.policy} (${f.severity}${f.blocking ? ", blocking" : ""})`, 255),
      message: clip(f.message, 60_000),
      // The fingerprint a carried decision is matched by (docs/fingerprints.md).
      ...(f.fingerprint ? { raw_details: `fingerprint: ${f.fingerprint}` } : {}),
    }));
}

/**
 * Splits annotations into GitHub-sized batches (50 per request).
 *
 * @example annotationBatches(list120).map((b) => b.length) // [50, 50, 20]
 */
export function annotationBatches<T>(items: T[], size = ANNOTATIONS_PER_REQUEST): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The check run a review result stands for (pure).
 *
 * @example buildCheckRun(result, { headSha }).conclusion // "action_required" while waiting for a person
 */
export function buildCheckRun(result: ReviewResult, opts: VerdictOptions): CheckRunPayload {
  const o = checkOutcome(result, opts);
  const title = clip(o.title, TITLE_LIMIT);
  return {
    name: CHECK_NAME,
    head_sha: opts.headSha,
    status: o.status,
    ...(o.conclusion ? { conclusion: o.conclusion } : {}),
    ...(opts.detailsUrl ? { details_url: opts.detailsUrl } : {}),
    external_id: result.review_id,
    output: { title, summary: summary(result, title, opts) },
    annotations: annotationsFor(result.findings, result.coverage),
    actions: decisionActions(result, o),
  };
}

/** Approve and Reject while the review waits for a person at the gate (partly approved too); else none. */
function decisionActions(result: ReviewResult, outcome: CheckOutcome): CheckAction[] {
  const waiting =
    result.status === "waiting_for_human" && result.route === "human" && outcome.conclusion === "action_required";
  return waiting ? DECISION_ACTIONS.map((a) => ({ ...a })) : [];
}

const STATE_FOR: Record<CheckConclusion, CommitStatusPayload["state"]> = {
  success: "success",
  failure: "failure",
  // Waiting for a person is not a pass: pending keeps a required status from merging.
  action_required: "pending",
  // An old head's review: it no longer speaks for the PR (GitHub reads the new head's status).
  neutral: "error",
};

/**
 * The commit status equivalent of `buildCheckRun`, for token mode.
 *
 * @example buildCommitStatus(result, { headSha }).state // "pending" while waiting for a person
 */
export function buildCommitStatus(result: ReviewResult, opts: VerdictOptions): CommitStatusPayload {
  const o = checkOutcome(result, opts);
  const state = o.status === "in_progress" || !o.conclusion ? "pending" : STATE_FOR[o.conclusion];
  const blocking = blockingCount(result);
  const detail = result.findings.length > 0 ? ` (${result.findings.length} findings, ${blocking} blocking)` : "";
  return {
    sha: opts.headSha,
    state,
    context: CHECK_NAME,
    description: clip(`${o.title}${detail}`, STATUS_DESCRIPTION_LIMIT),
    ...(opts.detailsUrl ? { target_url: opts.detailsUrl } : {}),
  };
}
