import type { IncomingMessage, ServerResponse } from "node:http";
import { Answers } from "../domain/turns.js";

/** Runs a piece of background work on a later turn of the event loop. */
export type Later = (work: () => void) => void;

/** The plain scheduler: the next turn (what the queue did before answers came first). */
export const nextTurn: Later = (work) => void setImmediate(work);

/**
 * Webhook answers before background work. While any webhook request is being answered, the
 * work handed to `later` (announcing a queued review, starting the queue's next job) waits; it
 * runs on the turn after the last answer has gone out, or after `maxDelayMs` if answers never
 * stop coming. A burst of deliveries is answered at the pace of the answers alone, instead of
 * each answer waiting behind the review steps the earlier deliveries started (GitHub gives up
 * on an answer after 10 s).
 *
 * @example const first = new AnswersFirst(); route.handler = first.answering(handler); queue = new ReviewQueue(2, log, first.later);
 */
export class AnswersFirst {
  private readonly answers = new Answers(() => this.flushSoon());
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;
  private overdue: NodeJS.Timeout | undefined;

  constructor(private readonly maxDelayMs = 1000) {}

  /** Wraps a request handler: its request counts from arrival until its answer has finished (or the socket closed). */
  answering(handler: (req: IncomingMessage, res: ServerResponse) => void) {
    return (req: IncomingMessage, res: ServerResponse): void => {
      this.answers.track(res);
      handler(req, res);
    };
  }

  /** Schedules background work: on a later turn, once no answer is pending (at most `maxDelayMs` late). */
  readonly later: Later = (work) => {
    this.waiting.push(work);
    if (!this.answers.busy) this.flushSoon();
    else this.overdue ??= setTimeout(() => this.flush(), this.maxDelayMs);
  };

  private flushSoon(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.answers.busy) this.flush();
    });
  }

  private flush(): void {
    clearTimeout(this.overdue);
    this.overdue = undefined;
    for (const work of this.waiting.splice(0)) work();
  }
}
