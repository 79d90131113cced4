import type { ResumeValue } from "../domain/review.js";
import type { ReviewStore } from "../domain/review-store.js";
import { audits } from "./audit-entries.js";

/**
 * Takes a person's decision for a waiting review, durably, in one transaction: the review moves
 * waiting → running (the cross-process claim: false when another decision has it), the decision
 * is stored as not yet applied, and the audit log says "received". After a crash,
 * `pendingDecisions` finds it again.
 *
 * @example if (await receiveDecision(store, "r-1", { kind: "approve", by: "alice" }, "slack")) ...
 */
export function receiveDecision(store: ReviewStore, reviewId: string, resume: ResumeValue, door: string) {
  return store.transaction(async (tx) => {
    if (!(await tx.claim(reviewId, "waiting_for_human", "running"))) return false;
    await tx.storeDecision(reviewId, resume, door);
    await tx.audit(audits.received(reviewId, resume, door));
    return true;
  });
}

/**
 * Marks a review's received decision applied, with an "applied" audit entry, once (a second call
 * finds none waiting and writes nothing).
 *
 * @example await markDecisionApplied(store, "r-1", resume, "human_approved");
 */
export async function markDecisionApplied(
  store: ReviewStore,
  reviewId: string,
  resume: ResumeValue,
  outcome: string,
): Promise<void> {
  await store.transaction(async (tx) => {
    if (await tx.markApplied(reviewId)) await tx.audit(audits.applied(reviewId, resume, outcome));
  });
}
