import type { webApi } from "@slack/bolt";
import type { Logger } from "pino";
import type { Clock } from "../domain/clock.js";
import type { EmergencyPass, ReviewResult } from "../domain/review-result.js";
import type { ReviewRecord } from "../domain/review.js";
import { emergencyReminderText, formatAge, reminderText } from "./thread-notes.js";

export interface ReminderOptions {
  client: webApi.WebClient;
  /** GATE_REMINDER_AFTER in ms; unset, only emergencies are brought up. */
  afterMs?: number | undefined;
  /** GATE_REMINDER_ESCALATE_TO: mentioned once a review has waited twice as long, or an emergency nears its due time. */
  escalateTo: readonly string[];
  /** GATE_APPROVERS: who an emergency escalates to when GATE_REMINDER_ESCALATE_TO is empty. */
  approvers: readonly string[];
  clock: Clock;
  /** Reviews waiting for a person. */
  waiting(): Promise<ReviewRecord[]>;
  /** Reviews merged past the gate (an emergency's are reminded until decided after the fact). */
  merged(): Promise<ReviewRecord[]>;
  /**
   * The open emergency passes of these reviews, by review id: none for a review that has none,
   * whose pass is overdue (the sweep says so), or with a decision after the fact recorded.
   */
  openEmergencies(reviews: readonly ReviewRecord[]): Promise<ReadonlyMap<string, EmergencyPass>>;
  /** A review's last result (for who may decide on it). */
  resultOf(reviewId: string): Promise<ReviewResult | undefined>;
  /** Who may decide on a review: the ids to mention. */
  deciders(review: ReviewRecord, result: ReviewResult | undefined): readonly string[];
  /** Claims a thread message once (stored: a restart never reminds twice). */
  claimNote(key: string, reviewId: string): Promise<boolean>;
  log: Logger;
}

/** How far into its window an emergency's deciders are reminded, and how much of it is left when it escalates. */
export const EMERGENCY_REMIND_AT = 0.5;
export const EMERGENCY_ESCALATE_LEFT = 0.25;

/**
 * Brings waiting reviews up again in their thread: after GATE_REMINDER_AFTER, the people who may
 * decide are mentioned; after twice that, GATE_REMINDER_ESCALATE_TO is. A review on an emergency
 * pass follows its due time instead (docs/operations.md, "Emergency changes"), waiting or merged
 * past the gate: halfway through its window the people who may decide are reminded, and in its
 * last quarter GATE_REMINDER_ESCALATE_TO (the approvers when that is empty) is, each saying the
 * due time; once overdue, the sweep says so. Each once per review, claimed in the store before it
 * is said. `tick` is what a timer calls; tests call it with a pinned clock.
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

  /** An emergency's reminders, by its due time: how many were said. */
  const emergency = async (review: ReviewRecord, pass: EmergencyPass, now: number): Promise<number> => {
    const since = Date.parse(pass.since);
    const due = Date.parse(pass.due_at);
    const window = due - since;
    if (!(window > 0) || now >= due) return 0;
    const left = formatAge(due - now);
    let said = 0;
    if (now - since >= window * EMERGENCY_REMIND_AT) {
      const deciders = opts.deciders(review, await opts.resultOf(review.id));
      const text = emergencyReminderText(review, pass, deciders, left, false);
      if (await say(review, `emergency-remind:${review.id}`, text)) said += 1;
    }
    if (due - now <= window * EMERGENCY_ESCALATE_LEFT) {
      const to = opts.escalateTo.length > 0 ? opts.escalateTo : opts.approvers;
      const text = emergencyReminderText(review, pass, to, left, true);
      if (await say(review, `emergency-escalate:${review.id}`, text)) said += 1;
    }
    return said;
  };

  const tick = async (): Promise<number> => {
    const now = opts.clock().getTime();
    let said = 0;
    const merged = await opts.merged();
    const waiting = await opts.waiting();
    const passes = await opts.openEmergencies([...merged, ...waiting]);
    for (const review of merged) {
      const pass = passes.get(review.id);
      if (pass) said += await emergency(review, pass, now);
    }
    for (const review of waiting) {
      const pass = passes.get(review.id);
      if (pass) {
        said += await emergency(review, pass, now);
        continue;
      }
      if (opts.afterMs === undefined) continue;
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
