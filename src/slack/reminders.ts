import type { webApi } from "@slack/bolt";
import type { Logger } from "pino";
import type { Clock } from "../domain/clock.js";
import type { ReviewResult } from "../domain/review-result.js";
import type { ReviewRecord } from "../domain/review.js";
import { formatAge, reminderText } from "./thread-notes.js";

export interface ReminderOptions {
  client: webApi.WebClient;
  /** GATE_REMINDER_AFTER in ms. */
  afterMs: number;
  /** GATE_REMINDER_ESCALATE_TO: mentioned once a review has waited twice as long. */
  escalateTo: readonly string[];
  clock: Clock;
  /** Reviews waiting for a person. */
  waiting(): Promise<ReviewRecord[]>;
  /** A review's last result (for who may decide on it). */
  resultOf(reviewId: string): Promise<ReviewResult | undefined>;
  /** Who may decide on a review: the ids to mention. */
  deciders(review: ReviewRecord, result: ReviewResult | undefined): readonly string[];
  /** Claims a thread message once (stored: a restart never reminds twice). */
  claimNote(key: string, reviewId: string): Promise<boolean>;
  log: Logger;
}

/**
 * Brings waiting reviews up again in their thread: after GATE_REMINDER_AFTER, the people who may
 * decide are mentioned; after twice that, GATE_REMINDER_ESCALATE_TO is. Each once per review,
 * claimed in the store before it is said. `tick` is what a timer calls; tests call it with a
 * pinned clock.
 *
 * @example const reminders = createReminders(opts); const stop = reminders.every(60_000);
 */
export function createReminders(opts: ReminderOptions) {
  const say = async (review: ReviewRecord, key: string, text: string): Promise<boolean> => {
    const channel = review.slackChannel;
    const thread = review.slackThreadTs ?? review.slackTs;
    if (!channel || !thread || !(await opts.claimNote(key, review.id))) return false;
    try {
      await opts.client.chat.postMessage({ channel, thread_ts: thread, text, unfurl_links: false });
      return true;
    } catch (error) {
      opts.log.warn({ err: error, reviewId: review.id, key }, "could not post a reminder");
      return false;
    }
  };

  const tick = async (): Promise<number> => {
    const now = opts.clock().getTime();
    let said = 0;
    for (const review of await opts.waiting()) {
      const waited = now - Date.parse(review.createdAt);
      if (!(waited >= opts.afterMs)) continue;
      const age = formatAge(waited);
      const deciders = opts.deciders(review, await opts.resultOf(review.id));
      if (await say(review, `remind:${review.id}`, reminderText(review, deciders, age, false))) said += 1;
      if (opts.escalateTo.length > 0 && waited >= 2 * opts.afterMs) {
        if (await say(review, `escalate:${review.id}`, reminderText(review, opts.escalateTo, age, true))) said += 1;
      }
    }
    return said;
  };

  return {
    tick,
    /** Runs `tick` every `ms` until the returned function is called. */
    every(ms: number): () => void {
      const timer = setInterval(() => {
        tick().catch((error: unknown) => opts.log.error({ err: error }, "reminders failed"));
      }, ms);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
