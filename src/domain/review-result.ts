import type { Approval, Coverage } from "./approval.js";
import type { CarriedFrom, DecidedVia } from "./carry.js";
import type { CoverageView, UnreadEntry } from "./coverage.js";
import type { ExceptionRef, Finding, Severity, Specialty } from "./finding.js";
import type { InvestigationReport } from "./investigation.js";
import type { Risk } from "./risk.js";
import type { Usage } from "./usage.js";

export type { Approval, Coverage } from "./approval.js";

/**
 * Where a review ended, or where it waits (docs/fixtures.md). `merged_unapproved`: the PR was
 * merged while its review had not approved it (waiting, rejected, running or failed).
 */
export type Route = "auto_approved" | "approved" | "human" | "human_approved" | "human_rejected" | "merged_unapproved";

/**
 * A review's lifecycle state, as `gate status` reports it. `merged_unapproved`: the PR was merged
 * past the gate (docs/operations.md, "Merges past the gate"); only a decision after the fact is taken.
 */
export type ReviewStatus =
  | "queued"
  | "running"
  | "waiting_for_human"
  | "done"
  | "superseded"
  | "closed"
  | "merged_unapproved";

/** Why a review went to a person. */
export type EscalationReason =
  | "blocking_finding"
  | "timeout"
  | "specialist_error"
  | "budget_exhausted"
  | "disagreement"
  | "inconclusive"
  | "needs_more_context"
  | "not_fully_reviewed"
  | "not_inspected"
  | "intake_failed"
  | "lookup_failed";

export interface Escalation {
  reason: EscalationReason;
  detail: string;
}

/** A finding as the `--json` result prints it. */
export interface ResultFinding {
  specialty: Specialty;
  policy: string;
  severity: Severity;
  blocking: boolean;
  needs_more_context: boolean;
  file?: string;
  line?: number;
  message: string;
  /** Stable across line shifts and unrelated edits (docs/fingerprints.md); absent in reviews kept before it existed. */
  fingerprint?: string;
  /** The configuration's exception that cleared this finding, or that expired (README, Configuration). */
  exception?: ExceptionRef;
}

/** The review's budget: its investigation cycles and tool calls, and its model usage (`Usage`). */
export interface ResultBudget extends Usage {
  cycles_used: number;
  cycles_max: number;
  tool_calls: number;
}

export type ResultInvestigation = Pick<
  InvestigationReport,
  "status" | "question" | "answers" | "evidence" | "tool_calls" | "chars_read"
> & { reason: string };

/**
 * The coverage ledger as the result prints it: `complete` is false while any unread entry is not
 * accepted by the configuration. An unread file a model reviewer was given says so
 * (`read_by_model`): a model's reading never counts as a detector's.
 */
export interface ResultCoverage extends CoverageView {
  complete: boolean;
  unread: Array<UnreadEntry & { read_by_model: boolean }>;
}

/** One approval a review needs: for what, from which list (a specialty's, or the general approvers), who is on it. */
export interface ApprovalNeed {
  covers: Coverage;
  from: Coverage;
  ids: readonly string[];
}

/** A person's decision, once made. */
export interface Decision {
  kind: "approve" | "reject";
  by: string;
  at: string;
  note?: string;
  /** When several approvers were needed (per specialty): every approval, the deciding one last. */
  approvals?: Approval[];
  /** Set when the decision was carried forward from an earlier head (docs/fingerprints.md). */
  carried_from?: CarriedFrom;
  /** The door the person decided through (a carried decision is checked again as if made there). */
  via?: DecidedVia;
}

/** Who merged a pull request past the gate, and when (the `pull_request` `closed` event's `merged_by.login` and `merged_at`). */
export interface MergedPastGate {
  /** The GitHub login that merged it. */
  by: string;
  at: string;
  /** Where the review stood when the PR was merged: its status and route then. */
  was: { status: ReviewStatus; route: Route | null };
}

/**
 * Commits pushed straight to a watched branch with no merged pull request ("changed without
 * review"): where, which commits, and whether the push rewrote the branch. Who pushed and when are
 * `merged.by` and `merged.at`.
 */
export interface PushedPastGate {
  branch: string;
  before: string;
  after: string;
  /** A force-push: the branch's history was rewritten (`before` is no longer in it). */
  forced: boolean;
  /** The pushed commits that belong to no merged pull request, oldest first. */
  commits: string[];
}

/** A person's decision on a review whose PR was merged without approval, recorded after the fact. */
export interface AfterTheFact {
  /** `approve`: approved after the fact; `incident`: marked as an incident (with a note). */
  kind: "approve" | "incident";
  by: string;
  at: string;
  note?: string;
}

/**
 * An emergency change: its PR carries the emergency label, so its check passed while its review
 * waits for a person, who must approve it by `due_at`; `overdue` once that time passed without an
 * approval. The evidence reads it (src/review/evidence-row.ts); no part of the gate sets it yet.
 */
export interface EmergencyPass {
  label: string;
  /** When the emergency was granted (the review first waited with the label). */
  since: string;
  due_at: string;
  overdue: boolean;
}

/** The PR's earlier decision, and why it does not carry to this head (what changed since). */
export interface SinceDecision {
  kind: Decision["kind"];
  by: string;
  at: string;
  /** The head the person decided on. */
  head_sha: string;
  review_id: string;
  /** What changed since, one line each; empty when nothing did (the decision was carried). */
  changes: string[];
}

/**
 * The review result, exactly as `gate review --json` and `gate status --json` print it
 * (docs/fixtures.md). `decision` and `superseded_by` are present only when they apply.
 */
export interface ReviewResult {
  pr: string;
  route: Route | null;
  status: ReviewStatus;
  risk: Risk | null;
  findings: ResultFinding[];
  escalation: Escalation | null;
  budget: ResultBudget;
  investigations: ResultInvestigation[];
  /** What the detectors read and did not; null before the review's detect step ran. */
  coverage: ResultCoverage | null;
  review_id: string;
  decision?: Decision;
  superseded_by?: string;
  /**
   * Approvals given per specialty, when the review needs several approvers: while it waits, those
   * given so far; once decided, every one (as `decision.approvals`).
   */
  approvals?: Approval[];
  /** While it waits with approvals given: the needs still open, and who may meet each. */
  approvals_needed?: ApprovalNeed[];
  /** Waiting with an earlier decision on the PR that did not carry: what changed since it. */
  since_decision?: SinceDecision;
  /** The PR was merged while this review had not approved it (route and status `merged_unapproved`). */
  merged?: MergedPastGate;
  /** Commits pushed with no pull request (route and status `merged_unapproved`): docs/github-app.md. */
  pushed?: PushedPastGate;
  /** On a review merged without approval: the decision a person recorded after the fact. */
  after_the_fact?: AfterTheFact;
  /** An emergency change: its check passed on the label, with a person's approval due by `due_at`. */
  emergency?: EmergencyPass;
  /** With model specialists: which files they read at which head (unchanged files were read earlier). */
  reviewed_files?: Array<{ head_sha: string; files: string[] }>;
}

/** Strips the internal fields of a finding for the result. */
export function toResultFinding(f: Finding): ResultFinding {
  return {
    specialty: f.specialty,
    policy: f.policy,
    severity: f.severity,
    blocking: f.blocking,
    needs_more_context: f.needs_more_context,
    ...(f.file !== undefined ? { file: f.file } : {}),
    ...(f.line !== undefined ? { line: f.line } : {}),
    message: f.message,
    ...(f.fingerprint !== undefined ? { fingerprint: f.fingerprint } : {}),
    ...(f.exception !== undefined ? { exception: f.exception } : {}),
  };
}
