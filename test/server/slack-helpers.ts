import fs from "node:fs";
import { createRequire } from "node:module";
import { expect } from "vitest";
import { z } from "zod";
import { defined } from "../helpers/defined.js";
import { REASON_BLOCK } from "../../src/slack/modals.js";
import type { SlackCall } from "../fakes/slack-api.js";
import {
  buttonClick,
  interactivityBody,
  postToSlackApp,
  slashCommandBody,
  viewSubmission,
} from "../slack/helpers/slack-requests.js";
import {
  AUTHOR_SLACK,
  CHANNEL,
  SLACK_SECRET,
  openPr,
  record,
  serveFixture,
  type ServedPr,
  type Stack,
  type StackOptions,
} from "./helpers.js";

export { REASON_BLOCK };
export const FORM = "application/x-www-form-urlencoded";

export const events = (s: Stack) => `${s.base}/slack/events`;

/** A signed click on a card's button. */
export function click(s: Stack, actionId: string, userId: string, reviewId: string, ts: string) {
  const payload = buttonClick({
    actionId,
    reviewId,
    userId,
    channel: CHANNEL,
    ts,
    responseUrl: defined(s.slack, "the Slack fake").responseUrl(`click-${userId}`),
  });
  return postToSlackApp(events(s), interactivityBody(payload), FORM, { secret: SLACK_SECRET });
}

/** Clicks a card button that opens a modal; returns the view Slack was asked to open, checked to be `callbackId`. */
export async function clickForModal(
  s: Stack,
  actionId: string,
  userId: string,
  reviewId: string,
  ts: string,
  callbackId: string,
) {
  await click(s, actionId, userId, reviewId, ts);
  const [open] = await defined(s.slack, "the Slack fake").waitFor("views.open");
  const view = record(open?.body.view);
  expect(view.callback_id).toBe(callbackId);
  return view;
}

/** A signed modal submission with plain-text inputs. */
export function submit(
  s: Stack,
  callbackId: string,
  userId: string,
  privateMetadata: string,
  values: Record<string, Record<string, string>>,
) {
  const typed = Object.fromEntries(
    Object.entries(values).map(([block, inputs]) => [
      block,
      Object.fromEntries(
        Object.entries(inputs).map(([id, value]) => [id, { type: "plain_text_input" as const, value }]),
      ),
    ]),
  );
  return postToSlackApp(
    events(s),
    interactivityBody(viewSubmission({ callbackId, userId, privateMetadata, values: typed })),
    FORM,
    { secret: SLACK_SECRET },
  );
}

/** A signed `/gate` command; its answer goes to the fake's response_url `responseId`. */
export function command(s: Stack, text: string, responseId: string, userId = "UANY") {
  return postToSlackApp(
    events(s),
    slashCommandBody({ text, userId, responseUrl: defined(s.slack, "the Slack fake").responseUrl(responseId) }),
    FORM,
    { secret: SLACK_SECRET },
  );
}

export const blocksOf = (call: SlackCall | undefined) => JSON.stringify(call?.body.blocks ?? null);
export const hasButtons = (call: SlackCall | undefined) => blocksOf(call).includes('"type":"button"');

/** [action_id, value] of every button on a card. */
export function buttonValues(call: SlackCall | undefined): [unknown, unknown][] {
  const blocks = Array.isArray(call?.body.blocks) ? (call.body.blocks as unknown[]) : [];
  return blocks
    .map(record)
    .filter((b) => b.type === "actions")
    .flatMap((b) => (Array.isArray(b.elements) ? (b.elements as unknown[]) : []))
    .map(record)
    .map((e) => [e.action_id, e.value]);
}

/** A card post carries the card's message metadata; every other post is a thread message. */
export const isCard = (c: SlackCall) => JSON.stringify(c.body.metadata ?? "").includes("compliance_gate_card");
export const cardPosts = (s: Stack) => defined(s.slack, "the Slack fake").callsTo("chat.postMessage").filter(isCard);
export const threadNotes = (s: Stack) =>
  defined(s.slack, "the Slack fake")
    .callsTo("chat.postMessage")
    .filter((c) => !isCard(c));

/**
 * A Slack-mode server (App mode GitHub) with a GPL-dependency PR waiting for a person, and its card:
 * posted in the channel, its place stored on the review.
 */
export async function waitingReview(start: (opts: StackOptions) => Promise<Stack>, env: Record<string, string> = {}) {
  const s = await start({ slack: true, env: { GATE_GITHUB_TO_SLACK: `dev-priya=${AUTHOR_SLACK}`, ...env } });
  const slack = defined(s.slack, "the Slack fake");
  const pr = serveFixture(s, "002_new_dependency");
  const review = await openPr(s, pr);
  expect(review.status).toBe("waiting_for_human");
  const [post] = await slack.waitFor("chat.postMessage");
  // The runner stored where the card is (the fake's answer to chat.postMessage).
  expect(review.slackChannel).toBe(CHANNEL);
  const ts = defined(review.slackTs, "the card's ts");
  expect(ts).toMatch(/^\d+\.\d+$/);
  return { s, slack, pr, review, post: defined(post, "the card's post"), ts };
}

const ExamplesSchema = z.array(z.object({ name: z.string(), examples: z.array(z.record(z.string(), z.unknown())) }));
const examples = ExamplesSchema.parse(
  JSON.parse(fs.readFileSync(createRequire(import.meta.url).resolve("@octokit/webhooks-examples"), "utf8")),
);

/** GitHub's own `check_run`/`check_suite` `rerequested` example, retargeted at a served PR's head. */
export function rerequestedEvent(
  event: "check_run" | "check_suite",
  pr: ServedPr,
  externalId?: string,
): Record<string, unknown> {
  const found = examples.find((e) => e.name === event)?.examples.find((e) => e.action === "rerequested");
  const payload = z
    .looseObject({ repository: z.looseObject({ owner: z.looseObject({}) }) })
    .and(z.record(z.string(), z.unknown()))
    .parse(structuredClone(defined(found, `a ${event}.rerequested example`)));
  const inner = record(payload[event]);
  return {
    ...payload,
    [event]: {
      ...inner,
      head_sha: pr.headSha,
      ...(event === "check_run" ? { external_id: externalId ?? "" } : {}),
      pull_requests: [{ number: pr.number, head: { sha: pr.headSha }, base: {} }],
    },
    repository: {
      ...payload.repository,
      name: pr.repo,
      full_name: `${pr.owner}/${pr.repo}`,
      owner: { ...payload.repository.owner, login: pr.owner },
    },
  };
}
