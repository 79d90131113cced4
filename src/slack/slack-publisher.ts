import type { webApi } from "@slack/bolt";
import type { Logger } from "pino";
import type { ReviewResult } from "../domain/review-result.js";
import type { Publisher, PublishReceipt, ReviewRecord } from "../domain/review.js";
import { renderCard } from "./card.js";
import { cardLink } from "./card-link.js";
import {
  afterTheFactText,
  askText,
  carriedText,
  decisionText,
  endedText,
  investigationText,
  mergedText,
  overdueText,
  type PersonName,
  type WhoToAsk,
} from "./thread-notes.js";

export interface SlackPublisherOptions {
  client: webApi.WebClient;
  /**
   * The channel a repository's cards go to (the review's configuration may name one); undefined
   * means this repository is not posted.
   */
  channelFor(repo: string, review?: ReviewRecord): string | undefined | Promise<string | undefined>;
  checkRunUrl?(review: ReviewRecord): string | undefined;
  log: Logger;
  /**
   * Stores that a card is about to be posted for a review (before chat.postMessage), so that after
   * a crash between the post and its receipt the card is found again instead of posted twice.
   */
  recordPostIntent?(reviewId: string, at: string): Promise<void>;
  /** The clock the intent is stamped with (tests); defaults to the system clock. */
  now?(): Date;
  /**
   * The PR's other reviews, with their last results: a new card is posted in the thread their
   * first card started, and their superseded cards are edited to point at the new one.
   */
  siblings?(review: ReviewRecord): Promise<Array<{ review: ReviewRecord; result?: ReviewResult }>>;
  /** Claims a thread message (true once per key), so nothing is said twice; absent: always said. */
  claimNote?(key: string, reviewId: string): Promise<boolean>;
  /** Who a review asks: the approvers to mention and the author's Slack id. */
  whoToAsk?(review: ReviewRecord, result: ReviewResult): WhoToAsk;
  /** A person's display name (and GitHub login), for decisions. */
  personName?: PersonName;
  /** GitHub's web address for links (GitHub Enterprise Server). */
  githubWebUrl?: string;
}

/** Where a superseded card points: the card that replaced it, or a carried decision's line. */
interface Successor {
  url: string;
  label?: string;
}

function newCardOf(review: ReviewRecord): Successor | undefined {
  const url = cardLink(review);
  return url ? { url } : undefined;
}

/** The Slack message metadata type our cards carry; it names the review a card belongs to. */
export const CARD_EVENT_TYPE = "compliance_gate_card";
/** How far before the recorded intent the search for an earlier card starts (clock skew). */
const LOOKUP_MARGIN_SECONDS = 300;
/** How many messages after the intent are searched. */
const LOOKUP_LIMIT = 50;

/** Routes that mean a person was (or is) asked. */
const REACHED_A_PERSON = new Set(["human", "human_approved", "human_rejected", "merged_unapproved"]);

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
  // Without a store to claim thread messages in, this process remembers what it said.
  const said = new Set<string>();
  const claim =
    opts.claimNote ??
    (async (key: string) => {
      if (said.has(key)) return false;
      said.add(key);
      return true;
    });

  /** The newest later card of the same PR: where a superseded card points. */
  const successorUrl = async (review: ReviewRecord): Promise<string | undefined> => {
    if (review.status !== "superseded") return undefined;
    const later = ((await opts.siblings?.(review)) ?? [])
      .map((s) => s.review)
      .filter((r) => r.slackTs && Date.parse(r.createdAt) >= Date.parse(review.createdAt) && r.id !== review.id)
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0];
    return later ? cardLink(later) : undefined;
  };

  const render = async (review: ReviewRecord, result: ReviewResult, newCard?: Successor) => {
    const checkRunUrl = opts.checkRunUrl?.(review);
    const successor = newCard?.url ?? (await successorUrl(review));
    return renderCard({
      review,
      result,
      ...(checkRunUrl ? { checkRunUrl } : {}),
      ...(successor ? { successorUrl: successor } : {}),
      ...(newCard?.label ? { successorLabel: newCard.label } : {}),
      ...(opts.personName ? { personName: opts.personName } : {}),
      ...(opts.githubWebUrl ? { githubWebUrl: opts.githubWebUrl } : {}),
    });
  };

  /** The thread a PR's cards live in: its first card's. */
  const threadOf = async (review: ReviewRecord): Promise<{ channel: string; ts: string } | undefined> => {
    const first = ((await opts.siblings?.(review)) ?? [])
      .map((s) => s.review)
      .filter((r) => r.id !== review.id && r.slackChannel && r.slackTs)
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))[0];
    return first?.slackChannel && first.slackTs
      ? { channel: first.slackChannel, ts: first.slackThreadTs ?? first.slackTs }
      : undefined;
  };

  /**
   * Says something in the review's thread, once per key, and gives the message's ts when it posted
   * it now. A failure is logged (the card stands).
   */
  const note = async (review: ReviewRecord, key: string, text: string | undefined): Promise<string | undefined> => {
    const channel = review.slackChannel;
    const thread = review.slackThreadTs ?? review.slackTs;
    if (!text || !channel || !thread) return undefined;
    if (!(await claim(key, review.id))) return undefined;
    try {
      const sent = await opts.client.chat.postMessage({
        channel,
        thread_ts: thread,
        text,
        unfurl_links: false,
        unfurl_media: false,
      });
      return typeof sent.ts === "string" ? sent.ts : undefined;
    } catch (error) {
      opts.log.warn({ err: error, reviewId: review.id, key }, "could not post in the review's thread");
      return undefined;
    }
  };

  /**
   * Says a carried decision in the PR's thread (its first card's), once; the PR's superseded cards
   * then point at that line, the new head's state, as they point at a new card.
   */
  const noteInThread = async (review: ReviewRecord, result: ReviewResult): Promise<void> => {
    const thread = await threadOf(review);
    if (!thread) return;
    const placed = { ...review, slackChannel: thread.channel, slackThreadTs: thread.ts };
    const ts = await note(placed, `carried:${review.id}`, carriedText(review, result, opts.personName));
    const url = ts ? cardLink({ slackChannel: thread.channel, slackTs: ts }) : undefined;
    if (url) await pointOlderCards(review, { url, label: "See the decision carried to it" });
  };

  /** What the thread hears after a card changed: a decision, an answer, the end of the review. */
  const followUps = async (review: ReviewRecord, result: ReviewResult): Promise<void> => {
    for (const [i, inv] of result.investigations.entries()) {
      await note(review, `answer:${review.id}:${i}`, investigationText(inv));
    }
    await note(review, `decision:${review.id}`, decisionText(result, opts.personName));
    await note(review, `ended:${review.id}`, endedText(review, result, await successorUrl(review)));
    if (result.merged) {
      const who = opts.whoToAsk?.(review, result) ?? { approvers: [] };
      await note(review, `merged:${review.id}`, mergedText(review, result, who));
    }
    await note(review, `after-merge:${review.id}`, afterTheFactText(result, opts.personName));
    if (result.emergency?.overdue) {
      const who = opts.whoToAsk?.(review, result) ?? { approvers: [] };
      await note(review, `overdue:${review.id}`, overdueText(review, result, who));
    }
  };

  /** A new card (or a carried decision's line): the PR's superseded cards now point at it. */
  const pointOlderCards = async (
    review: ReviewRecord,
    link: Successor | undefined = newCardOf(review),
  ): Promise<void> => {
    for (const s of (await opts.siblings?.(review)) ?? []) {
      const older = s.review;
      if (older.id === review.id || older.status !== "superseded" || !s.result) continue;
      if (!older.slackChannel || !older.slackTs) continue;
      try {
        await update(older, s.result, older.slackChannel, older.slackTs, link);
      } catch (error) {
        opts.log.warn({ err: error, reviewId: older.id }, "could not point a superseded card at the new one");
      }
    }
  };

  const update = async (
    review: ReviewRecord,
    result: ReviewResult,
    channel: string,
    ts: string,
    newCard?: Successor,
  ): Promise<PublishReceipt> => {
    const card = await render(review, result, newCard);
    await opts.client.chat.update({ channel, ts, text: card.text, blocks: card.blocks });
    return { slackChannel: channel, slackTs: ts };
  };

  /** The card an earlier, interrupted attempt posted for this review, if Slack has it. */
  const findEarlier = async (
    review: ReviewRecord,
    channel: string,
    startedAt: string,
    thread?: string,
  ): Promise<string | undefined> => {
    const started = Date.parse(startedAt);
    if (Number.isNaN(started)) return undefined;
    const oldest = String(Math.max(0, Math.floor(started / 1000) - LOOKUP_MARGIN_SECONDS));
    const query = { channel, oldest, limit: LOOKUP_LIMIT, include_all_metadata: true };
    // A card posted in a thread is a reply: the channel's history does not list it.
    const res = thread
      ? await opts.client.conversations.replies({ ...query, ts: thread })
      : await opts.client.conversations.history(query);
    const found = (res.messages ?? []).find(
      (m) =>
        m.metadata?.event_type === CARD_EVENT_TYPE &&
        (m.metadata.event_payload as Record<string, unknown> | undefined)?.review_id === review.id,
    );
    return found?.ts;
  };

  const post = async (review: ReviewRecord, result: ReviewResult, channel: string): Promise<PublishReceipt> => {
    const thread = await threadOf(review);
    const where = thread?.channel ?? channel;
    const threadReceipt = thread ? { slackThreadTs: thread.ts } : {};
    if (review.slackPostStartedAt) {
      const ts = await findEarlier(review, where, review.slackPostStartedAt, thread?.ts);
      if (ts) {
        opts.log.info(
          { reviewId: review.id, channel: where, ts },
          "review card found from an interrupted post; updating it",
        );
        return { ...(await update(review, result, where, ts)), ...threadReceipt };
      }
    } else {
      await opts.recordPostIntent?.(review.id, (opts.now?.() ?? new Date()).toISOString());
    }
    const card = await render(review, result);
    const res = await opts.client.chat.postMessage({
      channel: where,
      ...(thread ? { thread_ts: thread.ts } : {}),
      text: card.text,
      blocks: card.blocks,
      unfurl_links: false,
      unfurl_media: false,
      metadata: { event_type: CARD_EVENT_TYPE, event_payload: { review_id: review.id } },
    });
    if (!res.ts) throw new Error(`chat.postMessage returned no ts for ${review.pr}`);
    opts.log.info({ reviewId: review.id, channel: where, ts: res.ts, thread: thread?.ts }, "review card posted");
    return { slackChannel: res.channel ?? where, slackTs: res.ts, ...threadReceipt };
  };

  const publishCard = async (review: ReviewRecord, result: ReviewResult): Promise<PublishReceipt> => {
    if (review.slackTs) {
      const channel = review.slackChannel ?? (await opts.channelFor(review.repo, review));
      if (!channel) {
        opts.log.warn({ reviewId: review.id }, "the card's channel is unknown; not updated");
        return {};
      }
      return update(review, result, channel, review.slackTs);
    }
    const earlier = posted.get(review.id);
    if (earlier !== undefined) {
      const receipt = await earlier;
      if (receipt.slackChannel && receipt.slackTs) return update(review, result, receipt.slackChannel, receipt.slackTs);
    }
    // A decision carried from an earlier head: one line in the PR's thread, no card to click.
    if (result.decision?.carried_from) {
      await noteInThread(review, result);
      return {};
    }
    const reachedAPerson = result.route !== null && REACHED_A_PERSON.has(result.route);
    const waitingOrDecided =
      result.status === "waiting_for_human" || result.decision !== undefined || result.route !== "human";
    if (!reachedAPerson || !waitingOrDecided) return {};
    // Claimed before anything is awaited, so overlapping publishes post one card.
    const pending = (async (): Promise<PublishReceipt> => {
      const channel = await opts.channelFor(review.repo, review);
      if (!channel) {
        opts.log.warn(
          { reviewId: review.id, repo: review.repo },
          "no Slack channel for this repository; card not posted",
        );
        return {};
      }
      return post(review, result, channel);
    })();
    posted.set(review.id, pending);
    let receipt: PublishReceipt;
    try {
      receipt = await pending;
    } catch (error) {
      posted.delete(review.id);
      throw error;
    }
    if (!receipt.slackTs) {
      posted.delete(review.id);
      return {};
    }
    const placed = { ...review, ...receipt };
    await pointOlderCards(placed);
    if (result.status === "waiting_for_human" && opts.whoToAsk) {
      await note(placed, `ask:${review.pr}:${review.headSha}`, askText(placed, result, opts.whoToAsk(placed, result)));
    }
    return receipt;
  };

  return {
    name: "slack",
    async publish(review, result) {
      const receipt = await publishCard(review, result);
      const placed = { ...review, ...receipt };
      if (placed.slackTs) await followUps(placed, result);
      return receipt;
    },
  };
}
