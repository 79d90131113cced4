import type { MergedPastGate, PushedPastGate, ReviewResult } from "../domain/review-result.js";
import { audits } from "./audit-entries.js";
import type { ReviewContext } from "./review-context.js";
import type { ReviewRecord } from "../domain/review.js";
import type { ReviewStore } from "../domain/review-store.js";

/** What settling a push needs of the review work (src/review/review-work.ts, which calls it). */
export interface PushedWork {
  store: ReviewStore;
  publishing: { record(reviewId: string, result: ReviewResult): Promise<void> };
  deps: { onSettled?(review: ReviewRecord, result: ReviewResult): void | Promise<void> };
}

/**
 * Settles the review of a push with no pull request once its graph stopped: whatever the graph
 * concluded, the change already reached the branch without review, so the review ends
 * `merged_unapproved` ("changed without review"), audited with who pushed it, when, whether it
 * rewrote the branch, and where the review stood (waiting for a person, or passed by the rules),
 * and recorded as a change that reached the branch (the evidence's row, `reviewed: false` until decided).
 * Only a decision after the fact is taken then, as on a pull request merged past the gate. The
 * status and its audit entry are written together: a crash before leaves the review running, and
 * a restart runs it on to here. `escalated`: the result of a review that failed closed (its
 * escalation is kept). Returns the result, published.
 */
export async function settlePushed(
  work: PushedWork,
  ctx: ReviewContext,
  escalated?: ReviewResult,
): Promise<ReviewResult> {
  await ctx.reloadState();
  const source = await ctx.source();
  const concluded = escalated ?? (await ctx.result());
  const merged: MergedPastGate = {
    by: ctx.review.author,
    at: ctx.review.eventAt ?? ctx.review.createdAt,
    was: {
      status: escalated || ctx.gatePending ? "waiting_for_human" : "done",
      // Stopped at the gate: the graph names no route before a decision; it waits for a person.
      route: escalated || ctx.gatePending ? "human" : concluded.route,
    },
  };
  const pushed: PushedPastGate = {
    branch: source?.kind === "push" ? source.branch : "",
    before: source?.kind === "push" ? source.before : "",
    after: ctx.review.headSha,
    forced: source?.kind === "push" ? source.forced : false,
    commits: source?.kind === "push" ? source.commits : [],
  };
  await work.store.transaction(async (tx) => {
    // Kept so the result shows why it went to a person (the graph never reached the gate).
    if (escalated) await tx.saveResult(ctx.id, escalated);
    await tx.setStatus(ctx.id, "merged_unapproved");
    await tx.audit(audits.pushedUnreviewed(ctx.id, merged, pushed));
    // The evidence's row for the pushed change (`gate evidence`): not reviewed until a decision after the fact.
    await tx.recordChange({
      kind: "push",
      repo: ctx.review.repo,
      commitSha: ctx.review.headSha,
      headSha: ctx.review.headSha,
      ...(pushed.branch ? { branch: pushed.branch } : {}),
      author: ctx.review.author,
      mergedBy: merged.by,
      mergedAt: merged.at,
      reviewId: ctx.id,
      passed: false,
    });
  });
  await ctx.reload();
  const result = await ctx.result();
  await work.publishing.record(ctx.id, result);
  await work.deps.onSettled?.(ctx.review, result);
  return result;
}
