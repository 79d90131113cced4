import type { Logger } from "pino";
import type { Recorded, WebhookDelivery, WebhookSink } from "../github/webhook.js";
import type { InboxEntry, ReviewStore } from "../domain/review-store.js";
import type { ReviewJobs } from "../domain/review-jobs.js";
import type { StartRerun } from "./reruns.js";

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
}): WebhookSink {
  return {
    closed: (delivery) =>
      deps.store.transaction(async (tx) => {
        if (!(await tx.recordDelivery(delivery.id, delivery.event))) return { duplicate: true };
        await deps.jobs.enqueue({ kind: "close", pr: delivery.pr }, tx);
        return { duplicate: false };
      }),
    rerun(request) {
      const log = deps.log.child({ deliveryId: request.id, repo: request.repo, headSha: request.headSha });
      return deps.store.transaction(async (tx): Promise<Recorded> => {
        if (!(await tx.recordDelivery(request.id, request.event))) return { duplicate: true };
        // The check run names its review; a suite names only its head and pull requests.
        const named = request.reviewId ? await tx.get(request.reviewId) : undefined;
        let target = named && named.repo === request.repo && named.headSha === request.headSha ? named : undefined;
        for (const n of target ? [] : request.numbers) {
          const latest = await tx.latestForPr(`${request.repo}#${n}`);
          if (latest?.headSha === request.headSha) {
            target = latest;
            break;
          }
        }
        if (!target || target.status === "closed")
          log.info({ found: target?.id }, "re-run of a head the gate has no open pull request for; ignored");
        else await deps.rerun(target.id, `github:${request.by}`);
        return { duplicate: false };
      });
    },
    async accept(delivery: WebhookDelivery): Promise<Recorded> {
      const p = delivery.payload;
      const skipped = delivery.draft && !deps.reviewDrafts;
      const entry: InboxEntry | undefined = skipped
        ? undefined
        : {
            review: {
              source: {
                kind: "github",
                owner: p.repository.owner.login,
                repo: p.repository.name,
                number: p.pull_request.number,
                headSha: p.pull_request.head.sha,
                ...(p.installation ? { installationId: p.installation.id } : {}),
              },
              repo: p.repository.full_name,
              number: p.pull_request.number,
              headSha: p.pull_request.head.sha,
              title: p.pull_request.title,
              url: p.pull_request.html_url,
              author: p.pull_request.user?.login ?? "unknown",
              ...(p.installation ? { installationId: p.installation.id } : {}),
              ...(p.pull_request.updated_at ? { eventAt: p.pull_request.updated_at } : {}),
            },
            baseChanged: delivery.action === "edited" && p.changes?.base != null,
          };
      const recorded = await deps.store.transaction(async (tx) => {
        if (!(await tx.recordDelivery(delivery.id, delivery.event, entry))) return false;
        if (entry) await deps.jobs.enqueue({ kind: "register", deliveryId: delivery.id }, tx);
        return true;
      });
      if (recorded && skipped) {
        deps.log.info(
          { deliveryId: delivery.id, pr: `${p.repository.full_name}#${p.pull_request.number}` },
          "draft skipped (GATE_REVIEW_DRAFTS=false)",
        );
      }
      return { duplicate: !recorded };
    },
  };
}
