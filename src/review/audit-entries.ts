import type { PriorDecision } from "../domain/carry.js";
import type { AfterMergeKind, AttemptKind, DecisionDoor, Refusal } from "../domain/decision.js";
import type { Finding } from "../domain/finding.js";
import type { ResumeValue } from "../domain/review.js";
import type { PushedChange, PushTriage } from "../domain/pushed-change.js";
import type {
  AfterTheFact,
  Approval,
  Coverage,
  EmergencyPass,
  MergedPastGate,
  PushedPastGate,
} from "../domain/review-result.js";
import type { AuditInput } from "../domain/review-store.js";

/**
 * What the audit log says of each step of a review, in one place: the runner's use cases write
 * these, the store only appends them (the same words on SQLite and on PostgreSQL).
 *
 * @example await tx.audit(audits.registered("r-1", sha));
 */
export const audits = {
  /** A review registered, queued. */
  registered: (reviewId: string, headSha: string): AuditInput => ({
    reviewId,
    actor: "gate",
    action: "register",
    outcome: "queued",
    detail: { headSha },
  }),
  /** The pull request moved to another base branch: this review starts over (no decision carries across it). */
  retargeted: (reviewId: string, headSha: string): AuditInput => ({
    reviewId,
    actor: "gate",
    action: "register",
    outcome: "base_changed",
    detail: { headSha },
  }),
  /** An exception of the configuration that cleared a finding (or expired), in a first run. */
  exception: (reviewId: string, f: Finding & { exception: NonNullable<Finding["exception"]> }): AuditInput => ({
    reviewId,
    actor: f.exception.granted_by,
    action: "exception",
    outcome: f.exception.status,
    detail: { ...f.exception, ...(f.file ? { file: f.file } : {}), ...(f.line ? { line: f.line } : {}) },
  }),
  /** A refused decision: one shape for every door. */
  refused: (
    reviewId: string,
    attempt: { kind: AttemptKind; by: string },
    door: DecisionDoor,
    refusal: Refusal,
    message: string,
  ): AuditInput => ({
    reviewId,
    actor: attempt.by,
    action: attempt.kind,
    outcome: `refused:${refusal.code}`,
    detail: { door: door.kind, ...(door.login ? { login: door.login } : {}), message },
  }),
  /** A decision received through a door (not applied yet). */
  received: (reviewId: string, resume: ResumeValue, door: string): AuditInput => ({
    reviewId,
    actor: resume.by,
    action: resume.kind,
    outcome: "received",
    detail: { door, ...(resume.kind === "info" ? { question: resume.question } : { note: resume.note ?? "" }) },
  }),
  /** One approval of several a review needs (per specialty): stored, the review keeps waiting for the rest. */
  partialApproval: (
    reviewId: string,
    approval: Approval,
    door: string,
    stillNeeded: readonly Coverage[],
  ): AuditInput => ({
    reviewId,
    actor: approval.by,
    action: "approve",
    outcome: "partial",
    detail: {
      door,
      covers: approval.covers,
      still_needed: stillNeeded,
      ...(approval.note ? { note: approval.note } : {}),
    },
  }),
  /** A received decision applied, with what came of it. */
  applied: (reviewId: string, resume: ResumeValue, result: string): AuditInput => ({
    reviewId,
    actor: resume.by,
    action: resume.kind,
    outcome: "applied",
    detail: { result },
  }),
  superseded: (reviewId: string, by: string): AuditInput => ({
    reviewId,
    actor: "gate",
    action: "supersede",
    outcome: "superseded",
    detail: { by },
  }),
  closed: (reviewId: string, pr: string): AuditInput => ({
    reviewId,
    actor: "gate",
    action: "close",
    outcome: "closed",
    detail: { pr },
  }),
  /**
   * The PR was merged while this review had not approved it: who merged it (GitHub's
   * `merged_by.login`) and when (`merged_at`), and where the review stood.
   */
  mergedUnapproved: (reviewId: string, pr: string, merged: MergedPastGate): AuditInput => ({
    reviewId,
    actor: `github:${merged.by}`,
    action: "merge",
    outcome: "merged_unapproved",
    detail: { pr, merged_by: merged.by, merged_at: merged.at, status: merged.was.status, route: merged.was.route },
  }),
  /**
   * An emergency pass granted: the PR carries the emergency label, so its check passes while its
   * review waits for a person, whose approval is due by `due_at`. `by`: who labelled it, when known.
   */
  emergencyGranted: (reviewId: string, pr: string, pass: Omit<EmergencyPass, "overdue">, by?: string): AuditInput => ({
    reviewId,
    actor: by ? `github:${by}` : "gate",
    action: "emergency",
    outcome: "granted",
    detail: { pr, label: pass.label, since: pass.since, due_at: pass.due_at, ...(by ? { labeled_by: by } : {}) },
  }),
  /** The emergency label added while the review still ran: its pass is granted if it goes to a person. */
  emergencyLabeled: (reviewId: string, pr: string, label: string, by?: string): AuditInput => ({
    reviewId,
    actor: by ? `github:${by}` : "gate",
    action: "emergency",
    outcome: "labeled",
    detail: { pr, label, ...(by ? { labeled_by: by } : {}) },
  }),
  /** An emergency not approved by its due time: marked overdue, once. */
  emergencyOverdue: (reviewId: string, pr: string, dueAt: string, at: string): AuditInput => ({
    reviewId,
    actor: "gate",
    action: "emergency",
    outcome: "overdue",
    detail: { pr, due_at: dueAt, at },
  }),
  /**
   * A push to a watched branch with commits that came through no merged pull request: who pushed,
   * when, where, whether it rewrote the branch (`forced`, outcome "forced"), which commits are
   * reviewed after the fact and which came through a pull request.
   */
  pushReceived: (reviewId: string, push: PushedChange, triage: PushTriage): AuditInput => ({
    reviewId,
    actor: `github:${push.pusher}`,
    action: "push",
    outcome: push.forced ? "forced" : "pushed",
    detail: {
      branch: push.branch,
      before: push.before,
      after: push.after,
      forced: push.forced,
      pushed_by: push.pusher,
      pushed_at: push.at,
      commits: triage.unreviewed.map((c) => c.sha),
      via_pull_request: triage.viaPullRequest,
    },
  }),
  /**
   * A pushed change reviewed after the fact: it reached the branch without review (status and
   * route `merged_unapproved`, shown as "changed without review"), and where its review stood.
   */
  pushedUnreviewed: (reviewId: string, merged: MergedPastGate, pushed: PushedPastGate): AuditInput => ({
    reviewId,
    actor: `github:${merged.by}`,
    action: "push",
    outcome: "merged_unapproved",
    detail: {
      pushed_by: merged.by,
      pushed_at: merged.at,
      status: merged.was.status,
      route: merged.was.route,
      branch: pushed.branch,
      before: pushed.before,
      after: pushed.after,
      forced: pushed.forced,
      commits: pushed.commits,
    },
  }),
  /** A decision after the fact received through a door, as a decision at the gate is ("received"). */
  afterMergeReceived: (reviewId: string, kind: AfterMergeKind, after: AfterTheFact, door: string): AuditInput => ({
    reviewId,
    actor: after.by,
    action: kind,
    outcome: "received",
    detail: { door, note: after.note ?? "", after_the_fact: true },
  }),
  /** A decision after the fact applied ("applied"): what the review's result now records. */
  afterMergeApplied: (reviewId: string, kind: AfterMergeKind, after: AfterTheFact): AuditInput => ({
    reviewId,
    actor: after.by,
    action: kind,
    outcome: "applied",
    detail: {
      result: "merged_unapproved",
      after_the_fact: true,
      at: after.at,
      ...(after.note ? { note: after.note } : {}),
    },
  }),
  /** A re-run asked on the old review, by whom, and the fresh review's id. */
  rerun: (reviewId: string, by: string, freshId: string): AuditInput => ({
    reviewId,
    actor: by,
    action: "rerun",
    outcome: "registered",
    detail: { by: freshId },
  }),
  /** A re-run, or a Slack request seen before, refused (nothing started, nothing changed). */
  requestRefused: (
    reviewId: string,
    by: string,
    action: string,
    refusal: Refusal,
    detail: Record<string, unknown>,
  ): AuditInput => ({
    reviewId,
    actor: by,
    action,
    outcome: `refused:${refusal.code}`,
    detail,
  }),
  /** An earlier decision carried to a new head: who made it, and both heads (and where it was first made). */
  carriedForward: (reviewId: string, prior: PriorDecision, toHead: string): AuditInput => ({
    reviewId,
    actor: prior.by,
    action: prior.kind,
    outcome: "carried_forward",
    detail: {
      from_review: prior.review_id,
      from_head: prior.head_sha,
      to_head: toHead,
      origin_review: prior.origin.review_id,
      origin_head: prior.origin.head_sha,
    },
  }),
  runFailed: (reviewId: string, error: string): AuditInput => ({
    reviewId,
    actor: "gate",
    action: "run",
    outcome: "failed",
    detail: { error },
  }),
  handedOver: (reviewId: string, why: string): AuditInput => ({
    reviewId,
    actor: "gate",
    action: "run",
    outcome: "handed_over",
    detail: { why },
  }),
};
