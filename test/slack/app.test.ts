import type { AddressInfo } from "node:net";
import type { App } from "@slack/bolt";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildSlackApp } from "../../src/slack/app.js";
import type { ApproverConfig } from "../../src/slack/who-to-ask.js";
import { startFakeSlackApi, type FakeSlackApi, type SlackCall } from "../fakes/slack-api.js";
import { makeFinding, makeResult, makeReview } from "./helpers/builders.js";
import { serviceWithPostedCard, type InMemoryReviewService } from "./helpers/in-memory-review-service.js";
import {
  appHomeOpenedBody,
  buttonClick,
  interactivityBody,
  postToSlackApp,
  sign,
  slashCommandBody,
  viewSubmission,
} from "./helpers/slack-requests.js";

const SECRET = "test-signing-secret";
const FORM = "application/x-www-form-urlencoded";
const APPROVERS: ApproverConfig = {
  approvers: ["UAPPROVER", "UOTHER", "SLEADS"],
  githubToSlack: { octocat: "UAUTHOR" },
};

let fake: FakeSlackApi;
let service: InMemoryReviewService;
let app: App | undefined;
let url: string;

async function start(opts: { defaultRepo?: string; approvers?: ApproverConfig } = {}): Promise<void> {
  service.approvers = opts.approvers ?? APPROVERS;
  app = buildSlackApp({
    botToken: "xoxb-test",
    signingSecret: SECRET,
    socketMode: false,
    slackApiUrl: fake.apiUrl,
    service,
    ...(opts.defaultRepo ? { defaultRepo: opts.defaultRepo } : {}),
    log: pino({ level: "silent" }),
    progressIntervalMs: 40,
    checkRunUrl: (r) => `https://github.com/${r.repo}/runs/1`,
  });
  const server = await app.start({ port: 0, host: "127.0.0.1" });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
}

const click = (actionId: string, userId: string, reviewId = "r-0001") =>
  postToSlackApp(
    url,
    interactivityBody(buttonClick({ actionId, reviewId, userId, responseUrl: fake.responseUrl("click") })),
    FORM,
    { secret: SECRET },
  );

const submit = (
  callbackId: string,
  userId: string,
  values: Record<string, Record<string, { type: "plain_text_input"; value: string | null }>>,
) =>
  postToSlackApp(
    url,
    interactivityBody(
      viewSubmission({
        callbackId,
        userId,
        privateMetadata: JSON.stringify({ reviewId: "r-0001", channel: "CREVIEWS", ts: "1700000000.000101" }),
        values,
      }),
    ),
    FORM,
    { secret: SECRET },
  );

const command = (text: string) =>
  postToSlackApp(url, slashCommandBody({ text, userId: "UANY", responseUrl: fake.responseUrl("cmd") }), FORM, {
    secret: SECRET,
  });

/** The mrkdwn texts of a chat.update call's blocks. */
function blockTexts(call: SlackCall | undefined): string {
  const blocks = call?.body.blocks;
  return JSON.stringify(blocks ?? null);
}
const hasButtons = (call: SlackCall | undefined) => blockTexts(call).includes('"type":"button"');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeEach(async () => {
  fake = await startFakeSlackApi();
  service = serviceWithPostedCard();
});

afterEach(async () => {
  await app?.stop();
  app = undefined;
  await fake.close();
});

describe("card buttons", () => {
  it("approve by an approver: decides once, updates the card in place without buttons", async () => {
    await start();
    const res = await click("gate_approve", "UAPPROVER");
    expect(res.status).toBe(200);
    const [update] = await fake.waitFor("chat.update");
    expect(service.decideCalls).toEqual([{ reviewId: "r-0001", resume: { kind: "approve", by: "UAPPROVER" } }]);
    expect(update?.body).toMatchObject({ channel: "CREVIEWS", ts: "1700000000.000101" });
    expect(hasButtons(update)).toBe(false);
    expect(blockTexts(update)).toContain("*Approved* by <@UAPPROVER>");
    expect(fake.callsTo("chat.postEphemeral")).toHaveLength(0);
  });

  it("two concurrent approve clicks: exactly one decision, the other told it is already decided", async () => {
    await start();
    await Promise.all([click("gate_approve", "UAPPROVER"), click("gate_approve", "UOTHER")]);
    const [eph] = await fake.waitFor("chat.postEphemeral");
    await fake.waitFor("chat.update");
    await sleep(50);
    const decided = service.reviews.get("r-0001")?.result.decision;
    expect(decided?.kind).toBe("approve");
    const applied = service.decideCalls.filter((c) => c.resume.by === decided?.by);
    expect(applied).toHaveLength(1);
    expect(fake.callsTo("chat.update")).toHaveLength(1);
    expect(fake.callsTo("chat.postEphemeral")).toHaveLength(1);
    expect(String(eph?.body.text)).toMatch(/^Already decided/);
    expect(eph?.body.user).not.toBe(decided?.by);
  });

  it("the PR author's click is refused ephemerally and audited; nothing decided", async () => {
    await start();
    await click("gate_approve", "UAUTHOR");
    const [eph] = await fake.waitFor("chat.postEphemeral");
    expect(eph?.body).toMatchObject({ channel: "CREVIEWS", user: "UAUTHOR" });
    expect(String(eph?.body.text)).toContain("author can never decide");
    expect(service.decideCalls).toHaveLength(0);
    expect(fake.callsTo("chat.update")).toHaveLength(0);
    expect(service.audit).toEqual([
      expect.objectContaining({
        reviewId: "r-0001",
        actor: "UAUTHOR",
        action: "approve",
        outcome: "refused:not_allowed",
      }),
    ]);
  });

  it("the author is recognised whatever the case of the login in GATE_GITHUB_TO_SLACK (GitHub logins are case-insensitive)", async () => {
    await start({ approvers: { approvers: ["UAUTHOR"], githubToSlack: { OctoCat: "UAUTHOR" } } });
    await click("gate_approve", "UAUTHOR");
    const [eph] = await fake.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toContain("author can never decide");
    expect(service.decideCalls).toHaveLength(0);
  });

  it("a non-approver's click is refused and audited; a member of an approver group may decide", async () => {
    fake.userGroups.set("SLEADS", ["UGROUPIE"]);
    await start();
    await click("gate_approve", "USTRANGER");
    const [eph] = await fake.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toContain("not among the configured approvers");
    expect(service.decideCalls).toHaveLength(0);
    expect(service.audit.map((a) => a.actor)).toEqual(["USTRANGER"]);

    await click("gate_approve", "UGROUPIE");
    await fake.waitFor("chat.update");
    expect(service.decideCalls.map((c) => c.resume.by)).toEqual(["UGROUPIE"]);
    expect(fake.callsTo("usergroups.users.list").map((c) => c.body.usergroup)).toEqual(["SLEADS"]);
  });

  it("a click on a decided review is refused with who decided", async () => {
    const entry = service.reviews.get("r-0001");
    if (!entry) throw new Error("fixture missing");
    entry.record.status = "done";
    entry.result.status = "done";
    entry.result.route = "human_approved";
    entry.result.decision = { kind: "approve", by: "UFIRST", at: "2026-03-02T09:00:00Z" };
    await start();
    await click("gate_approve", "UAPPROVER");
    const [eph] = await fake.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toContain("Already decided: approved by <@UFIRST>");
    expect(service.decideCalls).toHaveLength(0);
    expect(service.audit[0]?.outcome).toBe("refused:already_decided");
  });

  it("reject opens a modal; its submission decides with the reason and updates the card", async () => {
    await start();
    await click("gate_reject", "UAPPROVER");
    const [open] = await fake.waitFor("views.open");
    const view = open?.body.view as { callback_id: string; private_metadata: string } | undefined;
    expect(String(open?.body.trigger_id)).toMatch(/^trigger-UAPPROVER-gate_reject-\d+$/);
    expect(view?.callback_id).toBe("gate_reject_modal");
    expect(JSON.parse(view?.private_metadata ?? "{}")).toEqual({
      reviewId: "r-0001",
      channel: "CREVIEWS",
      ts: "1700000000.000101",
    });
    expect(service.decideCalls).toHaveLength(0);

    const res = await submit("gate_reject_modal", "UAPPROVER", {
      reason: { reason_input: { type: "plain_text_input", value: "adds GPL code" } },
    });
    expect(res.status).toBe(200);
    const [update] = await fake.waitFor("chat.update");
    expect(service.decideCalls).toEqual([
      { reviewId: "r-0001", resume: { kind: "reject", by: "UAPPROVER", note: "adds GPL code" } },
    ]);
    expect(hasButtons(update)).toBe(false);
    expect(blockTexts(update)).toContain("*Rejected* by <@UAPPROVER>");
    expect(blockTexts(update)).toContain(": adds GPL code");
  });

  it("a reject submission without a reason is answered with a field error", async () => {
    await start();
    const res = await submit("gate_reject_modal", "UAPPROVER", {
      reason: { reason_input: { type: "plain_text_input", value: "  " } },
    });
    expect(JSON.parse(res.text)).toMatchObject({ response_action: "errors", errors: { reason: expect.any(String) } });
    await sleep(30);
    expect(service.decideCalls).toHaveLength(0);
  });

  it("request info: modal, progress updates without buttons, then the answer with buttons", async () => {
    service.progressScript = Array.from({ length: 20 }, (_, i) => ({
      reviewId: "r-0001",
      turn: i + 1,
      tool_calls: i + 1,
      chars_read: (i + 1) * 100,
      cost_usd: (i + 1) / 1000,
    }));
    service.progressGapMs = 4;
    await start();
    await click("gate_request_info", "UAPPROVER");
    const [open] = await fake.waitFor("views.open");
    expect((open?.body.view as { callback_id?: string } | undefined)?.callback_id).toBe("gate_info_modal");

    await submit("gate_info_modal", "UAPPROVER", {
      question: { question_input: { type: "plain_text_input", value: "Is expiry still checked?" } },
    });
    await waitUntil(
      () =>
        service.decideCalls.length === 1 &&
        service.reviews.get("r-0001")?.record.status === "waiting_for_human" &&
        lastUpdateIsFinal(),
    );
    const updates = fake.callsTo("chat.update");
    const progress = updates.slice(0, -1);
    const final = updates.at(-1);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    // 20 events over >= 80 ms, at most one update per 40 ms: far fewer updates than events.
    expect(progress.length).toBeLessThanOrEqual(10);
    for (const p of progress) {
      expect(blockTexts(p)).toContain("Investigating…");
      expect(hasButtons(p)).toBe(false);
    }
    expect(service.decideCalls[0]?.resume).toEqual({
      kind: "info",
      by: "UAPPROVER",
      question: "Is expiry still checked?",
    });
    expect(blockTexts(final)).not.toContain("Investigating…");
    expect(blockTexts(final)).toContain("the expiry check moved to middleware/session.ts");
    expect(blockTexts(final)).toContain('"action_id":"gate_approve"');
    // cycles now 2 of 2: Request info is gone.
    expect(blockTexts(final)).not.toContain('"action_id":"gate_request_info"');
  });

  it("request info with the budget spent is refused ephemerally, no modal", async () => {
    const entry = service.reviews.get("r-0001");
    if (!entry) throw new Error("fixture missing");
    entry.result.budget.cycles_used = 2;
    await start();
    await click("gate_request_info", "UAPPROVER");
    const [eph] = await fake.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toContain("investigation budget of this review is spent");
    expect(fake.callsTo("views.open")).toHaveLength(0);
    expect(service.decideCalls).toHaveLength(0);
  });

  it("request info with cycles left but the money spent is refused too (the same budget rule as the runner)", async () => {
    service.maxCostUsd = 0.01; // the review has spent $0.0123
    await start();
    await click("gate_request_info", "UAPPROVER");
    const [eph] = await fake.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toBe(
      "The investigation budget of this review is spent (spent $0.0123 of its $0.01): approve or reject.",
    );
    expect(fake.callsTo("views.open")).toHaveLength(0);
    expect(service.audit).toEqual([
      expect.objectContaining({ actor: "UAPPROVER", action: "info", outcome: "refused:budget_spent" }),
    ]);
  });

  it("a failing service is caught: ephemeral apology, no crash", async () => {
    service.status = async () => {
      throw new Error("database is locked");
    };
    await start();
    await click("gate_approve", "UAPPROVER");
    const [eph] = await fake.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toContain("the review is unchanged");
    expect(service.decideCalls).toHaveLength(0);
  });

  it("an investigation that throws: the card gets its buttons back and the person is told", async () => {
    service.progressScript = [{ reviewId: "r-0001", turn: 1, tool_calls: 1, chars_read: 10, cost_usd: 0 }];
    const realDecide = service.decide.bind(service);
    service.decide = async (id, resume, opts) => {
      if (resume.kind === "info") {
        opts?.onProgress?.({ reviewId: id, turn: 1, tool_calls: 1, chars_read: 10, cost_usd: 0 });
        throw new Error("checkpointer unavailable");
      }
      return realDecide(id, resume, opts);
    };
    await start();
    await submit("gate_info_modal", "UAPPROVER", {
      question: { question_input: { type: "plain_text_input", value: "Is expiry still checked?" } },
    });
    const [eph] = await fake.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toContain("the review is unchanged");
    const last = fake.callsTo("chat.update").at(-1);
    expect(blockTexts(last)).not.toContain("Investigating…");
    expect(blockTexts(last)).toContain('"action_id":"gate_request_info"');
  });

  function lastUpdateIsFinal(): boolean {
    const last = fake.callsTo("chat.update").at(-1);
    return last !== undefined && !blockTexts(last).includes("Investigating…");
  }
});

describe("configuration", () => {
  it("refuses HTTP mode without a signing secret and Socket Mode without an app token", () => {
    const base = { botToken: "xoxb-test", service, log: pino({ level: "silent" }) };
    expect(() => buildSlackApp({ ...base, socketMode: false })).toThrow(/signing secret/);
    expect(() => buildSlackApp({ ...base, socketMode: true })).toThrow(/app-level token/);
  });
});

describe("request verification", () => {
  it("a bad signature gets 401 and nothing is called", async () => {
    await start();
    const body = interactivityBody(
      buttonClick({
        actionId: "gate_approve",
        reviewId: "r-0001",
        userId: "UAPPROVER",
        responseUrl: fake.responseUrl("x"),
      }),
    );
    const res = await postToSlackApp(url, body, FORM, {
      secret: SECRET,
      signature: sign("wrong-secret", Math.floor(Date.now() / 1000), body),
    });
    expect(res.status).toBe(401);
    await sleep(50);
    expect(service.decideCalls).toHaveLength(0);
    expect(fake.calls.filter((c) => c.method !== "auth.test")).toHaveLength(0);
  });

  it("a correctly signed but 6-minute-old request gets 401 and nothing is called", async () => {
    await start();
    const body = interactivityBody(
      buttonClick({
        actionId: "gate_approve",
        reviewId: "r-0001",
        userId: "UAPPROVER",
        responseUrl: fake.responseUrl("x"),
      }),
    );
    const res = await postToSlackApp(url, body, FORM, {
      secret: SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect(res.status).toBe(401);
    await sleep(50);
    expect(service.decideCalls).toHaveLength(0);
    expect(fake.calls.filter((c) => c.method !== "auth.test")).toHaveLength(0);
  });
});

describe("/gate", () => {
  const answer = async () => String((await fake.waitFor("response_url"))[0]?.body.text);

  it("status owner/repo#n shows the review", async () => {
    await start();
    expect((await command("status acme/web#12")).status).toBe(200);
    const [call] = await fake.waitFor("response_url");
    expect(call?.body.response_type).toBe("ephemeral");
    expect(String(call?.body.text)).toContain("*acme/web#12*");
    expect(String(call?.body.text)).toContain("Budget: cycles 1/2");
  });

  it("status #n uses the default repository", async () => {
    await start({ defaultRepo: "acme/web" });
    await command("status #12");
    expect(await answer()).toContain("Findings: 1 (1 blocking)");
  });

  it("help and an empty command show usage", async () => {
    await start();
    await command("help");
    await command("");
    const calls = await fake.waitFor("response_url", 2);
    for (const call of calls) expect(String(call.body.text)).toContain("/gate status <PR>");
  });

  it("an unknown subcommand says so and shows usage", async () => {
    await start();
    await command("approve acme/web#12");
    const text = await answer();
    expect(text).toContain("Unknown command `approve`");
    expect(service.decideCalls).toHaveLength(0);
  });

  it("an unknown PR says no review was found", async () => {
    await start();
    await command("status acme/web#999");
    expect(await answer()).toBe("No review found for acme/web#999.");
  });

  it("a malformed reference gets one clear line", async () => {
    await start();
    await command("status nonsense");
    const text = await answer();
    expect(text).toContain("`nonsense` is not a pull request or a review");
    expect(text.split("\n")).toHaveLength(1);
  });
});

describe("App Home", () => {
  it("publishes the waiting reviews, oldest first", async () => {
    service.add(
      makeReview({ id: "r-old", pr: "acme/api#1", title: "Oldest change", createdAt: "2026-02-01T00:00:00Z" }),
      makeResult({ review_id: "r-old" }),
    );
    service.add(
      makeReview({ id: "r-done", title: "Finished", status: "done" }),
      makeResult({ review_id: "r-done", status: "done", findings: [makeFinding()] }),
    );
    await start();
    const res = await postToSlackApp(url, appHomeOpenedBody("UVIEWER"), "application/json", { secret: SECRET });
    expect(res.status).toBe(200);
    const [publish] = await fake.waitFor("views.publish");
    expect(publish?.body.user_id).toBe("UVIEWER");
    const view = JSON.stringify(publish?.body.view);
    expect(view).toContain('"type":"home"');
    expect(view.indexOf("Oldest change")).toBeGreaterThan(0);
    expect(view.indexOf("Oldest change")).toBeLessThan(view.indexOf("Refactor session validation"));
    expect(view).not.toContain("Finished");
  });
});

async function waitUntil(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(10);
  }
}
