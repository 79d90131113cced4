import { webApi } from "@slack/bolt";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ReviewRecord } from "../../src/domain/review.js";
import { createSlackPublisher, parseChannelMap } from "../../src/slack/slack-publisher.js";
import { startFakeSlackApi, type FakeSlackApi } from "../fakes/slack-api.js";
import { makeResult, makeReview } from "./helpers/builders.js";

let fake: FakeSlackApi;
let client: webApi.WebClient;

beforeEach(async () => {
  fake = await startFakeSlackApi();
  client = new webApi.WebClient("xoxb-test", { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
});
afterEach(async () => {
  await fake.close();
});

const publisher = () =>
  createSlackPublisher({ client, channelFor: parseChannelMap("acme/web=CWEB"), checkRunUrl: (r) => `https://github.com/${r.repo}/runs/7`, log: pino({ level: "silent" }) });

describe("createSlackPublisher", () => {
  it("posts once when a review waits for a person, then updates the same message", async () => {
    const pub = publisher();
    let review: ReviewRecord = makeReview();
    const receipt = await pub.publish(review, makeResult());
    expect(receipt.slackChannel).toBe("CWEB");
    expect(receipt.slackTs).toMatch(/^1700000000\.\d+$/);
    const [post] = fake.callsTo("chat.postMessage");
    expect(post?.body["channel"]).toBe("CWEB");
    expect(post?.token).toBe("xoxb-test");
    expect(JSON.stringify(post?.body["blocks"])).toContain('"action_id":"gate_approve"');

    review = { ...review, ...receipt, status: "done" };
    const decided = makeResult({ status: "done", route: "human_approved", decision: { kind: "approve", by: "U1", at: "2026-03-02T09:30:00Z" } });
    const again = await pub.publish(review, decided);
    expect(again).toEqual(receipt);
    expect(fake.callsTo("chat.postMessage")).toHaveLength(1);
    const [update] = fake.callsTo("chat.update");
    expect(update?.body).toMatchObject({ channel: "CWEB", ts: receipt.slackTs });
    expect(JSON.stringify(update?.body["blocks"])).not.toContain('"type":"button"');
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
    const auto = await pub.publish(makeReview({ status: "done" }), makeResult({ route: "auto_approved", status: "done", findings: [] }));
    const approved = await pub.publish(makeReview({ status: "done" }), makeResult({ route: "approved", status: "done" }));
    const running = await pub.publish(makeReview({ status: "running" }), makeResult({ route: null, status: "running" }));
    expect([auto, approved, running]).toEqual([{}, {}, {}]);
    expect(fake.calls).toHaveLength(0);
  });

  it("posts nothing for a repository without a channel", async () => {
    const receipt = await publisher().publish(makeReview({ repo: "other/repo", pr: "other/repo#1" }), makeResult());
    expect(receipt).toEqual({});
    expect(fake.calls).toHaveLength(0);
  });

  it("updates a superseded review's card to say so", async () => {
    const review = makeReview({ slackChannel: "CWEB", slackTs: "1700000000.000001", status: "superseded", supersededBy: "b".repeat(40) });
    await publisher().publish(review, makeResult({ status: "superseded" }));
    const [update] = fake.callsTo("chat.update");
    expect(JSON.stringify(update?.body["blocks"])).toContain("Superseded by");
    expect(fake.callsTo("chat.postMessage")).toHaveLength(0);
  });

  it("surfaces a Slack error so the runner can retry", async () => {
    fake.on("chat.postMessage", () => ({ ok: false, error: "not_in_channel" }));
    await expect(publisher().publish(makeReview(), makeResult())).rejects.toThrow(/not_in_channel/);
  });
});
