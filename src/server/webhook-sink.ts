import type { Logger } from "pino";
import { baseChanged, type Recorded, type WebhookDelivery, type WebhookSink } from "../github/webhook.js";
import type { InboxEntry, ReviewStore } from "../domain/review-store.js";
import type { ReviewJobs } from "../domain/review-jobs.js";
import type { DecideFromGitHub } from "./github-decisions.js";
import type { StartRerun } from "./reruns.js";
import { prKey } from "../domain/pull-request.js";
import { registrationFor } from "../review/registration.js";

/**
 * Where verified deliveries go. Before GitHub gets its answer, each is recorded (a redelivery is
 * then ignored) with the job it calls for, in one transaction, so a crash after the answer loses
 * nothing. A pull_request delivery is recorded with its inbox entry, what it asks of the gate,
 * and its `register` job registers the review after the answer (`createInbox`); a restart (SQLite)
 * or another replica (PostgreSQL, once the job's lease expires) does it if this process stops
 * first. Nothing of a review runs before the answer has gone out.
 */
export function createWebhookSink(deps: {
  store: ReviewStore;
  jobs: ReviewJobs;
  reviewDrafts: boolean;
  log: Logger;
  rerun: StartRerun;
  /** Decisions from the check run's Approve and Reject (`createGitHubDecisions`). */
  decide?: DecideFromGitHub;
}): WebhookSink {
  /**
   * Records a delivery (with its inbox entry, if it has one) and, unless it is a redelivery, acts
   * on it, in one transaction: the shape every kind of delivery shares.
   */
  const recordOnce = (
    delivery: { id: string; event: string },
    act: (tx: ReviewStore) => Promise<void>,
    entry?: InboxEntry,
  ): Promise<Recorded> =>
    deps.store.transaction(async (tx) => {
      if (!(await tx.recordDelivery(delivery.id, delivery.event, entry))) return { duplicate: true };
      await act(tx);
      return { duplicate: false };
    });

  const decide = deps.decide;
  return {
    // Recorded first (a redelivery decides nothing twice), then decided outside that transaction:
    // the decision takes its own (the claim that makes one of Slack and GitHub win).
    ...(decide
      ? {
          async decide(request) {
            const recorded = await recordOnce(request, async () => {});
            return recorded.duplicate ? recorded : { ...recorded, ...(await decide(request)) };
          },
        }
      : {}),
    // The push is kept in the inbox; its `register` job asks GitHub about its commits after the answer.
    pushed: (delivery) =>
      recordOnce(delivery, (tx) => deps.jobs.enqueue({ kind: "register", deliveryId: delivery.id }, tx), {
        push: delivery.push,
      }),
    labeled: (delivery) =>
      recordOnce(delivery, (tx) =>
        deps.jobs.enqueue(
          { kind: "label", pr: delivery.pr, label: delivery.label, ...(delivery.by ? { by: delivery.by } : {}) },
          tx,
        ),
      ),
    closed: (delivery) =>
      recordOnce(delivery, (tx) =>
        deps.jobs.enqueue({ kind: "close", pr: delivery.pr, ...(delivery.merge ? { merge: delivery.merge } : {}) }, tx),
      ),
    rerun(request) {
      const log = deps.log.child({ deliveryId: request.id, repo: request.repo, headSha: request.headSha });
      return recordOnce(request, async (tx) => {
        // The check run names its review; a suite names only its head and pull requests.
        const named = request.reviewId ? await tx.get(request.reviewId) : undefined;
        let target = named && named.repo === request.repo && named.headSha === request.headSha ? named : undefined;
        for (const n of target ? [] : request.numbers) {
          const latest = await tx.latestForPr(prKey({ repo: request.repo, number: n }));
          if (latest?.headSha === request.headSha) {
            target = latest;
            break;
          }
        }
        if (!target || target.status === "closed")
          log.info({ found: target?.id }, "re-run of a head the gate has no open pull request for; ignored");
        else await deps.rerun(target.id, `github:${request.by}`);
      });
    },
    async accept(delivery: WebhookDelivery): Promise<Recorded> {
      if (delivery.draft && !deps.reviewDrafts) {
        const recorded = await recordOnce(delivery, async () => {});
        if (!recorded.duplicate) {
          const p = delivery.payload;
          deps.log.info(
            { deliveryId: delivery.id, pr: prKey({ repo: p.repository.full_name, number: p.pull_request.number }) },
            "draft skipped (GATE_REVIEW_DRAFTS=false)",
          );
        }
        return recorded;
      }
      const register = (tx: ReviewStore) => deps.jobs.enqueue({ kind: "register", deliveryId: delivery.id }, tx);
      return recordOnce(delivery, register, inboxEntry(delivery));
    },
  };
}

/** What a pull_request delivery asks of the gate: the review to register, kept in the inbox until it is. */
function inboxEntry(delivery: WebhookDelivery): InboxEntry {
  const p = delivery.payload;
  return {
    review: registrationFor(
      {
        kind: "github",
        owner: p.repository.owner.login,
        repo: p.repository.name,
        number: p.pull_request.number,
        headSha: p.pull_request.head.sha,
        ...(p.installation ? { installationId: p.installation.id } : {}),
        // The emergency label, if the PR carries it, and who sent the delivery (who labelled it, on `labeled`).
        ...(p.pull_request.labels ? { labels: p.pull_request.labels.map((l) => l.name) } : {}),
        ...(p.sender ? { sender: p.sender.login } : {}),
      },
      {
        repo: p.repository.full_name,
        number: p.pull_request.number,
        headSha: p.pull_request.head.sha,
        title: p.pull_request.title,
        url: p.pull_request.html_url,
        author: p.pull_request.user?.login ?? "unknown",
        ...(p.installation ? { installationId: p.installation.id } : {}),
        ...(p.pull_request.updated_at ? { eventAt: p.pull_request.updated_at } : {}),
      },
    ),
    baseChanged: delivery.action === "edited" && baseChanged(p),
  };
}
