import type { ReviewRecord } from "../domain/review.js";

/**
 * A link that opens a review's Slack card, when the card was posted.
 *
 * @example cardLink({ ...review, slackChannel: "C1", slackTs: "1700000000.000100" }) // "https://slack.com/app_redirect?channel=C1&message_ts=1700000000.000100"
 */
export function cardLink(review: Pick<ReviewRecord, "slackChannel" | "slackTs">): string | undefined {
  if (!review.slackChannel || !review.slackTs) return undefined;
  const q = new URLSearchParams({ channel: review.slackChannel, message_ts: review.slackTs });
  return `https://slack.com/app_redirect?${q.toString()}`;
}
