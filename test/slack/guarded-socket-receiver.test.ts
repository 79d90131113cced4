import type { App } from "@slack/bolt";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildSlackApp } from "../../src/slack/app.js";
import { checkSocketModeMessage } from "../../src/slack/request-check.js";
import { startFakeSlackApi, type FakeSlackApi } from "../fakes/slack-api.js";
import { startFakeSlackSocket, type FakeSlackSocket } from "../fakes/slack-socket.js";
import { CARD, makeResult, makeReview } from "./helpers/builders.js";
import { serviceWithPostedCard, type InMemoryReviewService } from "./helpers/in-memory-review-service.js";
import { buttonClick } from "./helpers/slack-requests.js";

// Socket Mode end to end without the internet: the real Bolt app and Socket Mode client, connected
// through `apps.connections.open` on the Slack fake to a loopback WebSocket that sends envelopes.

let api: FakeSlackApi;
let socket: FakeSlackSocket;
let service: InMemoryReviewService;
let app: App | undefined;
let refusals: string[];

async function start(): Promise<void> {
  refusals = [];
  const log = pino(
    { level: "warn" },
    {
      write: (line: string) => {
        const entry = JSON.parse(line) as { why?: string; msg?: string };
        if (entry.msg === "slack socket message refused") refusals.push(entry.why ?? "");
      },
    },
  );
  app = buildSlackApp({
    botToken: "xoxb-test",
    appToken: "xapp-test",
    socketMode: true,
    slackApiUrl: api.apiUrl,
    service,
    log,
    testMode: true,
  });
  await app.start();
  await socket.connected();
}

const click = (overrides: { reviewId?: string; userId?: string } = {}) =>
  buttonClick({
    actionId: "gate_approve",
    reviewId: overrides.reviewId ?? "r-0001",
    userId: overrides.userId ?? "UAPPROVER",
    channel: CARD.channel,
    ts: CARD.ts,
    responseUrl: api.responseUrl("click"),
  }) as Record<string, unknown>;

let envelopes = 0;
/** Sends an envelope of a type with a payload; returns its id. */
function deliver(type: string, payload: unknown): string {
  envelopes += 1;
  const id = `env-${envelopes}`;
  socket.send({ envelope_id: id, type, payload, accepts_response_payload: false });
  return id;
}

beforeEach(async () => {
  api = await startFakeSlackApi();
  socket = await startFakeSlackSocket();
  api.on("apps.connections.open", () => ({ ok: true, url: socket.url }));
  service = serviceWithPostedCard();
});

afterEach(async () => {
  await app?.stop();
  app = undefined;
  await socket.close();
  await api.close();
});

describe("Socket Mode envelopes go through the same guard as HTTP requests", () => {
  it("malformed envelopes, a null payload, an action without a user: refused, logged, acknowledged; the app keeps serving", async () => {
    await start();
    const { user: _user, ...noUser } = click();
    const refused = [
      deliver("interactive", null),
      deliver("events_api", null),
      deliver("slash_commands", null),
      deliver("interactive", noUser),
      deliver("interactive", { ...click(), user: { id: "" } }),
      deliver("events_api", { type: "event_callback", event: null }),
      deliver("interactive", [click()]),
      deliver("mystery_type", {}),
    ];
    for (const id of refused) await socket.waitForAck(id);
    // Neither JSON nor an envelope: nothing to acknowledge, only a log line.
    socket.send("{not json");
    socket.send(JSON.stringify({ type: "interactive", payload: click() }));
    expect(refusals).toHaveLength(refused.length);
    await expectRefusals(refused.length + 2);
    expect(refusals).toContain("payload is not an object");
    expect(refusals).toContain("body is not an object");
    expect(refusals.some((why) => /^not an interaction this app handles: .*user/.test(why))).toBe(true);
    expect(refusals).toContain("an envelope of type mystery_type");
    expect(refusals).toContain("message is not JSON");
    expect(refusals).toContain("an envelope of type interactive without envelope_id");
    expect(service.decideCalls).toEqual([]);

    // A well-formed approve still decides: the connection and the process are alive.
    const ok = deliver("interactive", click());
    await socket.waitForAck(ok);
    await api.waitFor("chat.update");
    expect(service.decideCalls.map((c) => c.resume)).toEqual([{ kind: "approve", by: "UAPPROVER" }]);
  });

  it("a tampered button value (another review than the card's) is refused and audited; nothing is decided", async () => {
    service.add(
      makeReview({ id: "r-0002", pr: "acme/api#7", slackChannel: "COTHER", slackTs: "1700000000.000202" }),
      makeResult({ review_id: "r-0002", pr: "acme/api#7" }),
    );
    await start();
    await socket.waitForAck(deliver("interactive", click({ reviewId: "r-0002" })));
    const [eph] = await api.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toContain("not the card of review r-0002");
    expect(service.decideCalls).toEqual([]);
    expect(api.callsTo("chat.update")).toEqual([]);
    expect(service.audit).toEqual([
      expect.objectContaining({ reviewId: "r-0002", actor: "UAPPROVER", outcome: "refused:wrong_card" }),
    ]);
  });
});

async function expectRefusals(count: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (refusals.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(refusals).toHaveLength(count);
}

describe("checkSocketModeMessage", () => {
  it("lets connection messages and well-formed envelopes through, with their envelope id", () => {
    expect(checkSocketModeMessage(JSON.stringify({ type: "hello" }))).toEqual({ ok: true, kind: "connection" });
    expect(checkSocketModeMessage(JSON.stringify({ type: "disconnect", reason: "refresh_requested" }))).toEqual({
      ok: true,
      kind: "connection",
    });
    expect(
      checkSocketModeMessage(JSON.stringify({ type: "interactive", envelope_id: "e1", payload: click() })),
    ).toEqual({ ok: true, kind: "forward", envelopeId: "e1" });
    const command = { command: "/gate", user_id: "U1", text: "help", response_url: "https://x" };
    expect(
      checkSocketModeMessage(JSON.stringify({ type: "slash_commands", envelope_id: "e2", payload: command })),
    ).toEqual({ ok: true, kind: "forward", envelopeId: "e2" });
    expect(
      checkSocketModeMessage(
        JSON.stringify({ type: "events_api", envelope_id: "e3", payload: { type: "app_rate_limited" } }),
      ),
    ).toEqual({ ok: true, kind: "answer", why: "app_rate_limited", envelopeId: "e3" });
  });

  it("refuses what the HTTP guard refuses, keeping the envelope id to acknowledge", () => {
    expect(
      checkSocketModeMessage(JSON.stringify({ type: "slash_commands", envelope_id: "e4", payload: { text: "x" } })),
    ).toMatchObject({ ok: false, envelopeId: "e4", why: expect.stringMatching(/^not a slash command/) });
    expect(checkSocketModeMessage("null")).toMatchObject({
      ok: false,
      why: expect.stringMatching(/^not a Socket Mode envelope/),
    });
    expect(checkSocketModeMessage("[]")).toMatchObject({ ok: false });
  });
});
