import { Command } from "@langchain/langgraph";
import {
  type AfterMergeKind,
  type AttemptKind,
  type DecisionDoor,
  type Refusal,
  refusalMessage,
  routeOfDecision,
} from "../domain/decision.js";
import { ResumeSchema } from "../domain/human-gate.js";
import type { AfterTheFact, ReviewResult } from "../domain/review-result.js";
import type { CheckOutcome, DecideOutcome, InvestigationProgress, Refused, ResumeValue } from "../domain/review.js";
import type { HeldJob } from "../domain/review-jobs.js";
import { audits } from "./audit-entries.js";
import { decisionRefusal } from "./decision-policy.js";
import { markDecisionApplied } from "./decision-record.js";
import { type ApprovalPlan, planApproval, receivePartial } from "./partial-approval.js";
import { type ReviewContext, threadOf } from "./review-context.js";
import type { ReviewWork } from "./review-work.js";

/** With one process (SQLite), a received decision is finished by `recover` after a crash: nothing to hold. */
const NOT_HELD: HeldJob = { release: async () => undefined, abandon: () => undefined };

type Attempt = { kind: AttemptKind; by: string };

/** A refusal as a door receives it: code, the one plain message, and the facts. */
function refused(refusal: Refusal): Refused {
  return { ok: false, code: refusal.code, message: refusalMessage(refusal), refusal };
}

/** What a door may hear while a decision is applied. */
export interface DecideOptions {
  door?: DecisionDoor;
  /** The door checked this attempt with `check` just before (see `ReviewService.decide`). */
  checked?: boolean;
  onProgress?: (p: InvestigationProgress) => void;
  onReceived?: () => Promise<void>;
  /** Asked just before the decision is stored: false when it is too late to take it (see `ReviewService.decide`). */
  take?: () => boolean;
}

/**
 * People's decisions on a review: whether one may be made now (the one decision policy, audited
 * when refused), and applying it exactly once (one of concurrent calls resumes the graph).
 *
 * @example const outcome = await decisions.decide("r-1", { kind: "approve", by: "U123" }, { door });
 */
export class ReviewDecisions {
  constructor(private readonly work: ReviewWork) {}

  /** Whether a person may make a decision now, by the one decision policy; a refusal is audited. */
  async check(reviewId: string, attempt: Attempt, door: DecisionDoor): Promise<CheckOutcome> {
    const ctx = await this.work.load(reviewId);
    if (!ctx) return this.refuse(reviewId, attempt, door, { code: "not_found", reviewId });
    const refusal = await this.refusal(ctx, attempt, door);
    if (refusal) return refusal;
    return { ok: true, review: ctx.review, result: await ctx.result() };
  }

  /** Applies a person's decision or question. Exactly one of concurrent calls resumes the graph. */
  async decide(reviewId: string, resume: ResumeValue, opts: DecideOptions = {}): Promise<DecideOutcome> {
    const parsed = ResumeSchema.safeParse(resume);
    // Only the runner carries a decision forward; no door may claim one was.
    if (!parsed.success || (parsed.data.kind !== "info" && parsed.data.carried)) return refused({ code: "invalid" });
    const door = opts.door ?? { kind: "cli" };
    // The door is kept with the decision: carried to a later head, it is checked again as if made there.
    const decided: ResumeValue =
      parsed.data.kind === "info"
        ? parsed.data
        : { ...parsed.data, via: { kind: door.kind, ...(door.groups?.length ? { groups: [...door.groups] } : {}) } };
    // One decision at a time per review in this process; a second waits, then sees the first's outcome.
    return this.work.lock.run(reviewId, () => this.decideNow(reviewId, decided, door, opts));
  }

  /**
   * Records a decision after the fact on a review whose PR was merged without approval (the one
   * decision policy: approver lists, never the author; refused and audited otherwise), audited as
   * a decision at the gate is ("received", then "applied", both marked after the fact), then
   * republished. One at a time per review; the second finds the first recorded and is refused.
   */
  async decideAfterMerge(
    reviewId: string,
    decision: { kind: AfterMergeKind; by: string; note?: string },
    opts: { door?: DecisionDoor } = {},
  ): Promise<DecideOutcome> {
    const door = opts.door ?? { kind: "cli" };
    return this.work.lock.run(reviewId, async () => {
      const ctx = await this.work.load(reviewId);
      if (!ctx) return this.refuse(reviewId, decision, door, { code: "not_found", reviewId });
      const refusal = await this.refusal(ctx, decision, door);
      if (refusal) return refusal;
      const note = decision.note?.trim();
      const after: AfterTheFact = {
        kind: decision.kind === "incident" ? "incident" : "approve",
        by: decision.by,
        at: this.work.deps.clock().toISOString(),
        ...(note ? { note } : {}),
      };
      await this.work.store.transaction(async (tx) => {
        await tx.audit(audits.afterMergeReceived(reviewId, decision.kind, after, door.kind));
        await tx.audit(audits.afterMergeApplied(reviewId, decision.kind, after));
      });
      const result = await ctx.result();
      await this.work.publishing.record(reviewId, result);
      return { ok: true, result };
    });
  }

  private async decideNow(
    reviewId: string,
    resume: ResumeValue,
    door: DecisionDoor,
    opts: DecideOptions,
  ): Promise<DecideOutcome> {
    const ctx = await this.work.load(reviewId);
    if (!ctx) return this.refuse(reviewId, resume, door, { code: "not_found", reviewId });
    const refusal = opts.checked ? undefined : await this.refusal(ctx, resume, door);
    if (refusal) return refusal;
    // The door's answer is due: a decision it can no longer wait for is not taken at all.
    if (opts.take && !opts.take()) return this.refuse(reviewId, resume, door, { code: "too_late", reviewId });
    // An approval of one specialty among several needed is stored; the review keeps waiting.
    if (resume.kind === "approve") {
      const at = this.work.deps.clock().toISOString();
      const plan = planApproval(await ctx.decisionRequest(resume, door, this.work.approvers), resume, at);
      if (plan.kind === "partial") return this.partial(ctx, resume, door, plan, opts);
      resume = plan.resume;
    }
    // Stored durably with the claim (the cross-process lock: only one process moves waiting →
    // running), before anyone is told it was taken; a crash after this is finished by `recover`
    // (SQLite) or by another replica taking the decision's job over (PostgreSQL).
    const held = await this.receive(ctx, resume, door);
    if (!held) {
      // Checked before the claim: say what changed since (decided meanwhile, superseded), else busy.
      const since = opts.checked ? await this.refusal(ctx, resume, door) : undefined;
      return since ?? this.refuse(reviewId, resume, door, { code: "busy", reviewId });
    }
    // Taken: whatever the door does on hearing it (answering Slack, looking a name up), the decision is applied.
    await opts.onReceived?.().catch((error: unknown) => {
      this.work.deps.log.warn({ err: error, reviewId }, "a door failed on hearing its decision was taken");
    });
    const stop = opts.onProgress ? this.work.deps.progress.listen(reviewId, opts.onProgress) : () => undefined;
    try {
      const result = await this.apply(ctx, resume);
      await markDecisionApplied(this.work.store, ctx.id, resume, result.route ?? result.status);
      await held.release();
      return { ok: true, result };
    } catch (error) {
      held.abandon();
      throw error;
    } finally {
      stop();
    }
  }

  /** Stores one approval of several, publishes the review as it now waits (who approved what, what is still needed). */
  private async partial(
    ctx: ReviewContext,
    resume: ResumeValue,
    door: DecisionDoor,
    plan: Extract<ApprovalPlan, { kind: "partial" }>,
    opts: DecideOptions,
  ): Promise<DecideOutcome> {
    if (!(await receivePartial(this.work.store, ctx.id, plan, door.kind)))
      return this.refuse(ctx.id, resume, door, { code: "busy", reviewId: ctx.id });
    await opts.onReceived?.().catch((error: unknown) => {
      this.work.deps.log.warn({ err: error, reviewId: ctx.id }, "a door failed on hearing its approval was taken");
    });
    const result = await ctx.result();
    await this.work.publishing.record(ctx.id, result);
    return { ok: true, result };
  }

  /** The decision policy's refusal of this attempt (audited), or undefined when it may go ahead. */
  private async refusal(ctx: ReviewContext, attempt: Attempt, door: DecisionDoor): Promise<Refused | undefined> {
    const refusal = decisionRefusal(await ctx.decisionRequest(attempt, door, this.work.approvers));
    return refusal ? this.refuse(ctx.id, attempt, door, refusal) : undefined;
  }

  /** Takes the decision (see `ReviewContext.receive`) and, with replicas, its job in the same transaction; undefined when busy. */
  private receive(ctx: ReviewContext, resume: ResumeValue, door: DecisionDoor): Promise<HeldJob | undefined> {
    return this.work.store.transaction(async (tx) => {
      if (!(await ctx.receive(resume, door.kind, tx))) return undefined;
      return this.work.deps.coordination?.hold({ kind: "decision", reviewId: ctx.id }, tx) ?? NOT_HELD;
    });
  }

  /** Records a refused decision in the audit log (one shape for every door) and says why. */
  private async refuse(reviewId: string, attempt: Attempt, door: DecisionDoor, refusal: Refusal): Promise<Refused> {
    const outcome = refused(refusal);
    await this.work.store.audit(audits.refused(reviewId, attempt, door, refusal, outcome.message));
    return outcome;
  }

  /** Resumes the gate with a decision or a question (or, for a review that failed closed, records the decision). */
  async apply(ctx: ReviewContext, resume: ResumeValue): Promise<ReviewResult> {
    if (ctx.gatePending) return this.work.invokeAndSettle(ctx, new Command({ resume }));
    if (resume.kind !== "info") {
      // A review that failed before reaching the gate: record the decision as the gate would have.
      const decision = {
        kind: resume.kind,
        by: resume.by,
        at: this.work.deps.clock().toISOString(),
        ...(resume.note ? { note: resume.note } : {}),
      };
      await this.work.deps.graph.updateState(
        threadOf(ctx.id),
        { decision, route: routeOfDecision(resume.kind) },
        "verdict",
      );
    }
    return this.work.settle(ctx);
  }
}
