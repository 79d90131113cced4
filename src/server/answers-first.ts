import { ANSWERS, type Answers } from "../domain/turns.js";

/** Runs a piece of background work on a later turn of the event loop. */
export type Later = (work: () => void) => void;

/** The plain scheduler: the next turn (what the queue did before answers came first). */
export const onNextTurn: Later = (work) => void setImmediate(work);

/**
 * Answers before background work. While any request is being answered (the process's `Answers`,
 * which its HTTP servers count: webhooks, Slack, /healthz), the work handed to `later`
 * (announcing a queued review, starting the queue's next job) waits; it runs on the turn after
 * the last answer has gone out, or after `maxDelayMs` if answers never stop coming. A burst of
 * deliveries is answered at the pace of the answers alone, instead of each answer waiting behind
 * the review steps the earlier deliveries started (GitHub gives up on an answer after 10 s).
 *
 * @example const first = new AnswersFirst(); queue = new ReviewQueue(2, log, first.later); ... first.close();
 */
export class AnswersFirst {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;
  private overdue: NodeJS.Timeout | undefined;
  private readonly stopListening: () => void;

  constructor(
    private readonly maxDelayMs = 1000,
    private readonly answers: Answers = ANSWERS,
  ) {
    this.stopListening = answers.onQuiet(() => this.flushSoon());
  }

  /** Stops listening for quiet (a server shutting down); work handed to `later` still runs, at once. */
  close(): void {
    this.stopListening();
    this.flush();
  }

  /** Schedules background work: on a later turn, once no answer is pending (at most `maxDelayMs` late). */
  readonly later: Later = (work) => {
    this.waiting.push(work);
    if (!this.answers.busy) this.flushSoon();
    else this.bound();
  };

  /** While answers go on: the held work runs at the latest `maxDelayMs` from now (or from an earlier bound). */
  private bound(): void {
    this.overdue ??= setTimeout(() => this.flush(), this.maxDelayMs);
  }

  private flushSoon(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.answers.busy) this.flush();
      // A request came in meanwhile: its end flushes, or the bound does if answers never stop.
      else this.bound();
    });
  }

  private flush(): void {
    clearTimeout(this.overdue);
    this.overdue = undefined;
    for (const work of this.waiting.splice(0)) work();
  }
}
