import type { types } from "@slack/bolt";
import { z } from "zod";
import type { ReviewRecord } from "../domain/review.js";
import { escapeMrkdwn, truncateMrkdwn } from "./mrkdwn.js";

/** Callback ids of the two modals (the Bolt app listens on these). */
export const REJECT_MODAL = "gate_reject_modal";
export const INFO_MODAL = "gate_info_modal";
export const APPROVE_MODAL = "gate_approve_modal";
export const INCIDENT_MODAL = "gate_incident_modal";

/** Each modal's title, by the decision it asks for (the "checking" modal before it has the same). */
export const MODAL_TITLES = {
  approve: "Approve this PR",
  reject: "Reject this PR",
  info: "Request more info",
  incident: "Mark as incident",
} as const;

/**
 * The title of the modal a decision kind opens.
 *
 * @example modalTitle("reject") // "Reject this PR"
 */
export function modalTitle(kind: string): string {
  return Object.entries(MODAL_TITLES).find(([k]) => k === kind)?.[1] ?? "Compliance gate";
}

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

/** The one text box a modal asks for. */
interface TextInput {
  blockId: string;
  actionId: string;
  label: string;
  placeholder: string;
  optional: boolean;
  minLength?: number;
  maxLength: number;
}

/** What tells one modal from another: its callback, words, summary, text box and any blocks after it. */
interface TextInputModalSpec {
  callbackId: string;
  title: string;
  submit: string;
  summary: string;
  input: TextInput;
  after?: types.KnownBlock[];
}

/**
 * A modal that carries `meta` back, shows one mrkdwn summary and asks for one multiline text.
 *
 * @example textInputModal(meta, { callbackId: REJECT_MODAL, title: "Reject this PR", submit: "Reject", summary, input })
 */
function textInputModal(meta: ModalMetadata, spec: TextInputModalSpec): types.ModalView {
  const { input } = spec;
  return {
    type: "modal",
    callback_id: spec.callbackId,
    private_metadata: JSON.stringify(meta),
    title: { type: "plain_text", text: spec.title },
    submit: { type: "plain_text", text: spec.submit },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: truncateMrkdwn(spec.summary, 3000) } },
      {
        type: "input",
        block_id: input.blockId,
        optional: input.optional,
        label: { type: "plain_text", text: input.label },
        element: {
          type: "plain_text_input",
          action_id: input.actionId,
          multiline: true,
          ...(input.minLength === undefined ? {} : { min_length: input.minLength }),
          max_length: input.maxLength,
          placeholder: { type: "plain_text", text: input.placeholder },
        },
      },
      ...(spec.after ?? []),
    ],
  };
}

/** The PR and its title, as the top of the Reject and Request info modals shows them. */
function prSummary(review: Pick<ReviewRecord, "pr" | "title">): string {
  return `*${escapeMrkdwn(review.pr)}* ${escapeMrkdwn(review.title)}`;
}

/**
 * The Reject modal: a required reason, which becomes the decision's note.
 *
 * @example await client.views.open({ trigger_id, view: rejectModal(review, { reviewId, channel, ts }) });
 */
export function rejectModal(review: Pick<ReviewRecord, "pr" | "title">, meta: ModalMetadata): types.ModalView {
  return textInputModal(meta, {
    callbackId: REJECT_MODAL,
    title: MODAL_TITLES.reject,
    submit: "Reject",
    summary: prSummary(review),
    input: {
      blockId: REASON_BLOCK,
      actionId: REASON_INPUT,
      label: "Why is it rejected?",
      placeholder: "The author sees this on the check run",
      optional: false,
      minLength: 1,
      maxLength: 2000,
    },
  });
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
  return textInputModal(meta, {
    callbackId: APPROVE_MODAL,
    title: MODAL_TITLES.approve,
    submit: "Approve",
    summary: `The gate will pass *${escapeMrkdwn(review.pr)}* at \`${review.headSha.slice(0, 7)}\` despite its findings. ${escapeMrkdwn(review.title)}`,
    input: {
      blockId: NOTE_BLOCK,
      actionId: NOTE_INPUT,
      label: "Why is it fine? (optional)",
      placeholder: "Shown in the thread, on the check run and in the audit log",
      optional: true,
      maxLength: 2000,
    },
  });
}

/**
 * The Mark as incident modal, on a PR merged without approval: a required note (what happened,
 * what follows), kept in the result and the audit log.
 *
 * @example await client.views.open({ trigger_id, view: incidentModal(review, { reviewId, channel, ts }) });
 */
export function incidentModal(review: Pick<ReviewRecord, "pr" | "title">, meta: ModalMetadata): types.ModalView {
  return textInputModal(meta, {
    callbackId: INCIDENT_MODAL,
    title: MODAL_TITLES.incident,
    submit: "Mark as incident",
    summary: `${prSummary(review)} was merged without the gate's approval.`,
    input: {
      blockId: REASON_BLOCK,
      actionId: REASON_INPUT,
      label: "What happened, and what follows?",
      placeholder: "Kept in the review's result and the audit log",
      optional: false,
      minLength: 1,
      maxLength: 2000,
    },
  });
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
  return textInputModal(meta, {
    callbackId: INFO_MODAL,
    title: MODAL_TITLES.info,
    submit: "Ask",
    summary: prSummary(review),
    input: {
      blockId: QUESTION_BLOCK,
      actionId: QUESTION_INPUT,
      label: "What should the investigator find out?",
      placeholder: "Does the new session check still verify expiry?",
      optional: false,
      minLength: 5,
      maxLength: 1000,
    },
    after: [
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
  });
}

/** Callback id of the modal shown while the gate checks who clicked (it has no submit button). */
export const PENDING_MODAL = "gate_pending_modal";

/**
 * A modal with a title and one line, no submit button: shown at once when a button's check needs
 * Slack's API (the trigger id lasts 3 s), then replaced by the real modal, or by why not.
 *
 * @example await client.views.open({ trigger_id, view: noticeModal("Reject this PR", "Checking…") });
 */
export function noticeModal(title: string, text: string): types.ModalView {
  return {
    type: "modal",
    callback_id: PENDING_MODAL,
    title: { type: "plain_text", text: title.slice(0, 24) },
    close: { type: "plain_text", text: "Close" },
    blocks: [{ type: "section", text: { type: "mrkdwn", text: truncateMrkdwn(text, 3000) } }],
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
