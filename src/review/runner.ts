import type { Clock } from "../domain/clock.js";
import crypto from "node:crypto";
import { Command } from "@langchain/langgraph";
import type { Logger } from "pino";
import {
  refusalMessage,
  routeOfDecision,
  type ApproverConfig,
  type DecisionDoor,
  type Refusal,
} from "../domain/decision.js";
import { GateError } from "../domain/errors.js";
import { ResumeSchema } from "../domain/human-gate.js";
import type { ReviewResult } from "../domain/review-result.js";
import type {
  CheckOutcome,
  DecideOutcome,
  InvestigationProgress,
  Publisher,
  Refused,
  ResumeValue,
  ReviewRecord,
  ReviewService,
} from "../domain/review.js";
import type { ReviewGraph } from "../graph/build-review-graph.js";
import type { ReviewRegistration, ReviewStore } from "../domain/review-store.js";
import type { HeldJob, ReplicaCoordination } from "../domain/review-jobs.js";
import { decisionRefusal } from "./decision-policy.js";
import { type ConfigShelf, configShelf } from "../graph/review-config.js";
import { KeyedLock } from "./keyed-lock.js";
import { leftoverWork, RUN_AFTER_RESTART } from "./leftover-work.js";
import type { ProgressHub } from "./progress-hub.js";
import { ReviewPublishing } from "./publish.js";
import { ReviewContext, threadOf } from "./review-context.js";
import { supersedePlan } from "./supersede-order.js";

export type { ReviewRegistration };

export interface RunnerDeps {
  graph: ReviewGraph;
  store: ReviewStore;
  /** Where reviews' configurations are kept: the gate's shelf (one of the store's own by default). */
  configs?: ConfigShelf;
  progress: ProgressHub;
  /** The publishers for a review (GitHub check run for live PRs, Slack card when configured). */
  publishersFor(review: ReviewRecord): Publisher[];
  cyclesMax: number;
  /** GATE_MAX_COST_USD: model spend past which no investigation starts (undefined: no cap). */
  maxCostUsd?: number;
  log: Logger;
  /** When a decision was made. */
  clock: Clock;
  /** Who may decide (the decision policy's approver lists and login map); none by default. */
  approvers?: ApproverConfig;
  newId?: () => string;
  /** Called when a review reaches a final state (e.g. to remove its snapshot). */
  onSettled?(review: ReviewRecord): void | Promise<void>;
  /**
   * Several replicas on one database (PostgreSQL): a received decision is a job this process
   * holds (another replica finishes it if this one dies), a superseded review's queued runs are
   * dropped, and a review is published by one replica at a time.
   */
  coordination?: ReplicaCoordination;
}

/** With one process (SQLite), a received decision is finished by `recover` after a crash: nothing to hold. */
const NOT_HELD: HeldJob = { release: async () => undefined, abandon: () => undefined };

type Attempt = { kind: ResumeValue["kind"]; by: string };

/** A refusal as a door receives it: code, the one plain message, and the facts. */
function refused(refusal: Refusal): Refused {
  return { ok: false, code: refusal.code, message: refusalMessage(refusal), refusal };
}

/**
 * A new review id: `r-` and 12 random hex digits (48 bits), the first 12 of a random UUID. Node
 * draws UUIDs from a buffer of random bytes it refills in bulk; `randomBytes(6)` called into the
 * system's random source for every id (each webhook answer registers one).
 *
 * @example newReviewId() // "r-3f9c2a1b7d04"
 */
export function newReviewId(): string {
  const uuid = crypto.randomUUID();
  return `r-${uuid.slice(0, 8)}${uuid.slice(9, 13)}`;
}

/**
 * Runs reviews through the graph and has what the graph concluded published. Registers first (so
 * a queued review is visible), runs or decides one review at a time (one resume wins), and
 * carries each review's context through a run instead of reading it again after every step.
 * Publishing is `ReviewPublishing`'s; who may decide is `decisionRefusal`'s; which reviews a push
 * supersedes is `supersedePlan`'s.
 *
 * @example const review = await runner.register({ source, repo, number, headSha }); await runner.run(review.id);
 */
export class ReviewRunner implements ReviewService {
  /** One run or decision at a time per review, in this process. */
  private readonly lock = new KeyedLock();
  private readonly publishing: ReviewPublishing;
  readonly approvers: ApproverConfig;

  private readonly deps: RunnerDeps & { configs: ConfigShelf };

  constructor(deps: RunnerDeps) {
    this.deps = { ...deps, configs: deps.configs ?? configShelf(deps.store) };
    this.approvers = deps.approvers ?? { approvers: [] };
    this.publishing = new ReviewPublishing(deps);
  }

  /** Registers a review as queued, with its audit entry; `tx` when it is part of a larger transaction. */
  async register(input: ReviewRegistration, tx: ReviewStore = this.deps.store): Promise<ReviewRecord> {
    const id = (this.deps.newId ?? newReviewId)();
    const review = await tx.register({ id, pr: `${input.repo}#${input.number}`, ...input });
    await tx.audit({
      reviewId: id,
      actor: "gate",
      action: "register",
      outcome: "queued",
      detail: { headSha: input.headSha },
    });
    return review;
  }

  get(reviewId: string): Promise<ReviewRecord | undefined> {
    return this.deps.store.get(reviewId);
  }

  listWaiting(): Promise<ReviewRecord[]> {
    return this.deps.store.withStatus("waiting_for_human");
  }

  /**
   * Publishes a just-registered review as queued (a check run "in progress" at once), so a head
   * never shows an older state while its review waits in the queue. Failures are only logged.
   */
  async announce(reviewId: string): Promise<void> {
    try {
      const queued = await (await this.context(reviewId)).result();
      if (queued.status !== "queued") return;
      await this.publishing.record(reviewId, queued);
    } catch (error) {
      this.deps.log.warn({ err: error, reviewId }, "could not announce the review");
    }
  }

  /** Runs a registered review until it finishes or waits for a person. Never throws for a review's own failure. */
  async run(reviewId: string): Promise<ReviewResult> {
    return this.lock.run(reviewId, async () => {
      const ctx = await this.context(reviewId);
      if (ctx.review.status !== "queued" && ctx.review.status !== "running") return ctx.result();
      await ctx.setStatus("running");
      // Show the review as in progress (a check run "in progress") before the work starts.
      await this.publishing.record(reviewId, await ctx.result());
      const input = ctx.started
        ? null
        : {
            reviewId,
            source: await ctx.source(),
            cyclesMax: this.deps.cyclesMax,
            maxCostUsd: this.deps.maxCostUsd ?? null,
          };
      try {
        await this.invoke(reviewId, input);
      } catch (error) {
        return this.failClosed(ctx, error);
      }
      const result = await this.settle(ctx);
      if (input) await this.auditExceptions(ctx);
      return result;
    });
  }

  /** The audit log names every exception of the configuration that cleared a finding (or expired) in a first run. */
  private async auditExceptions(ctx: ReviewContext): Promise<void> {
    for (const f of ctx.values.detections ?? []) {
      if (!f.exception) continue;
      await this.deps.store.audit({
        reviewId: ctx.id,
        actor: f.exception.granted_by,
        action: "exception",
        outcome: f.exception.status,
        detail: { ...f.exception, ...(f.file ? { file: f.file } : {}), ...(f.line ? { line: f.line } : {}) },
      });
    }
  }

  /** Whether a person may make a decision now, by the one decision policy; a refusal is audited. */
  async check(reviewId: string, attempt: Attempt, door: DecisionDoor): Promise<CheckOutcome> {
    const ctx = await ReviewContext.load(this.deps, reviewId);
    if (!ctx) return this.refuse(reviewId, attempt, door, { code: "not_found", reviewId });
    const refusal = decisionRefusal(await ctx.decisionRequest(attempt, door, this.approvers));
    if (refusal) return this.refuse(reviewId, attempt, door, refusal);
    return { ok: true, review: ctx.review, result: await ctx.result() };
  }

  /** Applies a person's decision or question. Exactly one of concurrent calls resumes the graph. */
  async decide(
    reviewId: string,
    resume: ResumeValue,
    opts: {
      door?: DecisionDoor;
      onProgress?: (p: InvestigationProgress) => void;
      onReceived?: () => Promise<void>;
    } = {},
  ): Promise<DecideOutcome> {
    const parsed = ResumeSchema.safeParse(resume);
    if (!parsed.success) return refused({ code: "invalid" });
    // One decision at a time per review in this process; a second waits, then sees the first's outcome.
    return this.lock.run(reviewId, () => this.decideNow(reviewId, parsed.data, opts.door ?? { kind: "cli" }, opts));
  }

  private async decideNow(
    reviewId: string,
    resume: ResumeValue,
    door: DecisionDoor,
    opts: { onProgress?: (p: InvestigationProgress) => void; onReceived?: () => Promise<void> },
  ): Promise<DecideOutcome> {
    const ctx = await ReviewContext.load(this.deps, reviewId);
    if (!ctx) return this.refuse(reviewId, resume, door, { code: "not_found", reviewId });
    const refusal = decisionRefusal(await ctx.decisionRequest(resume, door, this.approvers));
    if (refusal) return this.refuse(reviewId, resume, door, refusal);
    // Stored durably with the claim (the cross-process lock: only one process moves waiting →
    // running), before anyone is told it was taken; a crash after this is finished by `recover`
    // (SQLite) or by another replica taking the decision's job over (PostgreSQL).
    const held = await this.receive(ctx, resume, door);
    if (!held) return this.refuse(reviewId, resume, door, { code: "busy", reviewId });
    await opts.onReceived?.();
    const stop = opts.onProgress ? this.deps.progress.listen(reviewId, opts.onProgress) : () => undefined;
    try {
      const result = await this.applyReceived(ctx, resume);
      await held.release();
      return { ok: true, result };
    } catch (error) {
      held.abandon();
      throw error;
    } finally {
      stop();
    }
  }

  /** Takes the decision (see `ReviewContext.receive`) and, with replicas, its job in the same transaction; undefined when busy. */
  private receive(ctx: ReviewContext, resume: ResumeValue, door: DecisionDoor): Promise<HeldJob | undefined> {
    return this.deps.store.transaction(async (tx) => {
      if (!(await ctx.receive(resume, door.kind, tx))) return undefined;
      return this.deps.coordination?.hold({ kind: "decision", reviewId: ctx.id }, tx) ?? NOT_HELD;
    });
  }

  /** Applies a received decision exactly once, and marks it applied (audit: "applied"). */
  private async applyReceived(ctx: ReviewContext, resume: ResumeValue): Promise<ReviewResult> {
    const result = await this.apply(ctx, resume);
    await this.deps.store.markDecisionApplied(ctx.id, resume, result.route ?? result.status);
    return result;
  }

  /** Records a refused decision in the audit log (one shape for every door) and says why. */
  private async refuse(reviewId: string, attempt: Attempt, door: DecisionDoor, refusal: Refusal): Promise<Refused> {
    const outcome = refused(refusal);
    await this.deps.store.audit({
      reviewId,
      actor: attempt.by,
      action: attempt.kind,
      outcome: `refused:${refusal.code}`,
      detail: { door: door.kind, message: outcome.message },
    });
    return outcome;
  }

  /** Resumes the gate with a decision or a question (or, for a review that failed closed, records the decision). */
  private async apply(ctx: ReviewContext, resume: ResumeValue): Promise<ReviewResult> {
    if (ctx.gatePending) {
      try {
        await this.invoke(ctx.id, new Command({ resume }));
      } catch (error) {
        return this.failClosed(ctx, error);
      }
    } else if (resume.kind !== "info") {
      // A review that failed before reaching the gate: record the decision as the gate would have.
      const decision = {
        kind: resume.kind,
        by: resume.by,
        at: this.deps.clock().toISOString(),
        ...(resume.note ? { note: resume.note } : {}),
      };
      await this.deps.graph.updateState(threadOf(ctx.id), { decision, route: routeOfDecision(resume.kind) }, "verdict");
    }
    return this.settle(ctx);
  }

  /** The current result of a review id or of the newest review of `owner/repo#n`. */
  async status(ref: string): Promise<ReviewResult | undefined> {
    const review = (await this.deps.store.get(ref)) ?? (await this.deps.store.latestForPr(ref));
    return review ? this.result(review.id) : undefined;
  }

  /** Builds the result from the graph's checkpointed state and the review's record. */
  async result(reviewId: string): Promise<ReviewResult> {
    return (await this.context(reviewId)).result();
  }

  /**
   * Marks a PR's older open reviews superseded by a new head and republishes them (their check
   * runs close as neutral, their cards say so); `supersedePlan` says which, and by which head.
   * Returns the superseded reviews.
   */
  async supersedeOlder(pr: string, newHeadSha: string, newId?: string): Promise<ReviewRecord[]> {
    const superseded: ReviewRecord[] = [];
    for (const step of supersedePlan(await this.deps.store.openForPr(pr), newHeadSha, newId)) {
      superseded.push(await this.supersede(step.id, step.bySha));
    }
    return superseded;
  }

  /** Marks one review superseded by a head SHA, records it, republishes it and frees its snapshot. */
  private async supersede(reviewId: string, bySha: string): Promise<ReviewRecord> {
    const ctx = await this.context(reviewId);
    await this.deps.store.transaction(async (tx) => {
      await ctx.supersede(bySha, tx);
      // With replicas, its queued runs go with it (a run another replica holds finishes, and stays superseded).
      await this.deps.coordination?.dropQueued(reviewId, tx);
      await tx.audit({ reviewId, actor: "gate", action: "supersede", outcome: "superseded", detail: { by: bySha } });
    });
    await this.publishing.record(reviewId, await ctx.result());
    await this.deps.onSettled?.(ctx.review);
    return ctx.review;
  }

  /**
   * Ends every unfinished review of a PR that was closed (or merged): no decision, the review
   * stops gating (its check run closes as neutral, its card says so, clicks are refused), its
   * snapshot is freed. Returns the reviews ended.
   *
   * @example await runner.closePr("acme/web#12");
   */
  async closePr(pr: string): Promise<ReviewRecord[]> {
    const ended: ReviewRecord[] = [];
    for (const open of await this.deps.store.openForPr(pr)) {
      const ctx = await this.context(open.id);
      await this.deps.store.transaction(async (tx) => {
        await tx.close(open.id);
        await tx.audit({ reviewId: open.id, actor: "gate", action: "close", outcome: "closed", detail: { pr } });
      });
      await ctx.reload();
      await this.publishing.record(open.id, await ctx.result());
      await this.deps.onSettled?.(ctx.review);
      ended.push(ctx.review);
    }
    return ended;
  }

  /**
   * Registers a fresh review of the same head as `reviewId` (a re-run asked from GitHub's
   * "Re-run" or from Slack), audited on the old review with who asked; `tx` when it is part of a
   * larger transaction. The caller queues the new review and supersedes the PR's earlier reviews
   * with `supersedeForRerun`.
   *
   * @example const fresh = await runner.registerRerun("r-1", "U123");
   */
  async registerRerun(reviewId: string, by: string, tx: ReviewStore = this.deps.store): Promise<ReviewRecord> {
    const old = await tx.get(reviewId);
    const source = await tx.source(reviewId);
    if (!old || !source) throw new GateError("REVIEW_NOT_FOUND", `no review ${reviewId}`);
    const fresh = await this.register(
      {
        source,
        repo: old.repo,
        number: old.number,
        headSha: old.headSha,
        title: old.title,
        url: old.url,
        author: old.author,
        ...(old.installationId !== undefined ? { installationId: old.installationId } : {}),
      },
      tx,
    );
    await tx.audit({
      reviewId,
      actor: by,
      action: "rerun",
      outcome: "registered",
      detail: { by: fresh.id },
    });
    return fresh;
  }

  /**
   * Supersedes every earlier review of a re-run's PR that still stands (open, or finished on the
   * same head): their check runs close as neutral and their cards point at the new one.
   */
  async supersedeForRerun(fresh: ReviewRecord): Promise<void> {
    for (const r of await this.deps.store.allForPr(fresh.pr)) {
      if (r.id === fresh.id || r.status === "superseded" || r.status === "closed") continue;
      if (r.status === "done" && r.headSha !== fresh.headSha) continue;
      await this.supersede(r.id, fresh.id);
    }
  }

  /**
   * After a restart (one process on the database): finishes what it left undone (`leftoverWork`),
   * in order: decisions received and not applied, once each; every review that was queued or
   * running, run again; every review whose saved result was not published, published. Reviews
   * waiting for a person keep waiting; settled ones are not read.
   */
  async recover(): Promise<{ resumed: number; republished: number; applied: number }> {
    const done = { resumed: 0, republished: 0, applied: 0 };
    for await (const job of leftoverWork(this.deps.store, RUN_AFTER_RESTART)) {
      if (job.kind === "decision") done.applied += await this.finishReceived(job.reviewId);
      else if (job.kind === "review") {
        await this.run(job.reviewId);
        done.resumed++;
      } else {
        await this.publishing.publish(job.reviewId);
        done.republished++;
      }
    }
    return done;
  }

  /**
   * Finishes a review's received decisions that are not applied yet (after a restart, or a
   * decision job another process took over); returns how many it finished.
   */
  async finishReceived(reviewId: string): Promise<number> {
    const decisions = await this.deps.store.pendingDecisions(reviewId);
    for (const d of decisions) await this.lock.run(reviewId, () => this.finishDecision(reviewId, d.resume));
    return decisions.length;
  }

  /**
   * Finishes a decision that was received before a crash: resumes the gate with it if the graph
   * still waits there, or, if the resume had already run, runs on what the crash left unrun (the
   * verdict) and records and publishes the outcome.
   */
  private async finishDecision(reviewId: string, resume: ResumeValue): Promise<void> {
    const ctx = await ReviewContext.load(this.deps, reviewId);
    if (!ctx) return;
    if (ctx.review.status === "superseded") {
      await this.deps.store.markDecisionApplied(reviewId, resume, "superseded");
      return;
    }
    try {
      // Not applied yet if the gate still waits, or (a review that failed closed) no decision is recorded.
      const applied = !ctx.gatePending && (resume.kind === "info" || ctx.values.decision);
      const result = applied ? await this.runOn(ctx) : await this.apply(ctx, resume);
      await this.deps.store.markDecisionApplied(reviewId, resume, result.route ?? result.status);
    } catch (error) {
      this.deps.log.error({ err: error, reviewId }, "could not finish a decision received before a restart");
    }
  }

  /**
   * Settles a review whose graph already took its decision; a graph that stopped midway (its
   * process died between the gate's step and the verdict's) is first run on to its end or next wait.
   */
  private async runOn(ctx: ReviewContext): Promise<ReviewResult> {
    if (ctx.stoppedMidway) {
      try {
        await this.invoke(ctx.id, null);
      } catch (error) {
        return this.failClosed(ctx, error);
      }
    }
    return this.settle(ctx);
  }

  /** Publishes the review's last saved result again (see `ReviewPublishing.publish`). */
  async publish(reviewId: string): Promise<void> {
    await this.publishing.publish(reviewId);
  }

  /** Publishes the review's saved result if it was not published (a crash or a failing publisher in between); true if it did. */
  async publishIfUnpublished(reviewId: string): Promise<boolean> {
    if ((await this.deps.store.unpublished(reviewId)).length === 0) return false;
    await this.publishing.publish(reviewId);
    return true;
  }

  private async invoke(reviewId: string, input: Command | Record<string, unknown> | null): Promise<void> {
    try {
      await this.deps.graph.invoke(input as never, { ...threadOf(reviewId), durability: "sync" });
    } catch (error) {
      // The graph's nodes do not throw by design; if something still does, a person is asked.
      this.deps.log.error({ err: error, reviewId }, "review graph failed");
      await this.deps.store.audit({
        reviewId,
        actor: "gate",
        action: "run",
        outcome: "failed",
        detail: { error: (error as Error).message },
      });
      throw new GateError("REVIEW_FAILED", `review ${reviewId} failed: ${(error as Error).message}`, { cause: error });
    }
  }

  /**
   * Hands a review that cannot be run to a person (its job failed, or the replica running it
   * died, too many times): it waits for a decision, its card and check run saying why, and a
   * decision received for it and never applied is closed as failed (the person decides again).
   * A review that is no longer queued or running is left as it is.
   *
   * @example await runner.handToPerson("r-1", "its review job failed 5 times");
   */
  async handToPerson(reviewId: string, why: string): Promise<void> {
    await this.lock.run(reviewId, async () => {
      const ctx = await ReviewContext.load(this.deps, reviewId);
      if (!ctx || (ctx.review.status !== "queued" && ctx.review.status !== "running")) return;
      for (const d of await this.deps.store.pendingDecisions(reviewId)) {
        await this.deps.store.markDecisionApplied(reviewId, d.resume, "failed");
      }
      await this.deps.store.audit({ reviewId, actor: "gate", action: "run", outcome: "handed_over", detail: { why } });
      await this.failClosed(ctx, new Error(why));
    });
  }

  /** A review whose graph failed goes to a person with the error; it never passes. */
  private async failClosed(ctx: ReviewContext, error: unknown): Promise<ReviewResult> {
    // A review superseded while it ran stays superseded; its successor decides the PR.
    await ctx.settleStatus("waiting_for_human");
    await ctx.reloadState();
    const result: ReviewResult = {
      ...(await ctx.result()),
      route: "human",
      escalation: { reason: "specialist_error", detail: `the review could not finish: ${(error as Error).message}` },
    };
    await this.publishing.record(ctx.id, result);
    return result;
  }

  /** Reads where the graph stopped, records it, publishes it. */
  private async settle(ctx: ReviewContext): Promise<ReviewResult> {
    await ctx.reloadState();
    const status = ctx.gatePending ? "waiting_for_human" : "done";
    await ctx.settleStatus(status);
    const result = await ctx.result();
    await this.publishing.record(ctx.id, result);
    if (status === "done") await this.deps.onSettled?.(ctx.review);
    return result;
  }

  /** A review's context; throws REVIEW_NOT_FOUND for an unknown id. */
  private async context(reviewId: string): Promise<ReviewContext> {
    const ctx = await ReviewContext.load(this.deps, reviewId);
    if (!ctx) throw new GateError("REVIEW_NOT_FOUND", `no review ${reviewId}`);
    return ctx;
  }
}
