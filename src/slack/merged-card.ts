import type { types } from "@slack/bolt";
import type { ReviewResult } from "../domain/review-result.js";
import type { ReviewRecord } from "../domain/review.js";
import { shortSha } from "./github-links.js";
import { escapeMrkdwn, SECTION_TEXT_MAX, slackDate, truncateMrkdwn } from "./mrkdwn.js";
import { mergedWhile, type PersonName, personLabel, pushedWhat } from "./thread-notes.js";

type KnownBlock = types.KnownBlock;
type Button = types.Button;

/** On a PR merged without approval, or a change pushed without review: a decision after the fact. */
export const ACTION_APPROVE_AFTER_MERGE = "gate_approve_after_merge";
export const ACTION_INCIDENT = "gate_incident";

/** What reached the branch past the gate: a pull request merged without approval, or a push with none. */
function pastGate(result: ReviewResult): string {
  if (!result.pushed) return "merged without approval";
  return result.pushed.forced ? "force-pushed, changed without review" : "changed without review";
}

/**
 * The card's header for a change past the gate, and the decision after the fact if any.
 *
 * @example mergedHeader(result) // "Compliance gate: CHANGED WITHOUT REVIEW"
 */
export function mergedHeader(result: ReviewResult): string {
  const what = pastGate(result);
  if (result.after_the_fact?.kind === "approve") return `Compliance gate: ${what}, approved after the fact`;
  if (result.after_the_fact) return `Compliance gate: ${what}, marked as an incident`;
  // An emergency merged on its pass: expected, until its approval is overdue.
  if (result.emergency && !result.pushed)
    return `Compliance gate: EMERGENCY${result.emergency.overdue ? " OVERDUE" : ""}, merged; approval ${result.emergency.overdue ? "was " : ""}due`;
  return `Compliance gate: ${what.toUpperCase()}`;
}

/** The card's notification text's state words. */
export function mergedFallback(result: ReviewResult): string {
  return pastGate(result);
}

function section(text: string): KnownBlock {
  return { type: "section", text: { type: "mrkdwn", text: truncateMrkdwn(text, SECTION_TEXT_MAX) } };
}

/**
 * A change past the gate: a PR merged without approval (who merged it and when), or commits
 * pushed with no pull request (who pushed which commits, and whether the push rewrote the
 * branch), then the decision after the fact, or its buttons.
 */
export function mergedBlocks(input: {
  review: ReviewRecord;
  result: ReviewResult;
  personName?: PersonName;
}): KnownBlock[] {
  const { review, result } = input;
  const m = result.merged;
  const who = m ? ` by \`${escapeMrkdwn(m.by)}\` at ${slackDate(m.at)}` : "";
  const blocks: KnownBlock[] = [
    section(
      result.pushed
        ? `:rotating_light: *Changed without review*: ${pushedWhat(result.pushed)}${who}, with no pull request. The gate reviewed the change after the fact.`
        : `:rotating_light: *Merged without approval*${who}, ${mergedWhile(m?.was)}. The gate did not pass this head.`,
    ),
  ];
  const after = result.after_the_fact;
  if (after) {
    const verb =
      after.kind === "approve" ? ":white_check_mark: *Approved after the fact*" : ":warning: *Marked as an incident*";
    const note = after.note ? `: ${escapeMrkdwn(after.note)}` : "";
    blocks.push(section(`${verb} by ${personLabel(after.by, input.personName)} at ${slackDate(after.at)}${note}`));
    return blocks;
  }
  const elements: Button[] = [
    {
      type: "button",
      action_id: ACTION_APPROVE_AFTER_MERGE,
      style: "primary",
      text: { type: "plain_text", text: "Approve after the fact" },
      value: review.id,
      confirm: {
        title: { type: "plain_text", text: "Approve after the fact?" },
        text: {
          type: "mrkdwn",
          text: truncateMrkdwn(
            `Records that ${escapeMrkdwn(review.pr)} at ${shortSha(review.headSha)}, ${pastGate(result)}, is approved after the fact.`,
            300,
          ),
        },
        confirm: { type: "plain_text", text: "Approve" },
        deny: { type: "plain_text", text: "Cancel" },
      },
    },
    {
      type: "button",
      action_id: ACTION_INCIDENT,
      style: "danger",
      text: { type: "plain_text", text: "Mark as incident" },
      value: review.id,
    },
  ];
  blocks.push({ type: "actions", block_id: "gate_after_merge", elements });
  return blocks;
}
