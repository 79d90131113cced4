import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { webApi } from "@slack/bolt";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ReviewRecord } from "../../src/domain/review.js";
import { channelFor } from "../../src/slack/channel-map.js";
import { createSlackPublisher } from "../../src/slack/slack-publisher.js";
import { openDatabase } from "../../src/store/database.js";
import type { ReviewStore } from "../../src/domain/review-store.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { startFakeSlackApi, type FakeSlackApi } from "../fakes/slack-api.js";
import { makeResult, makeReview } from "./helpers/builders.js";
import { defined } from "../helpers/defined.js";

let fake: FakeSlackApi;
let client: webApi.WebClient;

beforeEach(async () => {
  fake = await startFakeSlackApi();
  client = new webApi.WebClient("xoxb-test", { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
});
afterEach(async () => {
  await fake.close();
});

/** Cards are top-level posts or thread replies with the card's metadata; the rest are thread messages. */
const isCard = (c: { body: Record<string, unknown> }) =>
  JSON.stringify(c.body.metadata ?? "").includes("compliance_gate_card");
const cards = () => fake.callsTo("chat.postMessage").filter(isCard);
const threadNotes = () => fake.callsTo("chat.postMessage").filter((c) => !isCard(c));

const publisher = () =>
  createSlackPublisher({
    client,
    channelFor: channelFor({ byRepo: { "acme/web": "CWEB" } }),
    checkRunUrl: (r) => `https://github.com/${r.repo}/runs/7`,
    log: pino({ level: "silent" }),
  });

describe("createSlackPublisher", () => {
  it("posts once when a review waits for a person, then updates the same message", async () => {
    const pub = publisher();
    let review: ReviewRecord = makeReview();
    const receipt = await pub.publish(review, makeResult());
    expect(receipt.slackChannel).toBe("CWEB");
    expect(receipt.slackTs).toMatch(/^1700000000\.\d+$/);
    const [post] = fake.callsTo("chat.postMessage");
    expect(post?.body.channel).toBe("CWEB");
    expect(post?.token).toBe("xoxb-test");
    expect(JSON.stringify(post?.body.blocks)).toContain('"action_id":"gate_approve"');

    review = { ...review, ...receipt, status: "done" };
    const decided = makeResult({
      status: "done",
      route: "human_approved",
      decision: { kind: "approve", by: "U1", at: "2026-03-02T09:30:00Z" },
    });
    const again = await pub.publish(review, decided);
    expect(again).toEqual(receipt);
    expect(cards()).toHaveLength(1);
    // The decision is said once in the card's thread, however often the card is published.
    await pub.publish(review, decided);
    expect(threadNotes().map((c) => [c.body.thread_ts, String(c.body.text)])).toEqual([
      [receipt.slackTs, expect.stringContaining("Approved by <@U1>")],
    ]);
    const [update] = fake.callsTo("chat.update");
    expect(update?.body).toMatchObject({ channel: "CWEB", ts: receipt.slackTs });
    expect(JSON.stringify(update?.body.blocks)).not.toContain('"type":"button"');
  });

  it("never posts twice, even when the receipt was not stored yet or publishes overlap", async () => {
    const pub = publisher();
    const review = makeReview();
    const [a, b] = await Promise.all([pub.publish(review, makeResult()), pub.publish(review, makeResult())]);
    await pub.publish(review, makeResult());
    expect(fake.callsTo("chat.postMessage")).toHaveLength(1);
    expect(a).toEqual(b);
    expect(fake.callsTo("chat.update")).toHaveLength(2);
  });

  it("does not post reviews that never reached a person", async () => {
    const pub = publisher();
    const auto = await pub.publish(
      makeReview({ status: "done" }),
      makeResult({ route: "auto_approved", status: "done", findings: [] }),
    );
    const approved = await pub.publish(
      makeReview({ status: "done" }),
      makeResult({ route: "approved", status: "done" }),
    );
    const running = await pub.publish(
      makeReview({ status: "running" }),
      makeResult({ route: null, status: "running" }),
    );
    expect([auto, approved, running]).toEqual([{}, {}, {}]);
    expect(fake.calls).toHaveLength(0);
  });

  it("posts nothing for a repository without a channel", async () => {
    const receipt = await publisher().publish(makeReview({ repo: "other/repo", pr: "other/repo#1" }), makeResult());
    expect(receipt).toEqual({});
    expect(fake.calls).toHaveLength(0);
  });

  it("updates a superseded review's card to say so", async () => {
    const review = makeReview({
      slackChannel: "CWEB",
      slackTs: "1700000000.000001",
      status: "superseded",
      supersededBy: "b".repeat(40),
    });
    await publisher().publish(review, makeResult({ status: "superseded" }));
    const [update] = fake.callsTo("chat.update");
    expect(JSON.stringify(update?.body.blocks)).toContain("Superseded by");
    expect(cards()).toHaveLength(0);
    expect(threadNotes().map((c) => [c.body.thread_ts, String(c.body.text)])).toEqual([
      ["1700000000.000001", expect.stringContaining("A newer push (`bbbbbbb`) supersedes this review")],
    ]);
  });

  it("surfaces a Slack error so the runner can retry", async () => {
    fake.on("chat.postMessage", () => ({ ok: false, error: "not_in_channel" }));
    await expect(publisher().publish(makeReview(), makeResult())).rejects.toThrow(/not_in_channel/);
  });
});

describe("createSlackPublisher across a crash", () => {
  // The fake's message ts are in November 2023; the intent is stamped on the same clock.
  const clock = () => new Date("2023-11-14T22:13:20.000Z");
  const register = (store: ReviewStore) =>
    store.register({
      id: "r-crash",
      pr: "acme/web#12",
      source: { kind: "github", owner: "acme", repo: "web", number: 12, headSha: "a".repeat(40) },
      repo: "acme/web",
      number: 12,
      headSha: "a".repeat(40),
    });
  const storePublisher = (store: ReviewStore) =>
    createSlackPublisher({
      client,
      channelFor: channelFor({ byRepo: { "acme/web": "CWEB" } }),
      log: pino({ level: "silent" }),
      now: clock,
      recordPostIntent: (id, at) => store.recordSlackPostIntent(id, at),
    });

  it("finds the card an interrupted attempt posted instead of posting a second one", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-cards-"));
    const file = path.join(dir, "gate.db");
    const first = sqliteStore(openDatabase(file), clock);
    const review = await register(first);
    // The first process posts, then dies before the receipt is stored.
    const lost = await storePublisher(first).publish(review, makeResult());
    expect(lost.slackTs).toBeDefined();
    const [post] = fake.callsTo("chat.postMessage");
    expect(post?.body.metadata).toEqual({
      event_type: "compliance_gate_card",
      event_payload: { review_id: "r-crash" },
    });

    // A restart: a new store on the same file and a new publisher (nothing in memory).
    const second = sqliteStore(openDatabase(file), clock);
    const reloaded = defined(await second.get("r-crash"), "the review after the restart");
    expect(reloaded.slackTs).toBeUndefined();
    expect(reloaded.slackPostStartedAt).toBe("2023-11-14T22:13:20.000Z");
    const receipt = await storePublisher(second).publish(reloaded, makeResult());
    await second.recordReceipt("r-crash", receipt);

    expect(fake.callsTo("chat.postMessage")).toHaveLength(1);
    expect(fake.callsTo("conversations.history")[0]?.body).toMatchObject({
      channel: "CWEB",
      include_all_metadata: "true",
    });
    expect(receipt).toEqual({ slackChannel: "CWEB", slackTs: lost.slackTs });
    expect((await second.get("r-crash"))?.slackTs).toBe(lost.slackTs);
    expect(fake.callsTo("chat.update")[0]?.body).toMatchObject({ channel: "CWEB", ts: lost.slackTs });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("posts when the interrupted attempt never reached Slack, and not for another review's card", async () => {
    const store = sqliteStore(openDatabase(":memory:"), clock);
    // Another review's card in the same channel.
    await createSlackPublisher({
      client,
      channelFor: channelFor({ byRepo: { "acme/web": "CWEB" } }),
      log: pino({ level: "silent" }),
    }).publish(makeReview({ id: "r-other" }), makeResult());
    await register(store);
    await store.recordSlackPostIntent("r-crash", clock().toISOString());
    const receipt = await storePublisher(store).publish(
      defined(await store.get("r-crash"), "the review"),
      makeResult(),
    );
    expect(fake.callsTo("conversations.history")).toHaveLength(1);
    expect(fake.callsTo("chat.postMessage")).toHaveLength(2);
    expect(receipt.slackTs).toBe("1700000000.000102");
  });
});
