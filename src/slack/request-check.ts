import { parse as parseQuery } from "node:querystring";
import { verifySlackRequest } from "@slack/bolt";
import { z } from "zod";
import { describeIssues } from "../domain/errors.js";

/** Slack's replay window: a request timestamped further than this from now, either way, is refused. */
export const SLACK_WINDOW_SECONDS = 5 * 60;

/** What the gate accepts on `/slack/events`, decided before Bolt sees the request. */
export type SlackRequestVerdict =
  | { ok: true; kind: "forward" }
  /** Answered by the guard itself: Slack's SSL check, or an event the app subscribes to but ignores. */
  | { ok: true; kind: "answer"; why: string }
  | { ok: false; status: 400 | 401; why: string };

export interface SlackRequestInput {
  signingSecret: string;
  /** The raw headers (`x-slack-signature`, `x-slack-request-timestamp`, `content-type`). */
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  /** Milliseconds since the epoch (an injectable clock). */
  nowMs: number;
}

const FORM = "application/x-www-form-urlencoded";

const NonEmpty = z.string().min(1);
const User = z.looseObject({ id: NonEmpty });

/** Interactivity payloads this app handles, with the fields Bolt and our handlers read. */
const BlockActions = z.looseObject({
  type: z.literal("block_actions"),
  user: User,
  actions: z.array(z.looseObject({ action_id: NonEmpty, type: NonEmpty })).min(1),
});
const ViewSubmission = z.looseObject({
  type: z.literal("view_submission"),
  user: User,
  view: z.looseObject({
    id: NonEmpty,
    callback_id: z.string(),
    private_metadata: z.string().optional(),
    state: z.looseObject({ values: z.record(z.string(), z.record(z.string(), z.looseObject({}))) }),
  }),
});
const ViewClosed = z.looseObject({
  type: z.literal("view_closed"),
  user: User,
  view: z.looseObject({ id: NonEmpty, callback_id: z.string() }),
});
const Interactivity = z.discriminatedUnion("type", [BlockActions, ViewSubmission, ViewClosed]);

/** A slash command's form fields. */
const SlashCommand = z.looseObject({
  command: z.string().regex(/^\/\S+$/),
  user_id: NonEmpty,
  text: z.string().optional(),
  response_url: z.string().optional(),
});

/** Events API bodies. */
const UrlVerification = z.looseObject({ type: z.literal("url_verification"), challenge: NonEmpty });
const EventCallback = z.looseObject({
  type: z.literal("event_callback"),
  event_id: z.string().optional(),
  event: z
    .looseObject({ type: NonEmpty, user: z.unknown(), tab: z.unknown() })
    .refine(
      (e) => e.type !== "app_home_opened" || (typeof e.user === "string" && e.user !== "" && typeof e.tab === "string"),
      "app_home_opened needs user and tab",
    ),
});
const RateLimited = z.looseObject({ type: z.literal("app_rate_limited") });
const EventsApi = z.discriminatedUnion("type", [UrlVerification, EventCallback, RateLimited]);

function header(headers: SlackRequestInput["headers"], name: string): string | undefined {
  const value = headers[name];
  return typeof value === "string" ? value : undefined;
}

function refuse(status: 400 | 401, why: string): SlackRequestVerdict {
  return { ok: false, status, why };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * Verifies a request to `/slack/events` (signature, then a timestamp within five minutes either
 * way) and only then parses it the way Bolt will, checking that it is a request this app handles
 * with the fields its handlers read. A verdict, never a throw: 401 for authenticity, 400 for shape.
 *
 * @example checkSlackRequest({ signingSecret, headers: req.headers, rawBody, nowMs: Date.now() }) // { ok: false, status: 400, why: "payload is not an object" }
 */
export function checkSlackRequest(input: SlackRequestInput): SlackRequestVerdict {
  const contentType = header(input.headers, "content-type");
  // Parsed as Bolt's HTTP receiver parses it: a form only for this exact content type.
  const form = contentType === FORM ? parseQuery(input.rawBody) : undefined;
  // Slack's SSL check is unsigned and carries nothing to act on (Bolt answers it the same way).
  if (form?.ssl_check === "1") return { ok: true, kind: "answer", why: "ssl_check" };

  const signature = header(input.headers, "x-slack-signature");
  const stamp = header(input.headers, "x-slack-request-timestamp");
  if (!signature || !stamp) return refuse(401, "missing x-slack-signature or x-slack-request-timestamp");
  if (!/^\d{1,12}$/.test(stamp)) return refuse(401, "x-slack-request-timestamp is not a number of seconds");
  const skew = Number(stamp) - Math.floor(input.nowMs / 1000);
  if (Math.abs(skew) > SLACK_WINDOW_SECONDS) {
    return refuse(
      401,
      `x-slack-request-timestamp is ${Math.abs(skew)} s in the ${skew > 0 ? "future" : "past"} (the window is ${SLACK_WINDOW_SECONDS} s)`,
    );
  }
  try {
    verifySlackRequest({
      signingSecret: input.signingSecret,
      body: input.rawBody,
      headers: { "x-slack-signature": signature, "x-slack-request-timestamp": Number(stamp) },
      nowMilliseconds: input.nowMs,
    });
  } catch (error) {
    return refuse(401, error instanceof Error ? error.message : "signature check failed");
  }

  // Authentic: now check what Bolt will parse.
  if (form) {
    const payload = form.payload;
    if (Array.isArray(payload)) return refuse(400, "more than one payload field");
    if (payload === undefined) return asHttp(checkSlackPayload("slash_commands", form));
    const parsed = parseJson(payload);
    if (!parsed.ok) return refuse(400, "payload is not JSON");
    return asHttp(checkSlackPayload("interactive", parsed.value));
  }
  const parsed = parseJson(input.rawBody);
  if (!parsed.ok) return refuse(400, "body is not JSON");
  return asHttp(checkSlackPayload("events_api", parsed.value));
}

/** A payload's verdict as the HTTP guard answers it: a refusal is a 400. */
function asHttp(verdict: SlackPayloadVerdict): SlackRequestVerdict {
  return verdict.ok ? verdict : refuse(400, verdict.why);
}

/** Which kind of Slack payload: Socket Mode's envelope types, which the HTTP guard shares. */
export type SlackPayloadKind = "interactive" | "slash_commands" | "events_api";

/** Whether a payload is one this app handles, with the fields its handlers read. */
export type SlackPayloadVerdict =
  | { ok: true; kind: "forward" }
  | { ok: true; kind: "answer"; why: string }
  | { ok: false; why: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The one shape check for what Slack delivers, over HTTP (after the signature is verified) or in a
 * Socket Mode envelope: an interaction (button, modal), a slash command, or an Events API body.
 * Never throws.
 *
 * @example checkSlackPayload("interactive", null) // { ok: false, why: "payload is not an object" }
 */
export function checkSlackPayload(kind: SlackPayloadKind, payload: unknown): SlackPayloadVerdict {
  if (kind === "slash_commands") {
    const command = SlashCommand.safeParse(payload);
    return command.success
      ? { ok: true, kind: "forward" }
      : { ok: false, why: `not a slash command: ${describeIssues(command.error)}` };
  }
  if (kind === "interactive") {
    if (!isObject(payload)) return { ok: false, why: "payload is not an object" };
    const checked = Interactivity.safeParse(payload);
    return checked.success
      ? { ok: true, kind: "forward" }
      : { ok: false, why: `not an interaction this app handles: ${describeIssues(checked.error)}` };
  }
  if (!isObject(payload)) return { ok: false, why: "body is not an object" };
  const checked = EventsApi.safeParse(payload);
  if (!checked.success) return { ok: false, why: `not an event this app handles: ${describeIssues(checked.error)}` };
  if (checked.data.type === "app_rate_limited") return { ok: true, kind: "answer", why: "app_rate_limited" };
  return { ok: true, kind: "forward" };
}

/** A Socket Mode message's verdict; the envelope id (when it has one) is what an answer acknowledges. */
export type SocketModeVerdict =
  /** Connection messages (`hello`, `disconnect`): the client handles them. */
  | { ok: true; kind: "connection" }
  | { ok: true; kind: "forward"; envelopeId: string }
  | { ok: true; kind: "answer"; why: string; envelopeId: string }
  | { ok: false; why: string; envelopeId?: string };

const Envelope = z.looseObject({ type: NonEmpty, envelope_id: NonEmpty.optional(), payload: z.unknown().optional() });
const ENVELOPE_KINDS: readonly string[] = ["interactive", "slash_commands", "events_api"];

/**
 * Checks one Socket Mode WebSocket message before the Socket Mode client parses it: JSON, an
 * envelope with an id, a type this app handles, and a payload that passes `checkSlackPayload`.
 * (The connection itself is authenticated by the app token; there is no signature to check.)
 *
 * @example checkSocketModeMessage('{"type":"interactive","envelope_id":"e1","payload":null}') // { ok: false, why: "payload is not an object", envelopeId: "e1" }
 */
export function checkSocketModeMessage(raw: string): SocketModeVerdict {
  const parsed = parseJson(raw);
  if (!parsed.ok) return { ok: false, why: "message is not JSON" };
  const envelope = Envelope.safeParse(parsed.value);
  if (!envelope.success) return { ok: false, why: `not a Socket Mode envelope: ${describeIssues(envelope.error)}` };
  const { type, envelope_id: envelopeId, payload } = envelope.data;
  if (type === "hello" || type === "disconnect") return { ok: true, kind: "connection" };
  if (!envelopeId) return { ok: false, why: `an envelope of type ${type} without envelope_id` };
  if (!ENVELOPE_KINDS.includes(type)) return { ok: false, why: `an envelope of type ${type}`, envelopeId };
  const verdict = checkSlackPayload(type as SlackPayloadKind, payload);
  return verdict.ok ? { ...verdict, envelopeId } : { ...verdict, envelopeId };
}
