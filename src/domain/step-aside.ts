import { MAX_WAIT_MS, PauseBudget } from "./turns.js";

/**
 * Review work on a worker thread making way for the answering thread. Both threads share the
 * machine's cores (and their caches): beside a worker detecting a 3,000-file change, the code that
 * answers a webhook took about twice as long as on an idle machine, whatever the worker's nice
 * value, since the two run side by side on separate cores. So while that thread is answering
 * requests (its `Answers` count, shared with the worker: `Answers.shared`), a worker's work pauses
 * at its next step, and goes on once the answers have gone out. Like a `Turns` on the answering thread, it never waits
 * longer in all than it has worked since it began (nor over `maxWaitMs` at once), so a client
 * holding requests open at most halves a review's pace.
 *
 * @example const aside = new StepAside(new Int32Array(shared)); await aside.during(async () => { for (const f of files) { aside.step(); ... } });
 */
export class StepAside {
  private readonly budget: PauseBudget;
  private jobs = 0;

  /** `answering`: the answering thread's count of requests being answered (an Int32 at index 0). */
  constructor(
    private readonly answering: Int32Array,
    maxWaitMs = MAX_WAIT_MS,
  ) {
    this.budget = new PauseBudget(maxWaitMs);
  }

  /** How long, in ms, this thread's jobs have waited for answers so far. */
  get waitedMs(): number {
    return this.budget.waitedMs;
  }

  /** Runs one job of review work: its time counts as worked (the budget of its pauses); an idle worker's does not. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    if (this.jobs++ === 0) this.budget.start();
    try {
      return await work();
    } finally {
      if (--this.jobs === 0) this.budget.pause();
    }
  }

  /** Between two pieces of a job: returns at once when nothing is being answered, else once the answers are out (bounded). */
  step(): void {
    let open = Atomics.load(this.answering, 0);
    if (open === 0 || this.jobs === 0) return;
    const paused = performance.now();
    const until = paused + this.budget.pause();
    for (let now = paused; open > 0 && now < until; now = performance.now()) {
      // Woken when the last answer goes out (`Answers` notifies), or at the bound.
      Atomics.wait(this.answering, 0, open, until - now);
      open = Atomics.load(this.answering, 0);
    }
    this.budget.resume(paused);
  }
}

/** This thread's way aside (undefined: none, as on the answering thread itself). */
let current: StepAside | undefined;

/** Makes `aside` this worker thread's way aside: the steps of review work it reaches (`stepAside`) pause while the answering thread answers. */
export function installStepAside(aside: StepAside | undefined): void {
  current = aside;
}

/**
 * A step of review work that may run on a worker (a file parsed, a file's added text read): there
 * it makes way for the answering thread's answers; anywhere else it does nothing.
 */
export function stepAside(): void {
  current?.step();
}
