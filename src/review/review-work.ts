import type { Command } from "@langchain/langgraph";
import type { Logger } from "pino";
import type { PushHistory } from "../domain/carry.js";
import type { Clock } from "../domain/clock.js";
import type { ApproverConfig, CurrentGroups } from "../domain/decision.js";
import { GateError, messageOf } from "../domain/errors.js";
import type { ReviewResult } from "../domain/review-result.js";
import type { Publisher, ReviewRecord } from "../domain/review.js";
import type { ReplicaCoordination } from "../domain/review-jobs.js";
import type { ReviewStore } from "../domain/review-store.js";
import type { ReviewGraph } from "../graph/build-review-graph.js";
import { type ConfigShelf, configShelf } from "../graph/review-config.js";
import { audits } from "./audit-entries.js";
import { KeyedLock } from "./keyed-lock.js";
import type { ProgressHub } from "./progress-hub.js";
import { ReviewPublishing } from "./publish.js";
import { type EmergencySettings, grantIfLabelled } from "./emergency-pass.js";
import { settlePushed } from "./pushed-review.js";
import { ReviewContext, threadOf } from "./review-context.js";

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
  /** Which approver groups a Slack user is in now (set by the server once Slack is wired): a carried decision is judged with it. */
  currentGroups?: CurrentGroups;
  /** Compares a PR's heads (GitHub's compare API): without it no decision is carried and every file is read again. */
  history?: PushHistory;
  newId?: () => string;
  /** Called when a review reaches a final state, with the result it settled on (e.g. to remove its snapshot). */
  onSettled?(review: ReviewRecord, result: ReviewResult): void | Promise<void>;
  /** Called each time a review goes to a person, with the result it waits on (its escalation says why). */
  onEscalated?(review: ReviewRecord, result: ReviewResult): void | Promise<void>;
  /**
   * Several replicas on one database (PostgreSQL): a received decision is a job this process
   * holds (another replica finishes it if this one dies), a superseded review's queued runs are
   * dropped, and a review is published by one replica at a time.
   */
  coordination?: ReplicaCoordination;
  /** GATE_EMERGENCY_LABEL and GATE_EMERGENCY_HOURS: a labelled PR's review waiting for a person passes its check until due. */
  emergency?: EmergencySettings;
}

/**
 * What every use case of the runner (run, decisions, lifecycle, recovery) shares: the
 * dependencies, one lock per review, the publishing, and the steps they all end with (invoke the
 * graph, settle where it stopped, or fail closed to a person). Each works on one `ReviewContext`
 * loaded once and carried, and passes the result it settled on to whoever comes next.
 *
 * @example const work = new ReviewWork(deps); const ctx = await work.context("r-1"); await work.settle(ctx);
 */
export class ReviewWork {
  /** One run or decision at a time per review, in this process. */
  readonly lock = new KeyedLock();
  readonly publishing: ReviewPublishing;
  readonly approvers: ApproverConfig;
  readonly deps: RunnerDeps & { configs: ConfigShelf };

  constructor(deps: RunnerDeps) {
    this.deps = { ...deps, configs: deps.configs ?? configShelf(deps.store) };
    this.approvers = deps.approvers ?? { approvers: [] };
    this.publishing = new ReviewPublishing(deps);
  }

  get store(): ReviewStore {
    return this.deps.store;
  }

  /** A review's context; undefined for an unknown id. */
  load(reviewId: string): Promise<ReviewContext | undefined> {
    return ReviewContext.load(this.deps, reviewId);
  }

  /** A review's context; throws REVIEW_NOT_FOUND for an unknown id. */
  async context(reviewId: string): Promise<ReviewContext> {
    const ctx = await this.load(reviewId);
    if (!ctx) throw new GateError("REVIEW_NOT_FOUND", `no review ${reviewId}`);
    return ctx;
  }

  /** Runs the review's graph (from `input`, or on from where it stopped with null); a failure is audited and thrown as REVIEW_FAILED. */
  async invoke(reviewId: string, input: Command | Record<string, unknown> | null): Promise<void> {
    try {
      await this.deps.graph.invoke(input as never, { ...threadOf(reviewId), durability: "sync" });
    } catch (error) {
      // The graph's nodes do not throw by design; if something still does, a person is asked.
      this.deps.log.error({ err: error, reviewId }, "review graph failed");
      await this.store.audit(audits.runFailed(reviewId, messageOf(error)));
      throw new GateError("REVIEW_FAILED", `review ${reviewId} failed: ${messageOf(error)}`, { cause: error });
    }
  }

  /** Invokes the graph, then settles where it stopped; a failing graph fails closed. */
  async invokeAndSettle(ctx: ReviewContext, input: Command | Record<string, unknown> | null): Promise<ReviewResult> {
    try {
      await this.invoke(ctx.id, input);
    } catch (error) {
      return this.failClosed(ctx, error);
    }
    return this.settle(ctx);
  }

  /** A review whose graph failed goes to a person with the error; it never passes. */
  async failClosed(ctx: ReviewContext, error: unknown): Promise<ReviewResult> {
    const escalation = {
      reason: "specialist_error" as const,
      detail: `the review could not finish: ${messageOf(error)}`,
    };
    // A push's change is on the branch already: it is shown changed without review, with why.
    if (ctx.review.source === "push")
      return settlePushed(this, ctx, { ...(await ctx.result()), route: "human", escalation });
    // A review superseded while it ran stays superseded; its successor decides the PR.
    await ctx.settleStatus("waiting_for_human");
    await ctx.reloadState();
    await grantIfLabelled(this.deps, ctx.review, await ctx.source());
    const result: ReviewResult = { ...(await ctx.result()), route: "human", escalation };
    await this.publishing.record(ctx.id, result);
    await this.deps.onEscalated?.(ctx.review, result);
    return result;
  }

  /** Reads where the graph stopped, records it, publishes it. */
  async settle(ctx: ReviewContext): Promise<ReviewResult> {
    // A push with no pull request: changed without review, whatever its review concluded.
    if (ctx.review.source === "push" && ctx.review.status !== "merged_unapproved") return settlePushed(this, ctx);
    await ctx.reloadState();
    const status = ctx.gatePending ? "waiting_for_human" : "done";
    await ctx.settleStatus(status);
    // The emergency label: the check passes while a person's approval is due (decided here, outside the graph).
    if (status === "waiting_for_human") await grantIfLabelled(this.deps, ctx.review, await ctx.source());
    const result = await ctx.result();
    await this.publishing.record(ctx.id, result);
    if (status === "done") await this.deps.onSettled?.(ctx.review, result);
    else await this.deps.onEscalated?.(ctx.review, result);
    return result;
  }

  /** Records and publishes a result a lifecycle step gave a review (superseded, closed), then calls `onSettled` with it. */
  async settleAs(ctx: ReviewContext): Promise<ReviewRecord> {
    const result = await ctx.result();
    await this.publishing.record(ctx.id, result);
    await this.deps.onSettled?.(ctx.review, result);
    return ctx.review;
  }
}
