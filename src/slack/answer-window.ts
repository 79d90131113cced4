import type { Logger } from "pino";
import { refusalMessage } from "../domain/decision.js";

/** Slack waits 3 s for an interaction's answer; the gate answers by this many ms whatever Slack's API or the store do. */
export const ANSWER_DEADLINE_MS = 2500;

/** Said when a decision could not be stored before the answer was due: nothing was stored, and none will be. */
export const TRY_AGAIN = refusalMessage({ code: "too_late", reviewId: "" });

/**
 * One Slack request's answer window: `answer` acks once (never throws, a late or second ack is
 * logged), and the decision the request carries may be taken (`take`) only before the deadline.
 * When the deadline comes first with nothing taken, the window is closed: Slack is answered at
 * once, and `take` then says no, so the person can be told truthfully that nothing changed.
 *
 * @example const w = answerWindow(ack, { log }); if (w.take()) await storeDecision(); await w.answer();
 */
export interface AnswerWindow {
  /** Acks the request, once; later calls return the first's promise. Never throws. */
  answer(): Promise<void>;
  /**
   * Takes the decision (call just before storing it): true while the deadline has not passed, and
   * from then on the request is answered only once its decision is stored (or refused). False
   * after the deadline closed the window: store nothing.
   */
  take(): boolean;
  /** Resolves when the deadline closed the window with nothing taken (never otherwise). */
  readonly closed: Promise<void>;
  /** Whether the deadline closed the window with nothing taken. */
  readonly isClosed: boolean;
  /** Stops the timer (the work finished). */
  done(): void;
}

/**
 * Opens a request's answer window: the deadline starts now.
 *
 * @example const w = answerWindow(ack, { log, deadlineMs: 2500 });
 */
export function answerWindow(ack: () => Promise<void>, opts: { log: Logger; deadlineMs?: number }): AnswerWindow {
  let answered: Promise<void> | undefined;
  let taken = false;
  let closed = false;
  let close: () => void = () => undefined;
  const closedPromise = new Promise<void>((resolve) => {
    close = resolve;
  });
  const answer = (): Promise<void> =>
    (answered ??= ack().catch((error: unknown) => {
      opts.log.warn({ err: error }, "Slack's request could not be answered (answered late?)");
    }));
  const timer = setTimeout(() => {
    if (taken) {
      // Being stored now: Slack hears back at once, the outcome follows (the card, or an ephemeral).
      void answer();
      return;
    }
    closed = true;
    void answer();
    close();
  }, opts.deadlineMs ?? ANSWER_DEADLINE_MS);
  timer.unref();
  return {
    answer,
    take() {
      if (closed) return false;
      taken = true;
      return true;
    },
    closed: closedPromise,
    get isClosed() {
      return closed;
    },
    done: () => clearTimeout(timer),
  };
}
