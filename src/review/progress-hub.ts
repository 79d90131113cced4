import type { InvestigationProgress } from "../domain/review.js";

/**
 * Routes live investigation progress from the graph to whoever watches that review
 * (the CLI's stderr line, the Slack card).
 *
 * @example const stop = hub.listen("r-1", (p) => console.error(p.tool_calls)); ... stop();
 */
export class ProgressHub {
  private readonly listeners = new Map<string, Set<(p: InvestigationProgress) => void>>();

  listen(reviewId: string, fn: (p: InvestigationProgress) => void): () => void {
    const set = this.listeners.get(reviewId) ?? new Set();
    set.add(fn);
    this.listeners.set(reviewId, set);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.listeners.delete(reviewId);
    };
  }

  emit(p: InvestigationProgress): void {
    for (const fn of this.listeners.get(p.reviewId) ?? []) {
      try {
        fn(p);
      } catch {
        // A watcher's failure must never stop a review.
      }
    }
  }
}
