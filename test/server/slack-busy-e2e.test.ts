import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ACTION_APPROVE, ACTION_APPROVE_NOTE, ACTION_RERUN } from "../../src/slack/card.js";
import { APPROVE_MODAL, NOTE_BLOCK, NOTE_INPUT } from "../../src/slack/modals.js";
import { defined } from "../helpers/defined.js";
import { appHomeOpenedBody, postToSlackApp } from "../slack/helpers/slack-requests.js";
import {
  APPROVER,
  AUTHOR_SLACK,
  SLACK_SECRET,
  checkRunsOn,
  postWebhook,
  openPr,
  prKey,
  record,
  serveFixture,
  stacksClosedAfterEach,
  waitFor,
  type ServedPr,
  type Stack,
} from "./helpers.js";
import {
  blocksOf,
  cardPosts,
  click,
  clickForModal,
  command,
  events,
  hasButtons,
  rerequestedEvent,
  submit,
  threadNotes,
  waitingReview,
} from "./slack-helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

const lastUpdateOf = (s: Stack, ts: string) =>
  defined(s.slack, "the Slack fake")
    .callsTo("chat.update")
    .filter((c) => c.body.ts === ts)
    .at(-1);

/** After a re-run from any door: a new review of the same head, one new check run, its card in the thread. */
async function expectRerun(s: Stack, pr: ServedPr, old: { id: string }, ts: string) {
  await s.server.idle();
  const reviews = await s.server.gate.store.allForPr(prKey(pr));
  expect(reviews).toHaveLength(2);
  const fresh = defined(reviews[0], "the re-run");
  expect(fresh.id).not.toBe(old.id);
  expect(fresh.headSha).toBe(pr.headSha);
  expect(fresh.status).toBe("waiting_for_human");
  expect(await s.server.gate.store.get(old.id)).toMatchObject({ status: "superseded", supersededBy: fresh.id });
  // One new check run on the head: the old one closed neutral, the new one asks a person.
  const runs = checkRunsOn(s.gh, pr.headSha);
  expect(runs).toHaveLength(2);
  expect(runs.map((r) => [r.fields.external_id, r.fields.conclusion])).toEqual([
    [old.id, "neutral"],
    [fresh.id, "action_required"],
  ]);
  // The new card is posted in the first card's thread, and the old card points at it.
  const cards = cardPosts(s);
  expect(cards).toHaveLength(2);
  expect(cards[1]?.body.thread_ts).toBe(ts);
  expect(fresh.slackThreadTs).toBe(ts);
  const old_ = lastUpdateOf(s, ts);
  expect(blocksOf(old_)).toContain("Superseded by a re-run");
  expect(blocksOf(old_)).toContain("Open the new card");
  expect(hasButtons(old_)).toBe(false);
  return fresh;
}

describe("a busy channel: closed pull requests", () => {
  it("a closed PR ends its review: card closed without buttons, said in the thread, gone from App Home, clicks refused", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    expect(await openPr(s, pr, "closed")).toMatchObject({ id: review.id, status: "closed" });
    const card = lastUpdateOf(s, ts);
    expect(blocksOf(card)).toContain("pull request was closed");
    expect(hasButtons(card)).toBe(false);
    expect(threadNotes(s).map((n) => [n.body.thread_ts, String(n.body.text)])).toContainEqual([
      ts,
      expect.stringContaining("was closed; this review ended without a decision"),
    ]);
    expect(checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion).toBe("neutral");

    await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    const [eph] = await slack.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toContain(`${prKey(pr)} was closed`);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("closed");
    expect(await s.server.gate.store.auditFor(review.id)).toContainEqual(
      expect.objectContaining({ actor: APPROVER, outcome: "refused:closed" }),
    );

    await postToSlackApp(events(s), appHomeOpenedBody(APPROVER), "application/json", { secret: SLACK_SECRET });
    const [home] = await slack.waitFor("views.publish");
    expect(JSON.stringify(home?.body.view)).not.toContain(prKey(pr));
    expect(JSON.stringify(home?.body.view)).toContain("Nothing is waiting");
  });
});

describe("a busy channel: re-runs from the three doors", () => {
  it("GitHub's Re-run on the check run (check_run rerequested)", async () => {
    const { s, pr, review, ts } = await waitingReview(start);
    const body = JSON.stringify(rerequestedEvent("check_run", pr, review.id));
    expect((await postWebhook(s.base, body, { event: "check_run" })).status).toBe(202);
    const fresh = await expectRerun(s, pr, review, ts);
    expect(await s.server.gate.store.auditFor(review.id)).toContainEqual(
      expect.objectContaining({ action: "rerun", detail: { by: fresh.id } }),
    );
  });

  it("GitHub's Re-run all checks (check_suite rerequested)", async () => {
    const { s, pr, review, ts } = await waitingReview(start);
    const body = JSON.stringify(rerequestedEvent("check_suite", pr));
    const id = randomUUID();
    expect((await postWebhook(s.base, body, { event: "check_suite", id })).status).toBe(202);
    const fresh = await expectRerun(s, pr, review, ts);
    // GitHub redelivers: the same delivery starts no second re-run.
    expect(await postWebhook(s.base, body, { event: "check_suite", id })).toMatchObject({
      status: 200,
      text: "duplicate",
    });
    await s.server.idle();
    expect((await s.server.gate.store.allForPr(prKey(pr))).map((r) => r.id)).toEqual([fresh.id, review.id]);
  });

  it("`/gate rerun <PR>` by an approver; anyone else is refused", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    await command(s, `rerun ${prKey(pr)}`, "stranger", "UNOBODY");
    const [refused] = await slack.waitFor("response_url");
    expect(String(refused?.body.text)).toContain("only approvers may re-run");
    expect(await s.server.gate.store.allForPr(prKey(pr))).toHaveLength(1);

    await command(s, `rerun ${prKey(pr)}`, "approver", APPROVER);
    const answers = await slack.waitFor("response_url", 2);
    expect(String(answers.find((a) => a.responseId === "approver")?.body.text)).toContain("Re-run started");
    await expectRerun(s, pr, review, ts);
  });

  it("the card's Re-run button, for approvers", async () => {
    const { s, pr, review, ts } = await waitingReview(start);
    expect((await click(s, ACTION_RERUN, APPROVER, review.id, ts)).status).toBe(200);
    await waitFor("the re-run to register", async () => (await s.server.gate.store.allForPr(prKey(pr))).length === 2);
    await expectRerun(s, pr, review, ts);
  });
});

describe("a busy channel: notes and commands", () => {
  it("Approve with a note: the note is in the thread, on the check run and in the audit log", async () => {
    const { s, pr, review, ts } = await waitingReview(start);
    const view = await clickForModal(s, ACTION_APPROVE_NOTE, APPROVER, review.id, ts, APPROVE_MODAL);
    const note = "chart lib is vendored under a commercial licence";
    await submit(s, APPROVE_MODAL, APPROVER, String(view.private_metadata), { [NOTE_BLOCK]: { [NOTE_INPUT]: note } });
    await waitFor("the check run to pass", () => checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion === "success");
    await s.server.idle();
    const summary = String(record(checkRunsOn(s.gh, pr.headSha)[0]?.fields.output).summary);
    expect(summary).toContain(note);
    await waitFor("the decision in the thread", () =>
      threadNotes(s).find((n) => String(n.body.text).includes(note) && n.body.thread_ts === ts),
    );
    expect(await s.server.gate.store.auditFor(review.id)).toContainEqual(
      expect.objectContaining({
        actor: APPROVER,
        action: "approve",
        outcome: "received",
        detail: { door: "slack", note },
      }),
    );
  });

  it("`/gate list` shows what waits with age and who may decide; `/gate <PR>` is status; `/gate help` lists every command", async () => {
    const { s, slack, pr, review } = await waitingReview(start);
    await command(s, "list", "list");
    await command(s, prKey(pr), "bare");
    await command(s, `https://github.com/${pr.owner}/${pr.repo}/pull/${pr.number}`, "url");
    await command(s, "help", "help");
    const answers = await slack.waitFor("response_url", 4);
    const said = (id: string) => String(answers.find((a) => a.responseId === id)?.body.text);
    expect(said("list")).toContain("1 review(s) waiting");
    expect(said("list")).toContain(prKey(pr));
    expect(said("list")).toMatch(/waiting \d+m · may decide: <@UAPPROVER> <@UOTHER>/);
    expect(said("bare")).toContain(review.id);
    expect(said("url")).toContain(review.id);
    for (const verb of ["/gate status", "/gate list", "/gate rerun", "/gate help"])
      expect(said("help")).toContain(verb);
  });
});

describe("a busy channel: reminders", () => {
  it("brings a waiting review up in its thread after GATE_REMINDER_AFTER, escalates after twice that, and never twice (a restart included)", async () => {
    let now = new Date();
    const s = await start({
      slack: true,
      clock: () => now,
      env: { GATE_REMINDER_AFTER: "1h", GATE_REMINDER_ESCALATE_TO: "SLEADS" },
    });
    const pr = serveFixture(s, "002_new_dependency");
    const review = await openPr(s, pr);
    const ts = defined(review.slackTs, "the card's ts");
    const reminders = () => threadNotes(s).filter((n) => /Reminder|Escalated/.test(String(n.body.text)));

    now = new Date(now.getTime() + 59 * 60_000);
    expect(await s.server.remind()).toBe(0);
    now = new Date(now.getTime() + 2 * 60_000);
    expect(await s.server.remind()).toBe(1);
    expect(reminders().map((n) => [n.body.thread_ts, String(n.body.text)])).toEqual([
      [
        ts,
        expect.stringMatching(/^:alarm_clock: Reminder: <@UAPPROVER> <@UOTHER>, .* has waited 1h 1m for a decision/),
      ],
    ]);
    expect(await s.server.remind()).toBe(0);

    await s.server.close();
    const next = await s.restart();
    now = new Date(now.getTime() + 60 * 60_000);
    expect(await next.remind()).toBe(1);
    expect(await next.remind()).toBe(0);
    expect(reminders().map((n) => String(n.body.text))).toEqual([
      expect.stringContaining("Reminder"),
      expect.stringMatching(/^:rotating_light: Escalated: <!subteam\^SLEADS>, .* has waited 2h 1m/),
    ]);
  });
});

describe("a busy channel: names people recognise, and GitHub Enterprise Server", () => {
  it("the check run, the card and the thread name the decider by Slack display name and GitHub login", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start, {
      GATE_GITHUB_TO_SLACK: `dev-priya=${AUTHOR_SLACK},dana-gh=${APPROVER}`,
    });
    slack.profiles.set(APPROVER, { display_name: "Dana Smith", real_name: "Dana S.", fields: {} });
    await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    await waitFor("the check run to pass", () => checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion === "success");
    await s.server.idle();
    const output = record(checkRunsOn(s.gh, pr.headSha)[0]?.fields.output);
    expect(output.title).toBe("Approved by Dana Smith (@dana-gh)");
    expect(String(output.summary)).toContain("Approved by Dana Smith (@dana-gh) at");
    const card = lastUpdateOf(s, ts);
    expect(blocksOf(card)).toContain("*Approved* by Dana Smith (@dana-gh) at");
    expect(blocksOf(card)).not.toContain(`<@${APPROVER}>`);
    await waitFor("the decision in the thread", () =>
      threadNotes(s).find((n) => String(n.body.text).includes("Approved by Dana Smith (@dana-gh)")),
    );
  });

  it("with GitHub Enterprise Server, no link anywhere points at github.com", async () => {
    const web = "https://ghe.acme.internal";
    const s = await start({ slack: true, env: { GATE_GITHUB_WEB_URL: web } });
    const slack = defined(s.slack, "the Slack fake");
    const served = serveFixture(s, "002_new_dependency");
    const pr = { ...served, url: `${web}/${served.owner}/${served.repo}/pull/${served.number}` };
    const review = await openPr(s, pr);
    const ts = defined(review.slackTs, "the card's ts");
    await command(s, `status ${pr.url}`, "status");
    await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    await waitFor("the check run to pass", () => checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion === "success");
    await s.server.idle();
    const [status] = await slack.waitFor("response_url");
    expect(String(status?.body.text)).toContain(review.id);
    const said = JSON.stringify(slack.calls.map((c) => c.body));
    expect(said).toContain(`${web}/${pr.owner}/${pr.repo}/commit/${pr.headSha}`);
    expect(said).toContain(`${web}/${pr.owner}/${pr.repo}/blob/${pr.headSha}/package.json#L19`);
    expect(said).not.toContain("github.com");
    const checks = JSON.stringify(s.gh.requests.filter((r) => r.path.includes("/check-runs")).map((r) => r.body));
    expect(checks).not.toContain("github.com");
  });
});
