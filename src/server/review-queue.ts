import type { Logger } from "pino";

/**
 * Runs review jobs in the background, at most `concurrency` at once (GATE_CONCURRENCY), in the
 * order they came. A job's failure is logged; it never stops the queue or the process.
 *
 * @example queue.push(() => runner.run(id)); await queue.idle();
 */
export class ReviewQueue {
  private running = 0;
  private readonly waiting: Array<() => Promise<unknown>> = [];
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly log: Logger,
  ) {}

  push(job: () => Promise<unknown>): void {
    this.waiting.push(job);
    this.pump();
  }

  /** Resolves when nothing is running or waiting (tests, shutdown). */
  idle(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  get size(): number {
    return this.running + this.waiting.length;
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.running++;
      void job()
        .catch((error: unknown) => this.log.error({ err: error }, "review job failed"))
        .finally(() => {
          this.running--;
          this.pump();
          if (this.running === 0 && this.waiting.length === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const w of waiters) w();
          }
        });
    }
  }
}
