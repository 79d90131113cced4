/** Sends the latest of a stream of values at most once per interval, in order, never after finish. */
export interface ProgressThrottle<T> {
  /** Offers a value; it is sent now, or later if a send happened less than an interval ago. */
  push(value: T): void;
  /** Drops anything not yet sent and waits for sends in flight, so a final update lands last. */
  finish(): Promise<void>;
}

/**
 * Throttles card updates during an investigation (Slack rate-limits `chat.update`).
 *
 * @example const t = throttleProgress({ intervalMs: 3000, send: (p) => updateCard(p) }); t.push(p); await t.finish();
 */
export function throttleProgress<T>(opts: {
  intervalMs: number;
  send: (value: T) => Promise<void>;
  onError?: (error: unknown) => void;
  now?: () => number;
}): ProgressThrottle<T> {
  const now = opts.now ?? Date.now;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let pending: { value: T } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let finished = false;

  const fire = (): void => {
    timer = undefined;
    if (finished || !pending) return;
    const { value } = pending;
    pending = undefined;
    lastSentAt = now();
    chain = chain.then(() => opts.send(value)).catch((error: unknown) => opts.onError?.(error));
  };

  return {
    push(value) {
      if (finished) return;
      pending = { value };
      if (timer) return;
      const wait = lastSentAt + opts.intervalMs - now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    async finish() {
      finished = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
      await chain;
    },
  };
}
