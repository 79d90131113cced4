import type { webApi } from "@slack/bolt";
import type { Logger } from "pino";
import type { ReviewResult } from "../domain/review-result.js";
import type { Publisher, PublishReceipt, ReviewRecord } from "../domain/review.js";
import { renderCard } from "./card.js";

export interface SlackPublisherOptions {
  client: webApi.WebClient;
  /** The channel a repository's cards go to; undefined means this repository is not posted. */
  channelFor(repo: string): string | undefined;
  checkRunUrl?(review: ReviewRecord): string | undefined;
  log: Logger;
  /**
   * Stores that a card is about to be posted for a review (before chat.postMessage), so that after
   * a crash between the post and its receipt the card is found again instead of posted twice.
   */
  recordPostIntent?(reviewId: string, at: string): void;
  /** The clock the intent is stamped with (tests); defaults to the system clock. */
  now?(): Date;
}

/** The Slack message metadata type our cards carry; it names the review a card belongs to. */
export const CARD_EVENT_TYPE = "compliance_gate_card";
/** How far before the recorded intent the search for an earlier card starts (clock skew). */
const LOOKUP_MARGIN_SECONDS = 300;
/** How many messages after the intent are searched. */
const LOOKUP_LIMIT = 50;

/** Routes that mean a person was (or is) asked. */
const REACHED_A_PERSON = new Set(["human", "human_approved", "human_rejected"]);

/**
 * Publishes the review card: posts it once when a review first needs a person, then updates it
 * in place (decision, new push, answer). Never posts twice for a review it knows a card of: the
 * intent to post is stored first, and a card whose metadata names the review is looked up in the
 * channel's history before a second post.
 *
 * @example const receipt = await createSlackPublisher({ client, channelFor, log }).publish(review, result); // { slackChannel, slackTs }
 */
export function createSlackPublisher(opts: SlackPublisherOptions): Publisher {
  // Cards posted by this process, by review id: guards against a second post while the runner
  // has not yet stored the first receipt (two publishes in flight).
  const posted = new Map<string, Promise<PublishReceipt>>();

  const render = (review: ReviewRecord, result: ReviewResult) => {
    const checkRunUrl = opts.checkRunUrl?.(review);
    return renderCard({ review, result, ...(checkRunUrl ? { checkRunUrl } : {}) });
  };

  const update = async (
    review: ReviewRecord,
    result: ReviewResult,
    channel: string,
    ts: string,
  ): Promise<PublishReceipt> => {
    const card = render(review, result);
    await opts.client.chat.update({ channel, ts, text: card.text, blocks: card.blocks });
    return { slackChannel: channel, slackTs: ts };
  };

  /** The card an earlier, interrupted attempt posted for this review, if Slack has it. */
  const findEarlier = async (review: ReviewRecord, channel: string, startedAt: string): Promise<string | undefined> => {
    const started = Date.parse(startedAt);
    if (Number.isNaN(started)) return undefined;
    const oldest = String(Math.max(0, Math.floor(started / 1000) - LOOKUP_MARGIN_SECONDS));
    const res = await opts.client.conversations.history({
      channel,
      oldest,
      limit: LOOKUP_LIMIT,
      include_all_metadata: true,
    });
    const found = (res.messages ?? []).find(
      (m) =>
        m.metadata?.event_type === CARD_EVENT_TYPE &&
        (m.metadata.event_payload as Record<string, unknown> | undefined)?.["review_id"] === review.id,
    );
    return found?.ts;
  };

  const post = async (review: ReviewRecord, result: ReviewResult, channel: string): Promise<PublishReceipt> => {
    if (review.slackPostStartedAt) {
      const ts = await findEarlier(review, channel, review.slackPostStartedAt);
      if (ts) {
        opts.log.info({ reviewId: review.id, channel, ts }, "review card found from an interrupted post; updating it");
        return update(review, result, channel, ts);
      }
    } else {
      opts.recordPostIntent?.(review.id, (opts.now?.() ?? new Date()).toISOString());
    }
    const card = render(review, result);
    const res = await opts.client.chat.postMessage({
      channel,
      text: card.text,
      blocks: card.blocks,
      unfurl_links: false,
      unfurl_media: false,
      metadata: { event_type: CARD_EVENT_TYPE, event_payload: { review_id: review.id } },
    });
    if (!res.ts) throw new Error(`chat.postMessage returned no ts for ${review.pr}`);
    opts.log.info({ reviewId: review.id, channel, ts: res.ts }, "review card posted");
    return { slackChannel: res.channel ?? channel, slackTs: res.ts };
  };

  return {
    name: "slack",
    async publish(review, result) {
      if (review.slackTs) {
        const channel = review.slackChannel ?? opts.channelFor(review.repo);
        if (!channel) {
          opts.log.warn({ reviewId: review.id }, "the card's channel is unknown; not updated");
          return {};
        }
        return update(review, result, channel, review.slackTs);
      }
      const earlier = posted.get(review.id);
      if (earlier !== undefined) {
        const receipt = await earlier;
        if (receipt.slackChannel && receipt.slackTs)
          return update(review, result, receipt.slackChannel, receipt.slackTs);
      }
      const reachedAPerson = result.route !== null && REACHED_A_PERSON.has(result.route);
      const waitingOrDecided =
        result.status === "waiting_for_human" || result.decision !== undefined || result.route !== "human";
      if (!reachedAPerson || !waitingOrDecided) return {};
      const channel = opts.channelFor(review.repo);
      if (!channel) {
        opts.log.warn(
          { reviewId: review.id, repo: review.repo },
          "no Slack channel for this repository; card not posted",
        );
        return {};
      }
      const pending = post(review, result, channel);
      posted.set(review.id, pending);
      try {
        return await pending;
      } catch (error) {
        posted.delete(review.id);
        throw error;
      }
    },
  };
}
