import type { PriorDecision } from "../domain/carry.js";
import {
  type ApproverConfig,
  type AttemptKind,
  type CurrentGroups,
  type DecisionDoor,
  type Refusal,
  refusalMessage,
} from "../domain/decision.js";
import { approversWith } from "../gate-file/approvers-with.js";
import type { EffectiveConfig } from "../gate-file/effective.js";
import { SPECIALTIES, type Specialty } from "../domain/finding.js";
import type {
  AfterTheFact,
  Approval,
  ApprovalNeed,
  MergedPastGate,
  PushedPastGate,
  ReviewResult,
  ReviewStatus,
  SinceDecision,
} from "../domain/review-result.js";
import type { ResumeValue, ReviewRecord } from "../domain/review.js";
import type { ReviewSource } from "../domain/review-source.js";
import { budgetOf } from "../graph/budget.js";
import type { ReviewGraph } from "../graph/build-review-graph.js";
import type { ConfigShelf } from "../graph/review-config.js";
import type { ReviewStateValue } from "../graph/state.js";
import type { ReviewStore } from "../domain/review-store.js";
import { buildResult } from "./build-result.js";
import { changesSince } from "./carry-changes.js";
import { type DecisionRequest, decisionRefusal, describeNeed } from "./decision-policy.js";
import { receiveDecision } from "./decision-record.js";
import { emergencyOf } from "./emergency-pass.js";
import { givenApprovals } from "./partial-approval.js";
import { neededApprovals, newCoverage, stillNeeded } from "./specialty-approvals.js";

/** What the runner reads about a review: its record and its graph's checkpointed state. */
export interface ContextDeps {
  graph: ReviewGraph;
  store: ReviewStore;
  cyclesMax: number;
  /** Where reviews' configurations are kept (the gate's one shelf, with its memory of them). */
  configs: ConfigShelf;
  /** The gate's approver lists (a review's own configuration may add to them): an earlier decision carries only if its maker still may. */
  approvers?: ApproverConfig;
  /** Slack's answer to which approver groups a person is in now (the server's, once Slack is wired); none without it. */
  currentGroups?: CurrentGroups;
}

type StateSnapshot = Awaited<ReturnType<ReviewGraph["getState"]>>;

/** Whether a review's graph is paused at the human gate's interrupt. */
function hasPendingGate(state: StateSnapshot): boolean {
  return state.tasks.some((t) => (t.interrupts ?? []).length > 0);
}

/**
 * One review as a run or a decision works on it: its record and its graph's state, read once
 * and carried, written through as the work goes, and read again only where someone else may
 * have changed it (the graph after it ran; the record when a push superseded it meanwhile).
 *
 * @example const ctx = await ReviewContext.load(deps, reviewId); if (ctx) await ctx.result();
 */
export class ReviewContext {
  private constructor(
    private readonly deps: ContextDeps,
    private record: ReviewRecord,
    private state: StateSnapshot,
  ) {}

  /** Reads a review's record and its graph's state; undefined when there is no such review. */
  static async load(deps: ContextDeps, reviewId: string): Promise<ReviewContext | undefined> {
    const record = await deps.store.get(reviewId);
    if (!record) return undefined;
    return new ReviewContext(deps, record, await deps.graph.getState(threadOf(reviewId)));
  }

  get id(): string {
    return this.record.id;
  }

  get review(): ReviewRecord {
    return this.record;
  }

  /** The graph's checkpointed values (empty before the first run). */
  get values(): Partial<ReviewStateValue> {
    return this.state.values as Partial<ReviewStateValue>;
  }

  /** Whether the graph has run at least one step. */
  get started(): boolean {
    return Object.keys(this.values).length > 0;
  }

  /** Whether the graph waits at the human gate (a review that failed closed never reached it). */
  get gatePending(): boolean {
    return hasPendingGate(this.state);
  }

  /**
   * Whether the graph stopped between two saved steps with steps still to run, none failed and
   * none waiting for a person: its process died mid-run (e.g. after the human gate took a decision
   * and before the verdict named the route). Running it on with no input finishes it.
   */
  get stoppedMidway(): boolean {
    return !this.gatePending && this.state.next.length > 0 && !this.state.tasks.some((t) => t.error !== undefined);
  }

  /** Where the review's pull request comes from (read when the graph first starts). */
  source(): Promise<ReviewSource | undefined> {
    return this.deps.store.source(this.id);
  }

  /** The graph's state again, after the graph ran. */
  async reloadState(): Promise<void> {
    this.state = await this.deps.graph.getState(threadOf(this.id));
  }

  /** The record and the graph's state again (someone else changed the record). */
  async reload(): Promise<void> {
    this.record = (await this.deps.store.get(this.id)) ?? this.record;
    await this.reloadState();
  }

  /** Moves the review to running from the status this context read; false when it changed since (settled elsewhere). */
  async claimRunning(): Promise<boolean> {
    if (!(await this.deps.store.claim(this.id, this.record.status, "running"))) return false;
    this.record = { ...this.record, status: "running" };
    return true;
  }

  /**
   * Sets where the review stands after its graph stopped, unless a push superseded it meanwhile
   * (its successor decides the PR); then the record is read again, to show it superseded.
   */
  async settleStatus(status: ReviewStatus): Promise<void> {
    if (await this.deps.store.setStatusUnlessSuperseded(this.id, status)) {
      this.record = { ...this.record, status };
      return;
    }
    this.record = (await this.deps.store.get(this.id)) ?? this.record;
  }

  /** Marks the review superseded by a head; `tx` when it is part of a larger transaction. */
  async supersede(bySha: string, tx: ReviewStore = this.deps.store): Promise<void> {
    await tx.supersede(this.id, bySha);
    this.record = { ...this.record, status: "superseded", supersededBy: bySha };
  }

  /**
   * Takes a person's decision durably (see `receiveDecision`): moves waiting → running if no one
   * else did first (the cross-process lock of a decision) and stores the decision; `tx` when it
   * is part of a larger transaction.
   */
  async receive(resume: ResumeValue, door: string, tx: ReviewStore = this.deps.store): Promise<boolean> {
    if (!(await receiveDecision(tx, this.id, resume, door))) return false;
    this.record = { ...this.record, status: "running" };
    return true;
  }

  /**
   * The PR's earlier decision while this review waits at the gate, with what changed since it
   * (`changesSince`, and whether the people it needed may still make it: the one decision policy,
   * as if they decided again now); no changes means it carries. Undefined without an earlier decision.
   */
  async sinceDecision(approvers: ApproverConfig): Promise<{ prior: PriorDecision; changes: string[] } | undefined> {
    const prior = this.values.since?.decision;
    if (!prior || this.values.decision || !this.gatePending) return undefined;
    const mode = (await this.deps.configs.of(this.values))?.decisions?.carryForward ?? "unchanged_findings";
    const changes = changesSince(prior, this.values, mode);
    changes.push(...(await this.deciderRefusals(prior, approvers)));
    return { prior, changes };
  }

  /**
   * Why the people an earlier decision needed may not make it on this review now, one line each
   * (empty when they may). A rejection: its maker, as their own click now. An approval: every
   * approval it needed (one, or one per blocking specialty's list), each judged in turn as that
   * approver's click now with today's approver lists and groups and the approvals before it; and
   * together they must give every approval this review needs today.
   */
  private async deciderRefusals(prior: PriorDecision, approvers: ApproverConfig): Promise<string[]> {
    const judge = async (by: string, given: readonly Approval[]) => {
      const groups = await this.groupsNow(by, prior, approvers);
      const door: DecisionDoor = { kind: prior.via?.kind ?? "cli", groups, fromReviewCard: true };
      const request = await this.decisionRequest({ kind: prior.kind, by }, door, approvers);
      // Judged as the person's own click on this review's card would be, now that it waits.
      const refusal = decisionRefusal({
        ...request,
        review: { ...request.review, status: "waiting_for_human" },
        ...(prior.kind === "approve" ? { approvals: given } : {}),
      });
      return { refusal, request, groups };
    };
    const refused = (by: string, refusal: Refusal) =>
      `${by} may not decide on it now: ${refusal.code === "not_allowed" ? refusal.why : refusalMessage(refusal)}`;
    if (prior.kind !== "approve") {
      const { refusal } = await judge(prior.by, []);
      return refusal ? [refused(prior.by, refusal)] : [];
    }
    const approvals = prior.approvals && prior.approvals.length > 0 ? prior.approvals : [{ by: prior.by }];
    const out: string[] = [];
    const given: Approval[] = [];
    let needs: ApprovalNeed[] = [];
    for (const a of approvals) {
      const { refusal, request, groups } = await judge(a.by, given);
      needs = neededApprovals(request.approvers, request.blockingSpecialties);
      if (refusal) out.push(refused(a.by, refusal));
      else given.push({ by: a.by, at: "", covers: newCoverage(needs, a.by, groups, given) });
    }
    // No approver configured (the CLI's --by decides): nothing to cover.
    if (out.length > 0 || needs.every((n) => n.ids.length === 0)) return out;
    const open = stillNeeded(needs, given);
    if (open.length > 0)
      out.push(
        `the approvals it had do not give what it needs now: it still waits for ${open.map(describeNeed).join(" and ")}`,
      );
    return out;
  }

  /**
   * The approver groups a person is in now, as Slack says (a membership is never taken from the
   * earlier decision: the person may have left the group since). Where nothing can ask Slack,
   * none: a decision that only a group allowed does not carry. The maker of a decision taken at
   * the CLI keeps the groups that door gave (GitHub's door read them from Slack: read again).
   */
  private async groupsNow(by: string, prior: PriorDecision, approvers: ApproverConfig): Promise<readonly string[]> {
    if ((prior.via?.kind ?? "cli") === "cli" && by === prior.by) return prior.via?.groups ?? [];
    const current = this.deps.currentGroups;
    return current ? current(by, approversWith(approvers, await this.configApprovers())) : [];
  }

  /** The review result as it stands. */
  async result(): Promise<ReviewResult> {
    const since = await this.sinceDecision(this.deps.approvers ?? { approvers: [] });
    const built = {
      ...buildResult(this.record, this.values, this.record.status, this.deps.cyclesMax),
      ...(since && since.changes.length > 0 ? { since_decision: sinceView(since.prior, since.changes) } : {}),
    };
    const merged = this.record.status === "merged_unapproved";
    // A review that failed closed keeps the escalation it was given (the graph never reached the gate).
    const saved =
      built.escalation === null && (built.route === "human" || merged)
        ? await this.deps.store.lastResult(this.id)
        : undefined;
    const escalated = saved?.escalation ? { ...built, escalation: saved.escalation } : built;
    // An emergency pass is in the audit log (docs/operations.md, "Emergency changes"); a pull request's only.
    const emergency =
      this.record.source === "github" ? emergencyOf(await this.deps.store.auditFor(this.id)) : undefined;
    const kept = emergency ? { ...escalated, emergency } : escalated;
    if (!merged) return this.withApprovals(kept);
    const past = await this.mergedPastGate();
    return {
      ...kept,
      route: "merged_unapproved",
      ...(past.merged ? { merged: past.merged } : {}),
      ...(past.pushed ? { pushed: past.pushed } : {}),
      ...(past.afterTheFact ? { after_the_fact: past.afterTheFact } : {}),
    };
  }

  /**
   * A review merged without approval, as the audit log holds it (its one record of the merge):
   * who merged it and when, and the decision recorded after the fact, if any.
   */
  async mergedPastGate(): Promise<{ merged?: MergedPastGate; afterTheFact?: AfterTheFact; pushed?: PushedPastGate }> {
    if (this.record.status !== "merged_unapproved") return {};
    const entries = await this.deps.store.auditFor(this.id);
    // A pull request's merge, or a push with none (who pushed is "merged_by" then).
    const merge = entries.find(
      (e) => (e.action === "merge" || e.action === "push") && e.outcome === "merged_unapproved",
    );
    const applied = entries.find(
      (e) => (e.action === "approve_after_merge" || e.action === "incident") && e.outcome === "applied",
    );
    const text = (v: unknown): string => (typeof v === "string" ? v : "");
    const merged: MergedPastGate | undefined = merge
      ? {
          by: text(merge.detail.merged_by ?? merge.detail.pushed_by),
          at: text(merge.detail.merged_at ?? merge.detail.pushed_at) || merge.at,
          was: {
            status: text(merge.detail.status) as ReviewStatus,
            route: (text(merge.detail.route) || null) as MergedPastGate["was"]["route"],
          },
        }
      : undefined;
    const note = applied ? text(applied.detail.note) : "";
    const afterTheFact: AfterTheFact | undefined = applied
      ? {
          kind: applied.action === "incident" ? "incident" : "approve",
          by: applied.actor,
          at: text(applied.detail.at) || applied.at,
          ...(note ? { note } : {}),
        }
      : undefined;
    const pushed = merge?.action === "push" ? pushedOf(merge.detail) : undefined;
    return {
      ...(merged ? { merged } : {}),
      ...(afterTheFact ? { afterTheFact } : {}),
      ...(pushed ? { pushed } : {}),
    };
  }

  /** Approvals per specialty: every one once decided; while waiting, those given so far and what is still needed, from whom. */
  private async withApprovals(result: ReviewResult): Promise<ReviewResult> {
    if (result.decision?.approvals) return { ...result, approvals: result.decision.approvals };
    if (this.record.status !== "waiting_for_human") return result;
    const given = await givenApprovals(this.deps.store, this.id);
    if (given.length === 0) return result;
    const approvers = approversWith(this.deps.approvers ?? { approvers: [] }, await this.configApprovers());
    const needs = neededApprovals(approvers, this.blockingSpecialties());
    return { ...result, approvals: given, approvals_needed: stillNeeded(needs, given) };
  }

  /** The specialties with a blocking finding. */
  private blockingSpecialties(): Specialty[] {
    return SPECIALTIES.flatMap((s) => this.values.findings?.[s]?.findings ?? [])
      .filter((f) => f.blocking)
      .map((f) => f.specialty);
  }

  /** The approvers the review's own configuration names (a repository's file), if any. */
  private async configApprovers(): Promise<EffectiveConfig["approvers"] | undefined> {
    return (await this.deps.configs.of(this.values))?.approvers;
  }

  /** What the decision policy needs to judge this person's attempt on this review now. */
  async decisionRequest(
    attempt: { kind: AttemptKind; by: string },
    door: DecisionDoor,
    approvers: ApproverConfig,
  ): Promise<DecisionRequest> {
    const values = this.values;
    const { afterTheFact } = await this.mergedPastGate();
    return {
      kind: attempt.kind,
      by: attempt.by,
      door,
      review: this.record,
      ...(values.decision ? { decision: values.decision } : {}),
      ...(afterTheFact ? { afterTheFact } : {}),
      blockingSpecialties: this.blockingSpecialties(),
      ...(this.record.status === "waiting_for_human"
        ? { approvals: await givenApprovals(this.deps.store, this.id) }
        : {}),
      budget: budgetOf(values, this.deps.cyclesMax),
      gatePending: this.gatePending,
      // The review's configuration (a repository's file) may name its own approvers.
      approvers: approversWith(approvers, await this.configApprovers()),
    };
  }
}

/** The earlier decision as a waiting review's result shows it. */
function sinceView(prior: PriorDecision, changes: string[]): SinceDecision {
  return {
    kind: prior.kind,
    by: prior.by,
    at: prior.origin.at,
    head_sha: prior.origin.head_sha,
    review_id: prior.origin.review_id,
    changes,
  };
}

/** A push's record of what reached the branch without review, as its audit entry holds it. */
function pushedOf(detail: Record<string, unknown>): PushedPastGate {
  const text = (v: unknown): string => (typeof v === "string" ? v : "");
  return {
    branch: text(detail.branch),
    before: text(detail.before),
    after: text(detail.after),
    forced: detail.forced === true,
    commits: Array.isArray(detail.commits) ? detail.commits.map(text) : [],
  };
}

/** The LangGraph config of a review's thread. */
export function threadOf(reviewId: string) {
  return { configurable: { thread_id: reviewId } };
}
