import type { types } from "@slack/bolt";
import { z } from "zod";
import type { ReviewRecord } from "../domain/review.js";
import { escapeMrkdwn, truncateMrkdwn } from "./mrkdwn.js";

/** Callback ids of the two modals (the Bolt app listens on these). */
export const REJECT_MODAL = "gate_reject_modal";
export const INFO_MODAL = "gate_info_modal";
export const APPROVE_MODAL = "gate_approve_modal";

/** Block and action ids of the modal inputs. */
export const REASON_BLOCK = "reason";
export const REASON_INPUT = "reason_input";
export const NOTE_BLOCK = "note";
export const NOTE_INPUT = "note_input";
export const QUESTION_BLOCK = "question";
export const QUESTION_INPUT = "question_input";

/** What a modal carries back: which review, and where its card is. */
export const ModalMetadataSchema = z.object({
  reviewId: z.string().min(1).max(200),
  channel: z.string().max(100),
  ts: z.string().max(100),
});
export type ModalMetadata = z.infer<typeof ModalMetadataSchema>;

/**
 * The Reject modal: a required reason, which becomes the decision's note.
 *
 * @example await client.views.open({ trigger_id, view: rejectModal(review, { reviewId, channel, ts }) });
 */
export function rejectModal(review: Pick<ReviewRecord, "pr" | "title">, meta: ModalMetadata): types.ModalView {
  return {
    type: "modal",
    callback_id: REJECT_MODAL,
    private_metadata: JSON.stringify(meta),
    title: { type: "plain_text", text: "Reject this PR" },
    submit: { type: "plain_text", text: "Reject" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: truncateMrkdwn(`*${escapeMrkdwn(review.pr)}* ${escapeMrkdwn(review.title)}`, 3000),
        },
      },
      {
        type: "input",
        block_id: REASON_BLOCK,
        optional: false,
        label: { type: "plain_text", text: "Why is it rejected?" },
        element: {
          type: "plain_text_input",
          action_id: REASON_INPUT,
          multiline: true,
          min_length: 1,
          max_length: 2000,
          placeholder: { type: "plain_text", text: "The author sees this on the check run" },
        },
      },
    ],
  };
}

/**
 * The Approve modal: an optional note, shown in the thread, on the check run and in the audit log.
 *
 * @example await client.views.open({ trigger_id, view: approveModal(review, { reviewId, channel, ts }) });
 */
export function approveModal(
  review: Pick<ReviewRecord, "pr" | "title" | "headSha">,
  meta: ModalMetadata,
): types.ModalView {
  return {
    type: "modal",
    callback_id: APPROVE_MODAL,
    private_metadata: JSON.stringify(meta),
    title: { type: "plain_text", text: "Approve this PR" },
    submit: { type: "plain_text", text: "Approve" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: truncateMrkdwn(
            `The gate will pass *${escapeMrkdwn(review.pr)}* at \`${review.headSha.slice(0, 7)}\` despite its findings. ${escapeMrkdwn(review.title)}`,
            3000,
          ),
        },
      },
      {
        type: "input",
        block_id: NOTE_BLOCK,
        optional: true,
        label: { type: "plain_text", text: "Why is it fine? (optional)" },
        element: {
          type: "plain_text_input",
          action_id: NOTE_INPUT,
          multiline: true,
          max_length: 2000,
          placeholder: { type: "plain_text", text: "Shown in the thread, on the check run and in the audit log" },
        },
      },
    ],
  };
}

/**
 * The Request info modal: a question for the investigator, which spends one cycle.
 *
 * @example await client.views.open({ trigger_id, view: infoModal(review, { reviewId, channel, ts }, 1) });
 */
export function infoModal(
  review: Pick<ReviewRecord, "pr" | "title">,
  meta: ModalMetadata,
  cyclesLeft: number,
): types.ModalView {
  return {
    type: "modal",
    callback_id: INFO_MODAL,
    private_metadata: JSON.stringify(meta),
    title: { type: "plain_text", text: "Request more info" },
    submit: { type: "plain_text", text: "Ask" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: truncateMrkdwn(`*${escapeMrkdwn(review.pr)}* ${escapeMrkdwn(review.title)}`, 3000),
        },
      },
      {
        type: "input",
        block_id: QUESTION_BLOCK,
        optional: false,
        label: { type: "plain_text", text: "What should the investigator find out?" },
        element: {
          type: "plain_text_input",
          action_id: QUESTION_INPUT,
          multiline: true,
          min_length: 5,
          max_length: 1000,
          placeholder: { type: "plain_text", text: "Does the new session check still verify expiry?" },
        },
      },
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: `This spends one investigation cycle (${cyclesLeft} left). The card shows progress, then the answer.`,
          },
        ],
      },
    ],
  };
}

/**
 * Reads a modal's private_metadata; undefined when it is not what this app put there.
 *
 * @example parseModalMetadata('{"reviewId":"r-1","channel":"C1","ts":"1.2"}') // { reviewId: "r-1", channel: "C1", ts: "1.2" }
 */
export function parseModalMetadata(raw: string | undefined): ModalMetadata | undefined {
  if (!raw) return undefined;
  try {
    const parsed = ModalMetadataSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The part of a view submission's state this app reads. */
export type ViewStateValues = Record<string, Record<string, { value?: string | null }>>;

/**
 * The trimmed text of one plain_text_input in a submitted view, or undefined when empty.
 *
 * @example inputValue(view.state.values, REASON_BLOCK, REASON_INPUT) // "uses GPL code"
 */
export function inputValue(values: ViewStateValues, blockId: string, actionId: string): string | undefined {
  const value = values[blockId]?.[actionId]?.value?.trim();
  return value ? value : undefined;
}
