import { GateError } from "../domain/errors.js";
import type { MergedPastGate, Route } from "../domain/review-result.js";
import type { PrMerge } from "../domain/review-jobs.js";
import type { ReviewRecord } from "../domain/review.js";
import type { ReviewStore } from "../domain/review-store.js";
import { audits } from "./audit-entries.js";
import type { ReviewRun } from "./run.js";
import { registrationFor } from "./registration.js";
import type { ReviewWork } from "./review-work.js";
import { supersedePlan } from "./supersede-order.js";

/** The routes on which a review let its head pass: a PR merged at such a head was merged as the gate allowed. */
const PASSED: ReadonlySet<Route | null> = new Set<Route | null>(["auto_approved", "approved", "human_approved"]);

/**
 * What happens to a PR's reviews as the PR moves: a push supersedes the older ones, a close ends
 * them, a re-run registers a fresh one and supersedes what stood before it.
 *
 * @example await lifecycle.closePr("acme/web#12");
 */
export class ReviewLifecycle {
  constructor(
    private readonly work: ReviewWork,
    private readonly runs: ReviewRun,
  ) {}

  /**
   * Marks a PR's older open reviews superseded by a new head and republishes them (their check
   * runs close as neutral, their cards say so); `supersedePlan` says which, and by which head.
   * Returns the superseded reviews.
   */
  async supersedeOlder(pr: string, newHeadSha: string, newId?: string): Promise<ReviewRecord[]> {
    const superseded: ReviewRecord[] = [];
    for (const step of supersedePlan(await this.work.store.openForPr(pr), newHeadSha, newId)) {
      superseded.push(await this.supersede(step.id, step.bySha));
    }
    return superseded;
  }

  /** Marks one review superseded by a head SHA, records it, republishes it and frees its snapshot. */
  private async supersede(reviewId: string, bySha: string): Promise<ReviewRecord> {
    const ctx = await this.work.context(reviewId);
    await this.work.store.transaction(async (tx) => {
      await ctx.supersede(bySha, tx);
      // With replicas, its queued runs go with it (a run another replica holds finishes, and stays superseded).
      await this.work.deps.coordination?.dropQueued(reviewId, tx);
      await tx.audit(audits.superseded(reviewId, bySha));
    });
    return this.work.settleAs(ctx);
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
    for (const open of await this.work.store.openForPr(pr)) {
      const ctx = await this.work.context(open.id);
      await this.work.store.transaction(async (tx) => {
        await tx.close(open.id);
        await tx.audit(audits.closed(open.id, pr));
      });
      await ctx.reload();
      ended.push(await this.work.settleAs(ctx));
    }
    return ended;
  }

  /**
   * A PR merged (GitHub's `pull_request` `closed` with `merged: true`). If the merged head's
   * review had not let it pass (waiting for a person, rejected, queued or running, failed), that
   * review ends `merged_unapproved`: the audit log says who merged it and when, its check run and
   * card say so, and a person may record a decision after the fact. A head that passed, or a head
   * the gate has no review of, is closed as any PR (`closePr`); so are the PR's other open reviews.
   * Returns the reviews marked merged without approval.
   *
   * @example await lifecycle.mergePr("acme/web#12", { by: "octocat", at: "2026-03-02T10:00:00Z", headSha });
   */
  async mergePr(pr: string, merge: Omit<PrMerge, "headSha"> & { headSha?: string }): Promise<ReviewRecord[]> {
    const standing = (await this.work.store.allForPr(pr)).filter(
      (r) => r.status !== "superseded" && r.status !== "closed" && r.status !== "merged_unapproved",
    );
    // The merged head's reviews (newest first); without the head in the event, the newest review.
    const merged = merge.headSha ? standing.filter((r) => r.headSha === merge.headSha) : standing.slice(0, 1);
    const routes = new Map<string, Route | null>();
    for (const r of merged) routes.set(r.id, (await this.work.store.lastResult(r.id))?.route ?? null);
    const passing = merged.find((r) => r.status === "done" && PASSED.has(routes.get(r.id) ?? null));
    const passed = passing !== undefined;
    await this.recordMerge(pr, merge, passing ?? merged[0], passed);
    const ended: ReviewRecord[] = [];
    for (const r of passed ? [] : merged) {
      const was = { status: r.status, route: routes.get(r.id) ?? null };
      ended.push(await this.markMergedUnapproved(r.id, pr, { by: merge.by, at: merge.at, was }));
    }
    await this.closePr(pr);
    return ended;
  }

  /**
   * Records the merge as a change that reached the default branch (the evidence, `gate evidence`),
   * with the review that stood for its head; once per PR. A merge into another branch is no such change.
   */
  private async recordMerge(
    pr: string,
    merge: Omit<PrMerge, "headSha"> & { headSha?: string },
    review: ReviewRecord | undefined,
    passed: boolean,
  ): Promise<void> {
    if (merge.branch && merge.defaultBranch && merge.branch !== merge.defaultBranch) return;
    const headSha = merge.headSha ?? review?.headSha;
    await this.work.store.recordChange({
      kind: "merge",
      repo: review?.repo ?? pr.slice(0, pr.lastIndexOf("#")),
      pr,
      ...(merge.commitSha ? { commitSha: merge.commitSha } : {}),
      ...(headSha ? { headSha } : {}),
      ...(merge.branch ? { branch: merge.branch } : {}),
      author: merge.author ?? review?.author ?? "",
      mergedBy: merge.by,
      mergedAt: merge.at,
      ...(review ? { reviewId: review.id } : {}),
      passed,
    });
  }

  /** Ends one review as merged without approval, audited with who merged it and when; republished. */
  private async markMergedUnapproved(reviewId: string, pr: string, merged: MergedPastGate): Promise<ReviewRecord> {
    const ctx = await this.work.context(reviewId);
    await this.work.store.transaction(async (tx) => {
      await tx.setStatus(reviewId, "merged_unapproved");
      // With replicas, its queued runs go with it (a run another replica holds finishes, and stays merged).
      await this.work.deps.coordination?.dropQueued(reviewId, tx);
      await tx.audit(audits.mergedUnapproved(reviewId, pr, merged));
    });
    await ctx.reload();
    return this.work.settleAs(ctx);
  }

  /**
   * Registers a fresh review of the same head as `reviewId` (a re-run asked from GitHub's
   * "Re-run" or from Slack), audited on the old review with who asked; `tx` when it is part of a
   * larger transaction. The caller queues the new review and supersedes the PR's earlier reviews
   * with `supersedeForRerun`.
   *
   * @example const fresh = await runner.registerRerun("r-1", "U123");
   */
  async registerRerun(reviewId: string, by: string, tx: ReviewStore = this.work.store): Promise<ReviewRecord> {
    const old = await tx.get(reviewId);
    const source = await tx.source(reviewId);
    if (!old || !source) throw new GateError("REVIEW_NOT_FOUND", `no review ${reviewId}`);
    // A re-run is asked by a person, not a GitHub event: it carries no event time.
    const { eventAt: _event, ...head } = old;
    const fresh = await this.runs.register(registrationFor(source, head), tx);
    await tx.audit(audits.rerun(reviewId, by, fresh.id));
    return fresh;
  }

  /**
   * Supersedes every earlier review of a re-run's PR that still stands (open, or finished on the
   * same head): their check runs close as neutral and their cards point at the new one.
   */
  async supersedeForRerun(fresh: ReviewRecord): Promise<void> {
    for (const r of await this.work.store.allForPr(fresh.pr)) {
      if (r.id === fresh.id || r.status === "superseded" || r.status === "closed") continue;
      if (r.status === "done" && r.headSha !== fresh.headSha) continue;
      await this.supersede(r.id, fresh.id);
    }
  }
}
