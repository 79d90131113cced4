import type { ReviewService } from "../domain/review.js";

/**
 * Counts work in progress and tells when none is left.
 *
 * @example const inFlight = new InFlight(); void inFlight.track(work()); await inFlight.idle();
 */
export class InFlight {
  private count = 0;
  private waiters: Array<() => void> = [];

  /** Counts `work` until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.count++;
    // Counted down a turn late, so that the handler's next call (status, then decide) is counted
    // before `idle` can see zero.
    const done = () => void setImmediate(() => this.settle());
    work.then(done, done);
    return work;
  }

  private settle(): void {
    this.count--;
    if (this.count > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves once nothing tracked is running. */
  idle(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}

/**
 * The review service as Slack sees it, with every decision and status read counted, so that
 * shutdown waits for a decision a click started (Bolt acks first and decides after the HTTP
 * answer, outside the review queue) instead of closing the database under it.
 *
 * @example const service = trackedService(gate.runner, inFlight); await inFlight.idle();
 */
export function trackedService(inner: ReviewService, inFlight: InFlight): ReviewService {
  return {
    approvers: inner.approvers,
    check: (reviewId, attempt, door) => inFlight.track(inner.check(reviewId, attempt, door)),
    decide: (reviewId, resume, opts) => inFlight.track(inner.decide(reviewId, resume, opts)),
    decideAfterMerge: (reviewId, decision, opts) => inFlight.track(inner.decideAfterMerge(reviewId, decision, opts)),
    status: (ref) => inFlight.track(inner.status(ref)),
    get: (reviewId) => inner.get(reviewId),
    listWaiting: () => inner.listWaiting(),
  };
}
