import crypto from "node:crypto";
import { Command } from "@langchain/langgraph";
import type { Logger } from "pino";
import { GateError } from "../domain/errors.js";
import { budgetOf } from "../graph/budget.js";
import { ResumeSchema } from "../domain/human-gate.js";
import type { ReviewGraph } from "../graph/build-review-graph.js";
import type { ReviewStateValue } from "../graph/state.js";
import type { ReviewRegistration, ReviewStore } from "../store/review-store.js";

export type { ReviewRegistration };
import { buildResult } from "./build-result.js";
import type { ProgressHub } from "./progress-hub.js";
import type { ReviewResult, ReviewStatus } from "../domain/review-result.js";
import { refusalMessage, routeOfDecision, type ApproverConfig, type DecisionDoor, type Refusal } from "../domain/decision.js";
import { decisionRefusal, type DecisionRequest } from "./decision-policy.js";
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

export interface RunnerDeps {
  graph: ReviewGraph;
  store: ReviewStore;
  progress: ProgressHub;
  /** The publishers for a review (GitHub check run for live PRs, Slack card when configured). */
  publishersFor(review: ReviewRecord): Publisher[];
  cyclesMax: number;
  /** GATE_MAX_COST_USD: model spend past which no investigation starts (undefined: no cap). */
  maxCostUsd?: number;
  log: Logger;
  /** Who may decide (the decision policy's approver lists and login map); none by default. */
  approvers?: ApproverConfig;
  newId?: () => string;
  /** Called when a review reaches a final state (e.g. to remove its snapshot). */
  onSettled?(review: ReviewRecord): void | Promise<void>;
}


/** Whether a review's graph is paused at the human gate's interrupt. */
function hasPendingGate(state: { tasks: ReadonlyArray<{ interrupts?: readonly unknown[] }> }): boolean {
  return state.tasks.some((t) => (t.interrupts ?? []).length > 0);
}

/** A refusal as a door receives it: code, the one plain message, and the facts. */
function refused(refusal: Refusal): Refused {
  return { ok: false, code: refusal.code, message: refusalMessage(refusal), refusal };
}

const newReviewId = () => `r-${crypto.randomBytes(6).toString("hex")}`;

/**
 * Runs reviews through the graph and publishes what the graph concluded. Registers first (so a
 * queued review is visible), serialises runs per review (one resume wins), records what it
 * published (so a crash between the two is repaired by `recover`).
 *
 * @example const review = runner.register({ source, repo, number, headSha }); await runner.run(review.id);
 */
export class ReviewRunner implements ReviewService {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly publishing = new Map<string, Promise<void>>();

  readonly approvers: ApproverConfig;

  constructor(private readonly deps: RunnerDeps) {
    this.approvers = deps.approvers ?? { approvers: [] };
  }

  register(input: ReviewRegistration): ReviewRecord {
    const id = (this.deps.newId ?? newReviewId)();
    const review = this.deps.store.register({ id, pr: `${input.repo}#${input.number}`, ...input });
    this.deps.store.audit({ reviewId: id, actor: "gate", action: "register", outcome: "queued", detail: { headSha: input.headSha } });
    return review;
  }

  get(reviewId: string): ReviewRecord | undefined {
    return this.deps.store.get(reviewId);
  }

  listWaiting(): ReviewRecord[] {
    return this.deps.store.withStatus("waiting_for_human");
  }

  /**
   * Publishes a just-registered review as queued (a check run "in progress" at once), so a head
   * never shows an older state while its review waits in the queue. Failures are only logged.
   */
  async announce(reviewId: string): Promise<void> {
    try {
      const queued = await this.result(reviewId);
      if (queued.status !== "queued") return;
      await this.record(reviewId, queued);
    } catch (error) {
      this.deps.log.warn({ err: error, reviewId }, "could not announce the review");
    }
  }

  /** Runs a registered review until it finishes or waits for a person. Never throws for a review's own failure. */
  async run(reviewId: string): Promise<ReviewResult> {
    return this.serialise(reviewId, async () => {
      const review = this.requireReview(reviewId);
      if (review.status !== "queued" && review.status !== "running") return this.result(reviewId);
      this.deps.store.setStatus(reviewId, "running");
      // Show the review as in progress (a check run "in progress") before the work starts.
      const starting = await this.result(reviewId);
      await this.record(reviewId, starting);
      const config = this.config(reviewId);
      const snapshot = await this.deps.graph.getState(config);
      const started = snapshot.values && Object.keys(snapshot.values).length > 0;
      const source = this.deps.store.source(reviewId)!;
      try {
        await this.invoke(reviewId, started ? null : { reviewId, source, cyclesMax: this.deps.cyclesMax, maxCostUsd: this.deps.maxCostUsd ?? null });
      } catch (error) {
        return this.failClosed(reviewId, error);
      }
      return this.settle(reviewId);
    });
  }

  /** Whether a person may make a decision now, by the one decision policy; a refusal is audited. */
  async check(reviewId: string, attempt: { kind: ResumeValue["kind"]; by: string }, door: DecisionDoor): Promise<CheckOutcome> {
    const standing = await this.standing(reviewId);
    const refusal = standing ? decisionRefusal(this.decisionRequest(standing, attempt, door)) : { code: "not_found" as const, reviewId };
    if (refusal) return this.refuse(reviewId, attempt, door, refusal);
    return { ok: true, review: standing!.review, result: standing!.result };
  }

  /** Applies a person's decision or question. Exactly one of concurrent calls resumes the graph. */
  async decide(
    reviewId: string,
    resume: ResumeValue,
    opts: { door?: DecisionDoor; onProgress?: (p: InvestigationProgress) => void } = {},
  ): Promise<DecideOutcome> {
    const parsed = ResumeSchema.safeParse(resume);
    if (!parsed.success) return refused({ code: "invalid" });
    // One decision at a time per review in this process; a second waits, then sees the first's outcome.
    return this.serialise(reviewId, () => this.decideNow(reviewId, parsed.data, opts.door ?? { kind: "cli" }, opts.onProgress));
  }

  /** Records a refused decision in the audit log (one shape for every door) and says why. */
  private refuse(reviewId: string, attempt: { kind: ResumeValue["kind"]; by: string }, door: DecisionDoor, refusal: Refusal): Refused {
    const outcome = refused(refusal);
    this.deps.store.audit({
      reviewId,
      actor: attempt.by,
      action: attempt.kind,
      outcome: `refused:${refusal.code}`,
      detail: { door: door.kind, message: outcome.message },
    });
    return outcome;
  }

  /** The review, its graph state and its result, read once. */
  private async standing(reviewId: string) {
    const review = this.deps.store.get(reviewId);
    if (!review) return undefined;
    const state = await this.deps.graph.getState(this.config(reviewId));
    return { review, state, result: this.resultOf(review, state.values as Partial<ReviewStateValue>) };
  }

  private decisionRequest(
    standing: NonNullable<Awaited<ReturnType<ReviewRunner["standing"]>>>,
    attempt: { kind: ResumeValue["kind"]; by: string },
    door: DecisionDoor,
  ): DecisionRequest {
    const { review, state, result } = standing;
    const values = state.values as Partial<ReviewStateValue>;
    return {
      kind: attempt.kind,
      by: attempt.by,
      door,
      review,
      ...(values.decision ? { decision: values.decision } : {}),
      blockingSpecialties: result.findings.filter((f) => f.blocking).map((f) => f.specialty),
      budget: budgetOf(values, this.deps.cyclesMax),
      gatePending: hasPendingGate(state),
      approvers: this.approvers,
    };
  }

  private async decideNow(
    reviewId: string,
    resume: ResumeValue,
    door: DecisionDoor,
    onProgress: ((p: InvestigationProgress) => void) | undefined,
  ): Promise<DecideOutcome> {
    const standing = await this.standing(reviewId);
    const refusal = standing ? decisionRefusal(this.decisionRequest(standing, resume, door)) : { code: "not_found" as const, reviewId };
    if (refusal) return this.refuse(reviewId, resume, door, refusal);
    // The claim is the cross-process lock: only one process moves waiting → running.
    if (!this.deps.store.claim(reviewId, "waiting_for_human", "running")) {
      return this.refuse(reviewId, resume, door, { code: "busy", reviewId });
    }
    this.deps.store.audit({
      reviewId,
      actor: resume.by,
      action: resume.kind,
      outcome: "accepted",
      detail: { door: door.kind, ...(resume.kind === "info" ? { question: resume.question } : { note: resume.note ?? "" }) },
    });
    const stop = onProgress ? this.deps.progress.listen(reviewId, onProgress) : () => undefined;
    try {
      return { ok: true, result: await this.apply(reviewId, resume, hasPendingGate(standing!.state)) };
    } finally {
      stop();
    }
  }

  /** Resumes the gate with a decision or a question (or, for a review that failed closed, records the decision). */
  private async apply(reviewId: string, resume: ResumeValue, pending: boolean): Promise<ReviewResult> {
    if (pending) {
      try {
        await this.invoke(reviewId, new Command({ resume }));
      } catch (error) {
        return this.failClosed(reviewId, error);
      }
    } else if (resume.kind !== "info") {
      // A review that failed before reaching the gate: record the decision as the gate would have.
      const decision = { kind: resume.kind, by: resume.by, at: new Date().toISOString(), ...(resume.note ? { note: resume.note } : {}) };
      await this.deps.graph.updateState(this.config(reviewId), { decision, route: routeOfDecision(resume.kind) }, "verdict");
    }
    return this.settle(reviewId);
  }

  /** The current result of a review id or of the newest review of `owner/repo#n`. */
  async status(ref: string): Promise<ReviewResult | undefined> {
    const review = this.deps.store.get(ref) ?? this.deps.store.latestForPr(ref);
    return review ? this.result(review.id) : undefined;
  }

  /** Builds the result from the graph's checkpointed state and the review's record. */
  async result(reviewId: string): Promise<ReviewResult> {
    const review = this.requireReview(reviewId);
    const state = await this.deps.graph.getState(this.config(reviewId));
    return this.resultOf(review, state.values as Partial<ReviewStateValue>);
  }

  private resultOf(review: ReviewRecord, values: Partial<ReviewStateValue>): ReviewResult {
    const built = buildResult(review, values, review.status, this.deps.cyclesMax);
    // A review that failed closed keeps the escalation it was given (the graph never reached the gate).
    const saved = built.escalation === null && built.route === "human" ? this.deps.store.lastResult(review.id) : undefined;
    return saved?.escalation ? { ...built, escalation: saved.escalation } : built;
  }

  /**
   * Marks a PR's older open reviews superseded by a new head and republishes them (their check
   * runs close as neutral, their cards say so). With `newId` (the new review), "older" means an
   * earlier change by GitHub's clock (the webhook's `updated_at`), else registered before it; and
   * when a later change is already under review (deliveries arrived out of order), the new review
   * is the stale one and is superseded itself, so a newer head never closes as neutral. Returns
   * the superseded reviews.
   */
  async supersedeOlder(pr: string, newHeadSha: string, newId?: string): Promise<ReviewRecord[]> {
    const open = this.deps.store.openForPr(pr);
    const self = newId === undefined ? undefined : open.find((r) => r.id === newId);
    if (!self) {
      const older = open.filter((r) => r.headSha !== newHeadSha && r.id !== newId);
      for (const r of older) await this.supersede(r.id, newHeadSha);
      return older;
    }
    const rank = (r: ReviewRecord) => open.indexOf(r);
    const later = (a: ReviewRecord, b: ReviewRecord) => {
      const ta = a.eventAt ? Date.parse(a.eventAt) : NaN;
      const tb = b.eventAt ? Date.parse(b.eventAt) : NaN;
      return Number.isFinite(ta) && Number.isFinite(tb) && ta !== tb ? ta > tb : rank(a) > rank(b);
    };
    const others = open.filter((r) => r.id !== self.id);
    const newest = others.filter((r) => later(r, self)).sort((a, b) => (later(a, b) ? -1 : 1))[0];
    if (newest) {
      await this.supersede(self.id, newest.headSha);
      return [this.requireReview(self.id)];
    }
    for (const r of others) await this.supersede(r.id, newHeadSha);
    return others;
  }

  /** Marks one review superseded by a head SHA, records it, republishes it and frees its snapshot. */
  private async supersede(reviewId: string, bySha: string): Promise<void> {
    this.deps.store.supersede(reviewId, bySha);
    this.deps.store.audit({ reviewId, actor: "gate", action: "supersede", outcome: "superseded", detail: { by: bySha } });
    const result = await this.result(reviewId);
    await this.record(reviewId, result);
    await this.deps.onSettled?.(this.requireReview(reviewId));
  }

  /**
   * After a restart: runs every review that was queued or running, and republishes every review
   * whose saved result was not published. Reviews waiting for a person keep waiting.
   */
  async recover(): Promise<{ resumed: number; republished: number }> {
    const pending = this.deps.store.withStatus("queued", "running");
    for (const r of pending) await this.run(r.id);
    const stale = this.deps.store.unpublished();
    for (const r of stale) await this.publish(r.id);
    return { resumed: pending.length, republished: stale.length };
  }

  private async invoke(reviewId: string, input: Command | Record<string, unknown> | null): Promise<void> {
    try {
      await this.deps.graph.invoke(input as never, { ...this.config(reviewId), durability: "sync" });
    } catch (error) {
      // The graph's nodes do not throw by design; if something still does, a person is asked.
      this.deps.log.error({ err: error, reviewId }, "review graph failed");
      this.deps.store.audit({
        reviewId,
        actor: "gate",
        action: "run",
        outcome: "failed",
        detail: { error: (error as Error).message },
      });
      throw new GateError("REVIEW_NOT_WAITING", `review ${reviewId} failed: ${(error as Error).message}`, { cause: error });
    }
  }

  /** A review whose graph failed goes to a person with the error; it never passes. */
  private async failClosed(reviewId: string, error: unknown): Promise<ReviewResult> {
    // A review superseded while it ran stays superseded; its successor decides the PR.
    if (this.requireReview(reviewId).status !== "superseded") this.deps.store.setStatus(reviewId, "waiting_for_human");
    const base = await this.result(reviewId);
    const result: ReviewResult = {
      ...base,
      route: "human",
      escalation: { reason: "specialist_error", detail: `the review could not finish: ${(error as Error).message}` },
    };
    await this.record(reviewId, result);
    return result;
  }

  /** Reads where the graph stopped, records it, publishes it. */
  private async settle(reviewId: string): Promise<ReviewResult> {
    const state = await this.deps.graph.getState(this.config(reviewId));
    const waiting = hasPendingGate(state);
    const status: ReviewStatus = waiting ? "waiting_for_human" : "done";
    const current = this.requireReview(reviewId);
    if (current.status !== "superseded") this.deps.store.setStatus(reviewId, status);
    const result = await this.result(reviewId);
    await this.record(reviewId, result);
    if (status === "done") await this.deps.onSettled?.(this.requireReview(reviewId));
    return result;
  }

  /**
   * Publishes the review's last saved result everywhere it belongs and records each receipt. A
   * failing publisher is logged, and the result is published again by `recover`.
   * One publish at a time per review: a push superseding a review that is still running publishes
   * beside the run, and the later publish must see the earlier one's receipt (its check run id).
   */
  async publish(reviewId: string): Promise<void> {
    const previous = this.publishing.get(reviewId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.publishNow(reviewId));
    this.publishing.set(reviewId, next);
    try {
      await next;
    } finally {
      if (this.publishing.get(reviewId) === next) this.publishing.delete(reviewId);
    }
  }

  /** Saves what the review concluded, then publishes it. */
  private async record(reviewId: string, result: ReviewResult): Promise<void> {
    this.deps.store.saveResult(reviewId, result);
    await this.publish(reviewId);
  }

  private async publishNow(reviewId: string): Promise<void> {
    // Publish what the review concluded last, whichever call got here first: a late "queued"
    // announcement must never overwrite a verdict.
    const result = this.deps.store.lastResult(reviewId);
    if (!result) return;
    let allOk = true;
    for (const publisher of this.deps.publishersFor(this.requireReview(reviewId))) {
      try {
        const receipt = await publisher.publish(this.requireReview(reviewId), result);
        this.deps.store.recordReceipt(reviewId, receipt);
      } catch (error) {
        allOk = false;
        this.deps.log.error({ err: error, reviewId, publisher: publisher.name }, "publish failed");
      }
    }
    if (allOk) this.deps.store.markPublished(reviewId, result);
  }

  private async serialise<T>(reviewId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.inFlight.get(reviewId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.inFlight.set(reviewId, next);
    try {
      return await next;
    } finally {
      if (this.inFlight.get(reviewId) === next) this.inFlight.delete(reviewId);
    }
  }

  private config(reviewId: string) {
    return { configurable: { thread_id: reviewId } };
  }

  private requireReview(reviewId: string): ReviewRecord {
    const review = this.deps.store.get(reviewId);
    if (!review) throw new GateError("REVIEW_NOT_FOUND", `no review ${reviewId}`);
    return review;
  }
}
