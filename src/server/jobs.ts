import type { Logger } from "pino";
import type { Gate } from "../build-gate.js";
import type { TriagePush } from "../domain/pushed-change.js";
import type { JobHandler, ReviewJob, ReviewJobs } from "../domain/review-jobs.js";
import type { ReviewStore } from "../domain/review-store.js";
import { leftoverWork, RUN_AFTER_RESTART } from "../review/leftover-work.js";
import type { ReviewRunner } from "../review/runner.js";
import type { Later } from "./answers-first.js";
import { createInbox, type Inbox } from "./inbox.js";
import { InProcessJobs } from "./review-queue.js";

/**
 * What each review job does, by kind, through the runner. A review or re-run whose review has
 * already settled (another process ran it, and died before publishing) only publishes what it
 * concluded; an unknown review (its registration was rolled back) is nothing to do.
 *
 * A register job registers its delivery's review (`Inbox`); the restart's `recover` also registers
 * every delivery left unregistered, after finishing what the runner left.
 *
 * @example const jobs = new InProcessJobs(2, log, reviewJobHandler(gate.runner, inbox));
 */
export function reviewJobHandler(runner: ReviewRunner, inbox: Inbox): JobHandler {
  return async (job) => {
    switch (job.kind) {
      case "review":
      case "rerun": {
        const review = await runner.get(job.reviewId);
        if (!review) return;
        if (review.status !== "queued" && review.status !== "running") {
          await runner.publishIfUnpublished(review.id);
          return;
        }
        // A push's review stands alone: no earlier head of a pull request to supersede.
        if (review.source !== "push") {
          if (job.kind === "review") await runner.supersedeOlder(review.pr, review.headSha, review.id);
          else await runner.supersedeForRerun(review);
        }
        await runner.run(review.id);
        return;
      }
      case "decision":
        await runner.finishReceived(job.reviewId);
        await runner.publishIfUnpublished(job.reviewId);
        return;
      case "publish":
        await runner.publishIfUnpublished(job.reviewId);
        return;
      case "close":
        if (job.merge) await runner.mergePr(job.pr, job.merge);
        else await runner.closePr(job.pr);
        return;
      case "label":
        await runner.labelPr(job.pr, job.label, job.by);
        return;
      case "register":
        await inbox.register(job.deliveryId);
        return;
      case "recover":
        await runner.recover();
        // Then the deliveries whose review was not registered yet: each registers and queues its review.
        for (const deliveryId of await inbox.pending()) await inbox.register(deliveryId);
        return;
      case "hand_over":
        await runner.handToPerson(job.reviewId, job.why);
        return;
    }
  };
}

/**
 * At a replica's start (PostgreSQL): queues a job for what no job covers (a decision received, a
 * review queued, a result unpublished, by a process outside the queue such as a copy from
 * SQLite), never for work another replica holds: the same list a restart on SQLite finishes
 * (`leftoverWork`), but of the reviews only the queued ones (a running one may be another live
 * process's); then a register job for each delivery whose review is not registered and whose job
 * is gone (one dropped after failing too often, or copied from SQLite). Returns how many it queued.
 *
 * @example const queued = await adoptUnqueued(gate.store, gate.jobQueue);
 */
export async function adoptUnqueued(
  store: ReviewStore,
  queue: { adopt(job: ReviewJob): Promise<boolean> },
): Promise<number> {
  let adopted = 0;
  for await (const job of leftoverWork(store, ["queued"])) if (await queue.adopt(job)) adopted++;
  for (const deliveryId of await store.inboxDeliveries()) {
    if (await queue.adopt({ kind: "register", deliveryId })) adopted++;
  }
  return adopted;
}

/**
 * The server's background work: the queue (PostgreSQL: the job table every replica takes from;
 * SQLite: this process's), the delivery inbox, and the handler of each job kind. The handler
 * needs the inbox, the inbox the queue, and the queue the handler: the queue gets a forwarder
 * that reaches the handler once it exists (no job runs before it does).
 *
 * @example const { jobs, handle } = wireJobs(gate, { concurrency: 2, log, later: answersFirst.later });
 */
export function wireJobs(gate: Gate, opts: { concurrency: number; log: Logger; later: Later; triage?: TriagePush }) {
  const handleJob: JobHandler = (job) => handle(job);
  const jobs: ReviewJobs = gate.jobQueue ?? new InProcessJobs(opts.concurrency, opts.log, handleJob, opts.later);
  const inbox = createInbox({
    store: gate.store,
    runner: gate.runner,
    jobs,
    log: opts.log,
    later: opts.later,
    ...(opts.triage ? { triage: opts.triage } : {}),
  });
  const handle = reviewJobHandler(gate.runner, inbox);
  return { jobs, handle: handleJob };
}

/**
 * What a start takes up again; returns how many reviews and deliveries it found. PostgreSQL:
 * replicas share the work: this one takes jobs (`concurrency` at once), and a job whose replica
 * died is taken over once its lease expires; nothing else is recovered here, as another replica
 * may be running it, and only what no job covers is queued (`adoptUnqueued`). SQLite: reviews
 * that were queued or running run again, unpublished results are published, and deliveries whose
 * review was not registered yet are registered (the `recover` job).
 *
 * @example const pending = await resumeOnStart(gate, jobs, handle, 2);
 */
export async function resumeOnStart(
  gate: Gate,
  jobs: ReviewJobs,
  handle: JobHandler,
  concurrency: number,
): Promise<number> {
  if (gate.jobQueue) {
    await gate.jobQueue.start(handle, concurrency);
    return adoptUnqueued(gate.store, gate.jobQueue);
  }
  const pending =
    (await gate.store.withStatus(...RUN_AFTER_RESTART)).length + (await gate.store.inboxDeliveries()).length;
  await jobs.enqueue({ kind: "recover" });
  return pending;
}
