/**
 * What the Slack side remembers across restarts: a card being posted, the thread messages
 * already said, and people's display names.
 *
 * @example if (await memory.claimSlackNote(`ask:acme/web#1:${sha}`, review.id)) await post(...);
 */
export interface SlackMemory {
  /**
   * Records that a Slack card is about to be posted for this review (kept once set: the first
   * attempt's time), so a restart looks for that card before posting another.
   */
  recordSlackPostIntent(id: string, at: string): Promise<void>;
  /**
   * Claims one message of a PR's Slack thread (a mention per head, a decision, a reminder): true
   * the first time a key is claimed, false ever after, so a restart or a second publish never
   * says it twice.
   */
  claimSlackNote(key: string, reviewId: string): Promise<boolean>;
  /** Remembers a Slack user's display name (the newest wins). */
  recordPerson(slackId: string, name: string): Promise<void>;
  /** A Slack user's display name, when one was recorded. */
  personName(slackId: string): Promise<string | undefined>;
}
