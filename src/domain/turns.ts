import { setImmediate as nextTurn } from "node:timers/promises";

/** How long a piece of review work holds the event loop before it gives the loop a turn. */
export const SLICE_MS = 1;
/** The longest a slice waits for the answers under way before it goes on regardless. */
export const MAX_WAIT_MS = 50;

/** A response being written: what `Answers.track` needs of Node's `ServerResponse`. */
interface Response {
  once(event: "finish" | "close", listener: () => void): unknown;
}

/**
 * The requests this process is answering now (webhooks, Slack, /healthz), counted by its HTTP
 * servers: review work on the same thread waits for them between its slices (see `Turns`). It
 * also keeps when review work last gave the loop a turn, so that pieces of work run one after
 * another (one specialty's retrieval, then the next's) share one slice instead of each starting
 * its own. One per process, as the event loop is.
 */
export class Answers {
  private open = 0;
  private readonly waiting = new Set<() => void>();
  /** The count of requests being answered, mirrored for worker threads (see `shared`). */
  private cell: Int32Array | undefined;
  /** When review work last gave the event loop a turn (`performance.now()`). */
  lastTurn = performance.now();

  /** Told each time the last request being answered has finished (see `onQuiet`). */
  private readonly quietListeners = new Set<() => void>();

  /** Whether a request is being answered now. */
  get busy(): boolean {
    return this.open > 0;
  }

  /**
   * The count of requests being answered, as memory a worker thread shares (an Int32 at index 0,
   * kept equal to this count; waiters are notified when it falls to 0): review work on a worker
   * steps aside while it is above 0 (step-aside.ts).
   */
  shared(): SharedArrayBuffer {
    this.cell ??= new Int32Array(new SharedArrayBuffer(4));
    Atomics.store(this.cell, 0, this.open);
    return this.cell.buffer as SharedArrayBuffer;
  }

  /** Counts a request from now until its response has finished (or its connection closed). */
  track(res: Response): void {
    this.open++;
    if (this.cell) Atomics.store(this.cell, 0, this.open);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.open--;
      if (this.cell) {
        Atomics.store(this.cell, 0, this.open);
        if (this.open === 0) Atomics.notify(this.cell, 0);
      }
      if (this.open > 0) return;
      for (const wake of [...this.waiting]) wake();
      for (const listener of [...this.quietListeners]) listener();
    };
    res.once("finish", end);
    res.once("close", end);
  }

  /** Tells `listener` each time the last request being answered has finished; returns how to stop. */
  onQuiet(listener: () => void): () => void {
    this.quietListeners.add(listener);
    return () => void this.quietListeners.delete(listener);
  }

  /** Resolves once no request is being answered, or after `maxMs`. */
  quiet(maxMs: number): Promise<void> {
    if (this.open === 0 || maxMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, maxMs);
      this.waiting.add(wake);
    });
  }
}

/** This process's answers. */
export const ANSWERS = new Answers();

/**
 * Gives the event loop a turn, then lets the requests being answered finish (at most `maxMs`):
 * what a step of review work does before it goes on, when it is not sliced by a `Turns`.
 */
export async function answersFirst(maxMs = MAX_WAIT_MS, answers: Answers = ANSWERS): Promise<void> {
  await nextTurn();
  await answers.quiet(maxMs);
  answers.lastTurn = performance.now();
}

/**
 * The clock of one piece of work done on the thread that answers webhooks and Slack (a ledger of
 * 3,000 files, a search of 60,000 lines). Once it has held the event loop for `sliceMs` it gives
 * the loop a turn, then waits while requests are being answered: an answer waits at most a slice
 * for each of its own turns (a request takes several: the connection, its body, its write to the
 * database), whatever the size of the work. The work never waits longer in all than it has run
 * (nor over `MAX_WAIT_MS` at once), so a client that keeps a request open at most halves its pace.
 *
 * @example const turns = new Turns(); for (const f of files) { if (turns.due()) await turns.take(); ... }
 */
export class Turns {
  private readonly budget = new PauseBudget();

  constructor(
    private readonly sliceMs = SLICE_MS,
    private readonly answers: Answers = ANSWERS,
  ) {}

  /** Whether the loop has been held for a slice since review work last gave it a turn (this work or another). */
  due(): boolean {
    return performance.now() - this.answers.lastTurn >= this.sliceMs;
  }

  /** Gives the event loop a turn (whatever waits runs), lets the answers under way finish, and starts the next slice. */
  async take(): Promise<void> {
    const allowed = this.budget.pause();
    await nextTurn();
    const waiting = performance.now();
    await this.answers.quiet(allowed);
    this.answers.lastTurn = this.budget.resume(waiting);
  }
}

/**
 * What a piece of review work may spend waiting for answers: never longer in all than it has
 * worked (nor over `maxWaitMs` at once), so whatever keeps requests open at most halves its pace.
 * Shared by `Turns` on the answering thread and `StepAside` on a worker.
 *
 * @example const allowed = budget.pause(); await answers.quiet(allowed); budget.resume(pausedAt);
 */
export class PauseBudget {
  /** When the work started, or last came back from a pause: what it ran since counts as worked. */
  private since = performance.now();
  private worked = 0;
  private waited = 0;

  constructor(private readonly maxWaitMs = MAX_WAIT_MS) {}

  /** How long, in ms, the work has waited so far. */
  get waitedMs(): number {
    return this.waited;
  }

  /** The work starts (again) now, after a time that counts as neither work nor waiting. */
  start(): void {
    this.since = performance.now();
  }

  /** The work stops now (to pause, or for good): counts what it ran; returns how long it may wait now, in ms. */
  pause(): number {
    const now = performance.now();
    this.worked += now - this.since;
    this.since = now;
    return Math.min(this.maxWaitMs, this.worked - this.waited);
  }

  /** The pause begun at `pausedAt` (`performance.now()`) is over: counts it as waited; the work goes on now, which it returns. */
  resume(pausedAt: number): number {
    this.since = performance.now();
    this.waited += this.since - pausedAt;
    return this.since;
  }
}
