import type { AddressInfo } from "node:net";
import type { App } from "@slack/bolt";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildSlackApp } from "../../src/slack/app.js";
import { checkSlackRequest } from "../../src/slack/request-check.js";
import { startFakeSlackApi, type FakeSlackApi } from "../fakes/slack-api.js";
import { CARD, makeResult, makeReview } from "./helpers/builders.js";
import { serviceWithPostedCard, type InMemoryReviewService } from "./helpers/in-memory-review-service.js";
import {
  appHomeOpenedBody,
  buttonClick,
  interactivityBody,
  postToSlackApp,
  sign,
  slashCommandBody,
} from "./helpers/slack-requests.js";

const SECRET = "test-signing-secret";
const FORM = "application/x-www-form-urlencoded";

let fake: FakeSlackApi;
let service: InMemoryReviewService;
let app: App | undefined;
let base: string;
let warnings: string[];

async function start(opts: { now?: () => number } = {}): Promise<void> {
  warnings = [];
  // A pino stream that keeps each warning's `why`, so a test sees the log line a refusal wrote.
  const log = pino(
    { level: "warn" },
    {
      write: (line: string) => {
        const entry = JSON.parse(line) as { why?: string; msg?: string };
        warnings.push(`${entry.msg ?? ""}: ${entry.why ?? ""}`);
      },
    },
  );
  app = buildSlackApp({
    botToken: "xoxb-test",
    signingSecret: SECRET,
    socketMode: false,
    slackApiUrl: fake.apiUrl,
    service,
    log,
    ...(opts.now ? { now: opts.now } : {}),
  });
  const server = await app.start({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const events = () => `${base}/slack/events`;
const post = (body: string, contentType = FORM, opts: { timestamp?: number } = {}) =>
  postToSlackApp(events(), body, contentType, { secret: SECRET, ...opts });
const now = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const clickBody = (overrides: { reviewId?: string; userId?: string; channel?: string; ts?: string } = {}) =>
  interactivityBody(
    buttonClick({
      actionId: "gate_approve",
      reviewId: overrides.reviewId ?? "r-0001",
      userId: overrides.userId ?? "UAPPROVER",
      channel: overrides.channel ?? CARD.channel,
      ts: overrides.ts ?? CARD.ts,
      responseUrl: fake.responseUrl("click"),
    }),
  );
/** Calls the app made to Slack beyond Bolt's token check at start. */
const slackCalls = () => fake.calls.filter((c) => c.method !== "auth.test");

/** After refusals, a well-formed approve still works: the receiver and the process are alive. */
async function stillServes(): Promise<void> {
  expect((await post(clickBody())).status).toBe(200);
  await fake.waitFor("chat.update");
  expect(service.decideCalls.map((c) => c.resume)).toEqual([{ kind: "approve", by: "UAPPROVER" }]);
}

beforeEach(async () => {
  fake = await startFakeSlackApi();
  service = serviceWithPostedCard();
});

afterEach(async () => {
  await app?.stop();
  app = undefined;
  await fake.close();
});

describe("signed but malformed Slack requests get a 4xx and a log line; the app keeps serving", () => {
  it("payload=null, a payload that is not an object and a payload that is not JSON: 400", async () => {
    await start();
    for (const body of [
      "payload=null",
      "payload=%5B%5D",
      "payload=42",
      "payload=%7Bnot-json",
      `payload=${encodeURIComponent('"text"')}`,
    ]) {
      expect((await post(body)).status, body).toBe(400);
    }
    expect(warnings.filter((w) => w.startsWith("slack request refused"))).toHaveLength(5);
    expect(warnings.join("\n")).toMatch(/payload is not JSON/);
    expect(warnings.join("\n")).toMatch(/payload is not an object/);
    await sleep(30);
    expect(slackCalls()).toEqual([]);
    await stillServes();
  });

  it("an action without a user, or without actions, and an interaction type the app does not handle: 400", async () => {
    await start();
    const click = JSON.parse(decodeURIComponent(clickBody().slice("payload=".length))) as Record<string, unknown>;
    const { user: _user, ...noUser } = click;
    const cases = [
      noUser,
      { ...click, user: { name: "someone" } },
      { ...click, user: null },
      { ...click, actions: [] },
      { ...click, actions: [{ type: "button" }] },
      { ...click, type: "shortcut" },
      { ...click, type: undefined },
      { type: "view_submission", user: { id: "UAPPROVER" }, view: { id: "V1", callback_id: "gate_reject" } },
    ];
    for (const payload of cases)
      expect((await post(interactivityBody(payload))).status, JSON.stringify(payload).slice(0, 80)).toBe(400);
    expect(warnings.join("\n")).toMatch(/user/);
    await sleep(30);
    expect(service.decideCalls).toEqual([]);
    expect(slackCalls()).toEqual([]);
    await stillServes();
  });

  it("two payload fields, a command without a user, JSON bodies that are null or lack their event: 400", async () => {
    await start();
    const command = new URLSearchParams(
      slashCommandBody({ text: "help", userId: "UANY", responseUrl: fake.responseUrl("cmd") }),
    );
    command.delete("user_id");
    expect((await post(`${clickBody()}&${clickBody()}`)).status).toBe(400);
    expect((await post(command.toString())).status).toBe(400);
    expect((await post("null", "application/json")).status).toBe(400);
    expect((await post("[1]", "application/json")).status).toBe(400);
    expect((await post("{oops", "application/json")).status).toBe(400);
    expect((await post(JSON.stringify({ type: "event_callback" }), "application/json")).status).toBe(400);
    const home = JSON.parse(appHomeOpenedBody("UAPPROVER")) as { event: Record<string, unknown> };
    expect(
      (await post(JSON.stringify({ ...home, event: { ...home.event, user: undefined } }), "application/json")).status,
    ).toBe(400);
    // A form body with a charset is not a form to Bolt (it parses it as JSON), so it is refused too.
    expect((await post(clickBody(), `${FORM}; charset=utf-8`)).status).toBe(400);
    await sleep(30);
    expect(slackCalls()).toEqual([]);
    await stillServes();
  });

  it("a body over the limit gets 413; Slack's unsigned SSL check gets 200 and reaches nothing", async () => {
    await start();
    const huge = `payload=${"a".repeat(4 * 1024 * 1024 + 10)}`;
    expect((await post(huge)).status).toBe(413);
    const ssl = await fetch(events(), {
      method: "POST",
      headers: { "content-type": FORM },
      body: "ssl_check=1&token=x&payload=%7B%7D",
    });
    expect(ssl.status).toBe(200);
    await sleep(30);
    expect(slackCalls()).toEqual([]);
    await stillServes();
  });
});

describe("the timestamp window, five minutes either way", () => {
  it("refuses a request stamped 400 s in the future or 400 s in the past, accepts one 200 s ahead", async () => {
    await start();
    expect((await post(clickBody(), FORM, { timestamp: now() + 400 })).status).toBe(401);
    expect((await post(clickBody(), FORM, { timestamp: now() - 400 })).status).toBe(401);
    expect(warnings.join("\n")).toMatch(/in the future/);
    await sleep(30);
    expect(service.decideCalls).toEqual([]);
    expect((await post(clickBody(), FORM, { timestamp: now() + 200 })).status).toBe(200);
    await fake.waitFor("chat.update");
    expect(service.decideCalls).toHaveLength(1);
  });

  it("checks against the injected clock: a request stamped by the real clock is stale to a clock ten minutes ahead", async () => {
    await start({ now: () => Date.now() + 10 * 60_000 });
    expect((await post(clickBody())).status).toBe(401);
    expect(warnings.join("\n")).toMatch(/in the past/);
    await sleep(30);
    expect(service.decideCalls).toEqual([]);
  });

  it("refuses a missing, non-numeric or doubled timestamp header", async () => {
    await start();
    const body = clickBody();
    const signature = sign(SECRET, now(), body);
    const variants: Record<string, string>[] = [
      { "content-type": FORM, "x-slack-signature": signature },
      { "content-type": FORM, "x-slack-signature": signature, "x-slack-request-timestamp": "soon" },
      { "content-type": FORM, "x-slack-signature": signature, "x-slack-request-timestamp": `${now()}.5` },
    ];
    for (const headers of variants) {
      expect((await fetch(events(), { method: "POST", headers, body })).status).toBe(401);
    }
    await sleep(30);
    expect(service.decideCalls).toEqual([]);
  });
});

describe("the clicked card must be the review's card", () => {
  it("a button value naming another review is refused, audited, and no card changes", async () => {
    service.add(
      makeReview({ id: "r-0002", pr: "acme/api#7", slackChannel: "COTHER", slackTs: "1700000000.000202" }),
      makeResult({ review_id: "r-0002", pr: "acme/api#7" }),
    );
    await start();
    // The click comes from r-0001's card but its value names r-0002.
    expect((await post(clickBody({ reviewId: "r-0002" }))).status).toBe(200);
    const [eph] = await fake.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toContain("not the card of review r-0002");
    expect(eph?.body).toMatchObject({ channel: CARD.channel, user: "UAPPROVER" });
    expect(service.decideCalls).toEqual([]);
    expect(fake.callsTo("chat.update")).toEqual([]);
    expect(service.audit).toEqual([
      expect.objectContaining({ reviewId: "r-0002", actor: "UAPPROVER", outcome: "refused:wrong_card" }),
    ]);
    // Same channel, another message: refused too.
    expect((await post(clickBody({ ts: "1700000000.000999" }))).status).toBe(200);
    await fake.waitFor("chat.postEphemeral", 2);
    expect(service.decideCalls).toEqual([]);
    expect(fake.callsTo("chat.update")).toEqual([]);
  });

  it("a review with no recorded card refuses any click", async () => {
    service.add(makeReview({ id: "r-0003" }), makeResult({ review_id: "r-0003" }));
    await start();
    await post(clickBody({ reviewId: "r-0003" }));
    await fake.waitFor("chat.postEphemeral");
    expect(service.audit.map((a) => a.outcome)).toEqual(["refused:wrong_card"]);
    expect(service.decideCalls).toEqual([]);
  });
});

describe("checkSlackRequest", () => {
  const body = "payload=%7B%7D";
  const at = 1_800_000_000;
  const headers = (ts: number, sig = sign(SECRET, ts, body)) => ({
    "content-type": FORM,
    "x-slack-request-timestamp": String(ts),
    "x-slack-signature": sig,
  });

  it("verifies the signature before it parses anything", () => {
    const verdict = checkSlackRequest({
      signingSecret: SECRET,
      headers: headers(at, "v0=00"),
      rawBody: "payload=null",
      nowMs: at * 1000,
    });
    expect(verdict).toMatchObject({ ok: false, status: 401 });
  });

  it("accepts exactly 300 s either way and refuses 301 s", () => {
    const verdict = (ts: number) =>
      checkSlackRequest({ signingSecret: SECRET, headers: headers(ts), rawBody: body, nowMs: at * 1000 });
    expect(verdict(at + 300)).toMatchObject({ ok: false, status: 400 }); // signed and in the window; "{}" is no interaction
    expect(verdict(at - 300)).toMatchObject({ ok: false, status: 400 });
    expect(verdict(at + 301)).toMatchObject({
      ok: false,
      status: 401,
      why: expect.stringMatching(/301 s in the future/),
    });
    expect(verdict(at - 301)).toMatchObject({
      ok: false,
      status: 401,
      why: expect.stringMatching(/301 s in the past/),
    });
  });
});
