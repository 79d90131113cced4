/**
 * One promise chain per key: work for a key starts after the key's previous work settles (kept
 * or failed), while work for other keys runs side by side. In-process only; across processes the
 * review store's `claim` decides.
 *
 * @example const lock = new KeyedLock(); await lock.run(reviewId, () => apply(reviewId));
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` once every earlier `run` for `key` has settled; returns what it returns. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.tails.set(key, next);
    try {
      return await next;
    } finally {
      if (this.tails.get(key) === next) this.tails.delete(key);
    }
  }

  /** How many keys have work queued or running. */
  get size(): number {
    return this.tails.size;
  }
}
