import type { KnownBlock } from "@slack/types";
import type { ReviewResult } from "../domain/review-result.js";
import { renderCard } from "../slack/card.js";
import type { CliContext } from "./context.js";

/** Slack mrkdwn to terminal text: `<url|label>` → `label <url>`, user mentions kept as ids. */
function plain(text: string): string {
  return text
    .replace(/<(https?:[^|>]+)\|([^>]+)>/g, "$2 <$1>")
    .replace(/<@([A-Z0-9]+)>/g, "@$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

type TextLike = { text?: string | { text?: string } };
const textOf = (t: TextLike["text"]): string => (typeof t === "string" ? t : (t?.text ?? ""));

/**
 * Block Kit blocks as a terminal reads them: the same card Slack shows, as text.
 *
 * @example console.log(blocksToText(renderCard({ review, result }).blocks))
 */
export function blocksToText(blocks: KnownBlock[]): string {
  const out: string[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case "header":
        out.push(plain(b.text.text).toUpperCase());
        break;
      case "section":
        if (b.text) out.push(plain(b.text.text));
        for (const f of b.fields ?? []) out.push(plain(f.text));
        break;
      case "context":
        out.push(
          b.elements
            .map((e) => ("text" in e ? plain(textOf(e.text)) : ""))
            .filter(Boolean)
            .join("  ·  "),
        );
        break;
      case "actions":
        out.push(
          b.elements.map((e) => ("text" in e && e.text ? `[ ${textOf(e.text as TextLike["text"])} ]` : "")).join(" "),
        );
        break;
      case "divider":
        out.push("────────");
        break;
      default:
        break;
    }
  }
  return out.join("\n");
}

/** The escalation card of a review: the Block Kit blocks the Slack publisher sends. */
export async function cardBlocks(ctx: CliContext, result: ReviewResult): Promise<KnownBlock[]> {
  const review = await (await ctx.gate()).store.get(result.review_id);
  if (!review) return [];
  return renderCard({ review, result, checkRunUrl: review.url ? `${review.url}/checks` : undefined }).blocks;
}

/** The escalation card of a review as a terminal reads it. */
export async function cardText(ctx: CliContext, result: ReviewResult): Promise<string> {
  return blocksToText(await cardBlocks(ctx, result));
}
