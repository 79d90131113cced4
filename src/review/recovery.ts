import type { ReviewResult } from "../domain/review-result.js";
import type { ResumeValue } from "../domain/review.js";
import { markDecisionApplied } from "./decision-record.js";
import type { ReviewDecisions } from "./decisions.js";
import { leftoverWork, RUN_AFTER_RESTART } from "./leftover-work.js";
import type { ReviewContext } from "./review-context.js";
import type { ReviewRun } from "./run.js";
import type { ReviewWork } from "./review-work.js";
import { audits } from "./audit-entries.js";

/**
 * What is finished after a crash or a failure: the leftover work of a restart, decisions
 * received and not applied, results saved and not published, and reviews that cannot be run
 * handed to a person.
 *
 * @example await recovery.recover(); // { resumed, republished, applied }
 */
export class ReviewRecovery {
  constructor(
    private readonly work: ReviewWork,
    private readonly runs: ReviewRun,
    private readonly decisions: ReviewDecisions,
  ) {}

  /**
   * After a restart (one process on the database): finishes what it left undone (`leftoverWork`),
   * in order: decisions received and not applied, once each; every review that was queued or
   * running, run again; every review whose saved result was not published, published. Reviews
   * waiting for a person keep waiting; settled ones are not read.
   */
  async recover(): Promise<{ resumed: number; republished: number; applied: number }> {
    const done = { resumed: 0, republished: 0, applied: 0 };
    for await (const job of leftoverWork(this.work.store, RUN_AFTER_RESTART)) {
      if (job.kind === "decision") done.applied += await this.finishReceived(job.reviewId);
      else if (job.kind === "review") {
        await this.runs.run(job.reviewId);
        done.resumed++;
      } else {
        await this.work.publishing.publish(job.reviewId);
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
    const decisions = await this.work.store.pendingDecisions(reviewId);
    for (const d of decisions) await this.work.lock.run(reviewId, () => this.finishDecision(reviewId, d.resume));
    return decisions.length;
  }

  /**
   * Finishes a decision that was received before a crash: resumes the gate with it if the graph
   * still waits there, or, if the resume had already run, runs on what the crash left unrun (the
   * verdict) and records and publishes the outcome.
   */
  private async finishDecision(reviewId: string, resume: ResumeValue): Promise<void> {
    const ctx = await this.work.load(reviewId);
    if (!ctx) return;
    if (ctx.review.status === "superseded") {
      await markDecisionApplied(this.work.store, reviewId, resume, "superseded");
      return;
    }
    try {
      // Not applied yet if the gate still waits, or (a review that failed closed) no decision is recorded.
      const applied = !ctx.gatePending && (resume.kind === "info" || ctx.values.decision);
      const result = applied ? await this.runOn(ctx) : await this.decisions.apply(ctx, resume);
      await markDecisionApplied(this.work.store, reviewId, resume, result.route ?? result.status);
    } catch (error) {
      this.work.deps.log.error({ err: error, reviewId }, "could not finish a decision received before a restart");
    }
  }

  /**
   * Settles a review whose graph already took its decision; a graph that stopped midway (its
   * process died between the gate's step and the verdict's) is first run on to its end or next wait.
   */
  private runOn(ctx: ReviewContext): Promise<ReviewResult> {
    return ctx.stoppedMidway ? this.work.invokeAndSettle(ctx, null) : this.work.settle(ctx);
  }

  /** Publishes the review's saved result if it was not published (a crash or a failing publisher in between); true if it did. */
  async publishIfUnpublished(reviewId: string): Promise<boolean> {
    if (await this.saveLagging(reviewId)) return true;
    if ((await this.work.store.unpublished(reviewId)).length === 0) return false;
    await this.work.publishing.publish(reviewId);
    return true;
  }

  /**
   * A settled review whose saved result still says queued or running (its run stopped between
   * settling the status and saving the verdict: a lost database connection, a crash) gets its
   * result saved and published. Its job, retried, comes here, since the status says settled.
   */
  private async saveLagging(reviewId: string): Promise<boolean> {
    const saved = await this.work.store.lastResult(reviewId);
    if (saved?.status !== "queued" && saved?.status !== "running") return false;
    return this.work.lock.run(reviewId, async () => {
      const ctx = await this.work.load(reviewId);
      if (!ctx || ctx.review.status === "queued" || ctx.review.status === "running") return false;
      await this.work.publishing.record(reviewId, await ctx.result());
      this.work.deps.log.warn(
        { reviewId, status: ctx.review.status },
        "a settled review's saved result was behind: saved again",
      );
      return true;
    });
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
    await this.work.lock.run(reviewId, async () => {
      const ctx = await this.work.load(reviewId);
      if (!ctx || (ctx.review.status !== "queued" && ctx.review.status !== "running")) return;
      for (const d of await this.work.store.pendingDecisions(reviewId)) {
        await markDecisionApplied(this.work.store, reviewId, d.resume, "failed");
      }
      await this.work.store.audit(audits.handedOver(reviewId, why));
      await this.work.failClosed(ctx, new Error(why));
    });
  }
}
