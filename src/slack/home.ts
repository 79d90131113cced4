import type { types } from "@slack/bolt";
import type { ReviewRecord } from "../domain/review.js";
import { cardLink } from "./card-link.js";
import { escapeMrkdwn, mrkdwnLink, slackDate, truncateMrkdwn } from "./mrkdwn.js";

/** A Home view holds at most 100 blocks; two header blocks, two per review, one "+N more". */
const MAX_HOME_REVIEWS = 45;

/**
 * The App Home tab: every review waiting for a person, oldest first, each linking to its card.
 *
 * @example await client.views.publish({ user_id, view: renderHome(await service.listWaiting()) });
 */
export function renderHome(waiting: ReviewRecord[]): types.HomeView {
  const ordered = [...waiting].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: "Compliance gate" } },
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text:
          ordered.length === 0
            ? "Nothing is waiting for a decision."
            : `*${ordered.length} review(s) waiting for a decision*, oldest first:`,
      },
    },
  ];
  for (const review of ordered.slice(0, MAX_HOME_REVIEWS)) {
    const link = cardLink(review);
    const open = link ? ` · ${mrkdwnLink(link, "open the card")}` : " · card not posted yet";
    blocks.push({ type: "divider" });
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text: truncateMrkdwn(
          `*${mrkdwnLink(review.url, review.title || review.pr)}*\n${escapeMrkdwn(review.pr)} · by ${escapeMrkdwn(review.author)} · waiting since ${slackDate(review.createdAt)}${open}`,
          3000,
        ),
      },
    });
  }
  if (ordered.length > MAX_HOME_REVIEWS) {
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: `+${ordered.length - MAX_HOME_REVIEWS} more waiting` }],
    });
  }
  return { type: "home", blocks };
}
