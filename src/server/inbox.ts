import type { Logger } from "pino";
import type { ReviewJobs } from "../domain/review-jobs.js";
import type { ReviewStore } from "../domain/review-store.js";
import type { ReviewRunner } from "../review/runner.js";
import type { Later } from "./answers-first.js";
import { prKey } from "../domain/pull-request.js";
import type { TriagePush } from "../domain/pushed-change.js";
import { audits } from "../review/audit-entries.js";
import { registerPush } from "./push-inbox.js";

/**
 * The delivery inbox: the second half of taking a pull_request delivery. The webhook's answer
 * waits only for the delivery and what it asks (its inbox entry) to be on disk; registering the
 * review is the `register` job's, after the answer. Should the process stop in between, the entry
 * is still in the inbox: a restart registers it (SQLite), or another replica takes its job over
 * (PostgreSQL).
 */
export interface Inbox {
  /**
   * Registers the review a delivery asked for, unless its head is under review already, and
   * queues its `review` job, all in one transaction with taking the entry; a second call for
   * the same delivery finds nothing to take and does nothing.
   */
  register(deliveryId: string): Promise<void>;
  /** Deliveries whose review is not registered yet, oldest first. */
  pending(): Promise<string[]>;
}

/**
 * The inbox on the gate's store, registering through the runner and queueing on `jobs`.
 *
 * @example const inbox = createInbox({ store, runner, jobs, log, later }); await inbox.register(deliveryId);
 */
export function createInbox(deps: {
  store: ReviewStore;
  runner: ReviewRunner;
  jobs: ReviewJobs;
  log: Logger;
  /** When the "in progress" announcement goes out: after the answers being written (AnswersFirst). */
  later: Later;
  /** Asks GitHub which commits of a push came through a merged pull request (without it, none did). */
  triage?: TriagePush;
}): Inbox {
  return {
    pending: () => deps.store.inboxDeliveries(),
    async register(deliveryId) {
      // A push is looked up at GitHub first (outside any transaction), then registered, if at all.
      const kept = await deps.store.peekInbox(deliveryId);
      if (kept && "push" in kept) return registerPush(deps, deliveryId, kept.push);
      const registered = await deps.store.transaction(async (tx) => {
        const entry = await tx.takeFromInbox(deliveryId);
        if (!entry || "push" in entry) return undefined;
        const { review, baseChanged } = entry;
        const pr = prKey(review);
        // Reopened or marked ready with the same head: the review of that commit stands. Not so
        // when the base branch changed: the same head has another diff, and the older review is superseded.
        const open = (await tx.openForPr(pr)).find((r) => r.headSha === review.headSha);
        if (open && !baseChanged) {
          deps.log.info({ deliveryId, pr, reviewId: open.id }, "this head is already under review");
          return undefined;
        }
        const registered = await deps.runner.register(review, tx);
        // Said in the audit log: an earlier decision never carries across a retarget (docs/fingerprints.md).
        if (baseChanged) await tx.audit(audits.retargeted(registered.id, review.headSha));
        await deps.jobs.enqueue({ kind: "review", reviewId: registered.id }, tx);
        return registered;
      });
      if (!registered) return;
      deps.log.info({ deliveryId, pr: registered.pr, reviewId: registered.id }, "review queued");
      // The head shows "in progress" now, not when the queue reaches it; after any answers being written.
      deps.later(() => void deps.runner.announce(registered.id));
    },
  };
}
