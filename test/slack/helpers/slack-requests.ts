import { createHmac } from "node:crypto";

/** Slack's request signature: v0=HMAC-SHA256(secret, "v0:{ts}:{body}"). */
export function sign(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}

/** POSTs a body to the Bolt receiver, signed (or with the signature given). */
export async function postToSlackApp(
  url: string,
  body: string,
  contentType: string,
  opts: { secret: string; timestamp?: number; signature?: string },
): Promise<{ status: number; text: string; ms: number }> {
  const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const started = Date.now();
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": contentType,
      "x-slack-request-timestamp": String(timestamp),
      "x-slack-signature": opts.signature ?? sign(opts.secret, timestamp, body),
    },
    body,
  });
  return { status: res.status, text: await res.text(), ms: Date.now() - started };
}

let triggers = 0;
/** A fresh trigger id, as Slack gives every interaction its own. */
const nextTrigger = (what: string) => `trigger-${what}-${++triggers}`;

/** An interactivity body: `payload=<json>`, form-encoded. */
export function interactivityBody(payload: unknown): string {
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** A block_actions payload for a click on a card button. */
export function buttonClick(opts: {
  actionId: string;
  reviewId: string;
  userId: string;
  channel?: string;
  ts?: string;
  responseUrl: string;
}): unknown {
  const channel = opts.channel ?? "CREVIEWS";
  const ts = opts.ts ?? "1700000000.000101";
  return {
    type: "block_actions",
    user: { id: opts.userId, username: opts.userId.toLowerCase(), name: opts.userId.toLowerCase(), team_id: "T1" },
    api_app_id: "A1",
    token: "legacy-verification-token",
    container: { type: "message", message_ts: ts, channel_id: channel, is_ephemeral: false },
    trigger_id: nextTrigger(`${opts.userId}-${opts.actionId}`),
    team: { id: "T1", domain: "acme" },
    channel: { id: channel, name: "reviews" },
    message: { type: "message", ts, text: "card" },
    response_url: opts.responseUrl,
    actions: [
      {
        type: "button",
        action_id: opts.actionId,
        block_id: "gate_actions",
        value: opts.reviewId,
        text: { type: "plain_text", text: "button" },
        action_ts: "1700000002.000000",
      },
    ],
  };
}

/** A view_submission payload for one of the gate's modals. */
export function viewSubmission(opts: {
  callbackId: string;
  userId: string;
  privateMetadata: string;
  values: Record<string, Record<string, { type: "plain_text_input"; value: string | null }>>;
}): unknown {
  return {
    type: "view_submission",
    team: { id: "T1", domain: "acme" },
    user: { id: opts.userId, username: opts.userId.toLowerCase(), name: opts.userId.toLowerCase(), team_id: "T1" },
    api_app_id: "A1",
    token: "legacy-verification-token",
    trigger_id: nextTrigger("view"),
    view: {
      id: "V123",
      team_id: "T1",
      type: "modal",
      callback_id: opts.callbackId,
      private_metadata: opts.privateMetadata,
      blocks: [],
      state: { values: opts.values },
      hash: "h",
      title: { type: "plain_text", text: "t" },
      close: null,
      submit: null,
      root_view_id: "V123",
      previous_view_id: null,
      app_id: "A1",
      external_id: "",
      app_installed_team_id: "T1",
      bot_id: "BBOT",
      clear_on_close: false,
      notify_on_close: false,
    },
  };
}

/** A slash command body, form-encoded. */
export function slashCommandBody(opts: { text: string; userId: string; responseUrl: string }): string {
  return new URLSearchParams({
    token: "legacy-verification-token",
    team_id: "T1",
    team_domain: "acme",
    channel_id: "CREVIEWS",
    channel_name: "reviews",
    user_id: opts.userId,
    user_name: opts.userId.toLowerCase(),
    command: "/gate",
    text: opts.text,
    api_app_id: "A1",
    response_url: opts.responseUrl,
    trigger_id: nextTrigger("cmd"),
  }).toString();
}

/** An Events API body for app_home_opened. */
export function appHomeOpenedBody(userId: string): string {
  return JSON.stringify({
    token: "legacy-verification-token",
    team_id: "T1",
    api_app_id: "A1",
    type: "event_callback",
    event_id: `Ev-${userId}`,
    event_time: 1700000000,
    event: { type: "app_home_opened", user: userId, channel: "D1", tab: "home", event_ts: "1700000000.000001" },
    authorizations: [
      { team_id: "T1", user_id: "UBOT", is_bot: true, enterprise_id: null, is_enterprise_install: false },
    ],
  });
}
