import type { Logger } from "pino";
import type { JobHandler, ReviewJob, ReviewJobs } from "../domain/review-jobs.js";
import { type Later, onNextTurn } from "./answers-first.js";
import { InFlight } from "./in-flight.js";

/**
 * Runs review jobs in the background, at most `concurrency` at once (GATE_CONCURRENCY), in the
 * order they came. A job's failure is logged; it never stops the queue or the process.
 *
 * @example queue.push(() => runner.run(id)); await queue.idle();
 */
export class ReviewQueue {
  private running = 0;
  private readonly waiting: Array<() => Promise<unknown>> = [];
  /** Every job from push to finish, waiting or running. */
  private readonly pending = new InFlight();

  /** `later` decides when jobs start: the next turn unless told (the server passes AnswersFirst's). */
  constructor(
    private readonly concurrency: number,
    private readonly log: Logger,
    private readonly later: Later = onNextTurn,
  ) {}

  /**
   * Queues a job. It is counted at once (`idle` waits for it) but starts through `later`, never in
   * the caller's turn: the webhook's answer goes out before any review work runs, and acks are not
   * held up behind a review's synchronous steps.
   */
  push(job: () => Promise<unknown>): void {
    let finished!: () => void;
    void this.pending.track(new Promise<void>((resolve) => (finished = resolve)));
    this.waiting.push(() => Promise.resolve().then(job).finally(finished));
    this.later(() => this.pump());
  }

  /** Resolves when nothing is running or waiting (tests, shutdown). */
  idle(): Promise<void> {
    return this.pending.idle();
  }

  get size(): number {
    return this.running + this.waiting.length;
  }

  private pump(): void {
    while (this.running < this.concurrency) {
      const job = this.waiting.shift();
      if (!job) return;
      this.running++;
      void job()
        .catch((error: unknown) => this.log.error({ err: error }, "review job failed"))
        .finally(() => {
          this.running--;
          this.later(() => this.pump());
        });
    }
  }
}

/**
 * The review jobs of one process (SQLite): `ReviewQueue` running each job through the handler,
 * at most `concurrency` at once. A job is queued at once, even inside a store transaction (the
 * single SQLite connection makes its first read wait for the transaction).
 *
 * @example const jobs = new InProcessJobs(2, log, (job) => handle(job)); await jobs.enqueue({ kind: "recover" });
 */
export class InProcessJobs implements ReviewJobs {
  private readonly queue: ReviewQueue;

  constructor(
    concurrency: number,
    log: Logger,
    private readonly handle: JobHandler,
    /** When jobs start (AnswersFirst's `later` in the server). */
    later: Later = onNextTurn,
  ) {
    this.queue = new ReviewQueue(concurrency, log, later);
  }

  async enqueue(job: ReviewJob): Promise<void> {
    this.queue.push(() => this.handle(job));
  }

  async depth(): Promise<number> {
    return this.queue.size;
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** One process holds every job: closing runs what is queued (a restart's `recover` would otherwise). */
  close(): Promise<void> {
    return this.queue.idle();
  }
}
