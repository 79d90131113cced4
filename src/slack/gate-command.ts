import type { ReviewService } from "../domain/review.js";
import { escapeMrkdwn } from "./mrkdwn.js";
import { parseReviewRef } from "./review-ref.js";
import { renderStatusText } from "./status-text.js";

/** What `/gate help` says. */
export const GATE_USAGE = [
  "*/gate* shows where a compliance review stands:",
  "• `/gate status owner/repo#123`, `/gate status <PR URL>`, `/gate status #123` (default repository) or `/gate status r-…`",
  "• `/gate help` shows this",
  "Decisions are made with the buttons on the review's card.",
].join("\n");

/**
 * Answers the text of a `/gate` command (mrkdwn, shown only to the person who typed it).
 *
 * @example await answerGateCommand("status acme/web#12", { service, defaultRepo: "acme/web" })
 */
export async function answerGateCommand(
  text: string,
  deps: { service: ReviewService; defaultRepo?: string },
): Promise<string> {
  const [sub = "", ...rest] = text
    .trim()
    .split(/\s+/)
    .filter((s) => s !== "");
  const verb = sub.toLowerCase();
  if (verb === "" || verb === "help") return GATE_USAGE;
  if (verb !== "status") return `Unknown command \`${escapeMrkdwn(truncate(sub))}\`.\n${GATE_USAGE}`;
  if (rest.length !== 1) return "Usage: `/gate status owner/repo#123` (or a PR URL, `#123`, or a review id `r-…`).";
  const arg = rest[0] ?? "";
  const ref = parseReviewRef(arg, deps.defaultRepo);
  if (!ref.ok) return `${ref.why}.`;
  const result = await deps.service.status(ref.ref);
  if (!result) return `No review found for ${escapeMrkdwn(ref.ref)}.`;
  return renderStatusText(result, deps.service.get(result.review_id));
}

function truncate(s: string): string {
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}
