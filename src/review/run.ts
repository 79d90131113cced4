import crypto from "node:crypto";
import { Command } from "@langchain/langgraph";
import type { SinceEarlier } from "../domain/carry.js";
import type { ReviewResult } from "../domain/review-result.js";
import type { ReviewRecord } from "../domain/review.js";
import type { ReviewRegistration, ReviewStore } from "../domain/review-store.js";
import { prKey } from "../domain/pull-request.js";
import { audits } from "./audit-entries.js";
import { carriedResume } from "./carry-changes.js";
import { sinceEarlier } from "./carry-forward.js";
import type { ReviewContext } from "./review-context.js";
import type { ReviewWork } from "./review-work.js";

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
 * The run of a review: registered first (so a queued review is visible), announced as queued,
 * then run through the graph until it finishes or waits for a person.
 *
 * @example const review = await run.register(registration); await run.run(review.id);
 */
export class ReviewRun {
  constructor(private readonly work: ReviewWork) {}

  /** Registers a review as queued, with its audit entry; `tx` when it is part of a larger transaction. */
  async register(input: ReviewRegistration, tx: ReviewStore = this.work.store): Promise<ReviewRecord> {
    const id = (this.work.deps.newId ?? newReviewId)();
    const review = await tx.register({ ...input, id, pr: input.pr ?? prKey(input) });
    await tx.audit(audits.registered(id, input.headSha));
    return review;
  }

  /**
   * Publishes a just-registered review as queued (a check run "in progress" at once), so a head
   * never shows an older state while its review waits in the queue. Failures are only logged.
   */
  async announce(reviewId: string): Promise<void> {
    try {
      const queued = await (await this.work.context(reviewId)).result();
      if (queued.status !== "queued") return;
      await this.work.publishing.record(reviewId, queued);
    } catch (error) {
      this.work.deps.log.warn({ err: error, reviewId }, "could not announce the review");
    }
  }

  /** Runs a registered review until it finishes or waits for a person. Never throws for a review's own failure. */
  async run(reviewId: string): Promise<ReviewResult> {
    return this.work.lock.run(reviewId, async () => {
      const ctx = await this.work.context(reviewId);
      if (ctx.review.status !== "queued" && ctx.review.status !== "running") return ctx.result();
      // Claimed from the status just read: a review another replica settled meanwhile is not run again.
      if (!(await ctx.claimRunning())) return (await this.work.load(reviewId))?.result() ?? ctx.result();
      // Show the review as in progress (a check run "in progress") before the work starts.
      await this.work.publishing.record(reviewId, await ctx.result());
      const { deps } = this.work;
      const input = ctx.started
        ? null
        : {
            reviewId,
            source: await ctx.source(),
            cyclesMax: deps.cyclesMax,
            maxCostUsd: deps.maxCostUsd ?? null,
            since: await this.sinceEarlier(ctx),
          };
      try {
        await this.work.invoke(reviewId, input);
      } catch (error) {
        return this.work.failClosed(ctx, error);
      }
      // A first run that stopped for a person may end on the PR's earlier decision instead.
      const result =
        (input?.since?.decision ? await this.carryForward(ctx) : undefined) ?? (await this.work.settle(ctx));
      if (input) await this.auditExceptions(ctx);
      return result;
    });
  }

  /** What this head inherits from the PR's earlier reviews; nothing when that cannot be read (it starts over). */
  private async sinceEarlier(ctx: ReviewContext): Promise<SinceEarlier | null> {
    try {
      return await sinceEarlier(this.work.deps, ctx.review);
    } catch (error) {
      this.work.deps.log.warn({ err: error, reviewId: ctx.id }, "could not read the PR's earlier reviews");
      return null;
    }
  }

  /**
   * Ends a review that waits at the gate on the PR's earlier decision when nothing it decided
   * changed and its maker may still decide (`ReviewContext.sinceDecision`): audited
   * `carried_forward`, resumed as that decision naming its origin. Undefined when it does not carry.
   */
  private async carryForward(ctx: ReviewContext): Promise<ReviewResult | undefined> {
    await ctx.reloadState();
    const since = await ctx.sinceDecision(this.work.approvers);
    if (!since || since.changes.length > 0) return undefined;
    await this.work.store.audit(audits.carriedForward(ctx.id, since.prior, ctx.review.headSha));
    return this.work.invokeAndSettle(ctx, new Command({ resume: carriedResume(since.prior) }));
  }

  /** The audit log names every exception of the configuration that cleared a finding (or expired) in a first run. */
  private async auditExceptions(ctx: ReviewContext): Promise<void> {
    for (const f of ctx.values.detections ?? []) {
      if (f.exception) await this.work.store.audit(audits.exception(ctx.id, { ...f, exception: f.exception }));
    }
  }
}
