import type { Logger } from "pino";
import type { Accepted, Recorded, WebhookDelivery, WebhookSink } from "../github/webhook.js";
import type { ReviewRunner } from "../review/runner.js";
import type { ReviewStore } from "../domain/review-store.js";
import type { ReviewJobs } from "../domain/review-jobs.js";
import type { Later } from "./answers-first.js";
import type { StartRerun } from "./reruns.js";

/** What the accepting transaction returns for a delivery id it has recorded before. */
const DUPLICATE = Symbol("duplicate delivery");

/**
 * Where verified pull_request deliveries go. Before GitHub gets its answer, the delivery is
 * recorded (a redelivery is then ignored), the review registered and its job queued, in one
 * transaction, so a crash after the answer loses nothing: the review is queued, and `recover`
 * (SQLite) or another replica (PostgreSQL, once the job's lease expires) runs it. The review
 * itself runs in the background, starting only after the answer has gone out; older reviews of
 * the PR are superseded first (the `review` job).
 */
export function createWebhookSink(deps: {
  store: ReviewStore;
  runner: ReviewRunner;
  jobs: ReviewJobs;
  reviewDrafts: boolean;
  log: Logger;
  rerun: StartRerun;
  /** When the "in progress" announcement goes out: after the answers being written (AnswersFirst). */
  later: Later;
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
    async accept(delivery: WebhookDelivery): Promise<Accepted> {
      const p = delivery.payload;
      const pr = `${p.repository.full_name}#${p.pull_request.number}`;
      const headSha = p.pull_request.head.sha;
      // Made only for the rare lines below: the delivery's one usual line is the handler's.
      const log = () => deps.log.child({ deliveryId: delivery.id, pr });
      const registered = await deps.store.transaction(async (tx) => {
        if (!(await tx.recordDelivery(delivery.id, delivery.event))) return DUPLICATE;
        if (delivery.draft && !deps.reviewDrafts) {
          log().info("draft skipped (GATE_REVIEW_DRAFTS=false)");
          return undefined;
        }
        // Reopened or marked ready with the same head: the review of that commit stands. Not so when
        // the base branch changed: the same head has another diff, and the older review is superseded.
        const open = (await tx.openForPr(pr)).find((r) => r.headSha === headSha);
        if (open && !(delivery.action === "edited" && p.changes?.base)) {
          log().info({ reviewId: open.id }, "this head is already under review");
          return undefined;
        }
        const review = await deps.runner.register(
          {
            source: {
              kind: "github",
              owner: p.repository.owner.login,
              repo: p.repository.name,
              number: p.pull_request.number,
              headSha,
              ...(p.installation ? { installationId: p.installation.id } : {}),
            },
            repo: p.repository.full_name,
            number: p.pull_request.number,
            headSha,
            title: p.pull_request.title,
            url: p.pull_request.html_url,
            author: p.pull_request.user?.login ?? "unknown",
            ...(p.installation ? { installationId: p.installation.id } : {}),
            ...(p.pull_request.updated_at ? { eventAt: p.pull_request.updated_at } : {}),
          },
          tx,
        );
        await deps.jobs.enqueue({ kind: "review", reviewId: review.id }, tx);
        return review;
      });
      if (registered === DUPLICATE) return { duplicate: true };
      if (!registered) return { duplicate: false, reviewId: undefined };
      // The head shows "in progress" now, not when the queue reaches it; but after GitHub has its
      // answer (the queue starts jobs through `later` too), so the ack waits for no HTTP call.
      deps.later(() => void deps.runner.announce(registered.id));
      return { duplicate: false, reviewId: registered.id };
    },
  };
}
