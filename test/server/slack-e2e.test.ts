import { describe, expect, it } from "vitest";
import { cardLink } from "../../src/slack/card-link.js";
import {
  ACTION_APPROVE,
  ACTION_APPROVE_NOTE,
  ACTION_REJECT,
  ACTION_REQUEST_INFO,
  ACTION_RERUN,
  renderCard,
} from "../../src/slack/card.js";
import {
  INFO_MODAL,
  QUESTION_BLOCK,
  QUESTION_INPUT,
  REASON_BLOCK,
  REASON_INPUT,
  REJECT_MODAL,
} from "../../src/slack/modals.js";
import { startGateServer } from "../../src/server/start.js";
import { defined } from "../helpers/defined.js";
import { runGateCli } from "../helpers/run-cli.js";
import {
  appHomeOpenedBody,
  buttonClick,
  interactivityBody,
  postToSlackApp,
  sign,
  slashCommandBody,
} from "../slack/helpers/slack-requests.js";
import {
  FORM,
  blocksOf,
  buttonValues,
  cardPosts,
  click,
  clickForModal,
  events,
  hasButtons,
  submit,
  threadNotes,
  waitingReview,
} from "./slack-helpers.js";
import {
  APPROVER,
  AUTHOR_SLACK,
  CHANNEL,
  OTHER_APPROVER,
  SLACK_SECRET,
  checkRunsOn,
  latestReview,
  openPr,
  postWebhook,
  prKey,
  pullRequestEvent,
  record,
  serveFixture,
  stacksClosedAfterEach,
  waitFor,
  type Stack,
} from "./helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

const conclusionOf = (s: Stack, sha: string) => checkRunsOn(s.gh, sha)[0]?.fields.conclusion;

describe("the gate's server with Slack (HTTP mode) and GitHub (App mode)", () => {
  it("posts the card, and an approver's Approve resumes the review: card decided, check run success, audited", async () => {
    const { s, slack, pr, review, post, ts } = await waitingReview(start);
    expect(post.body.channel).toBe(CHANNEL);
    expect(buttonValues(post)).toEqual([
      [ACTION_APPROVE, review.id],
      [ACTION_REJECT, review.id],
      [ACTION_REQUEST_INFO, review.id],
      [ACTION_APPROVE_NOTE, review.id],
      [ACTION_RERUN, review.id],
    ]);
    // The card the fake received is exactly what renderCard draws for this review and result.
    const card = renderCard({
      review,
      result: defined(await s.server.gate.store.lastResult(review.id), "the stored result"),
      checkRunUrl: `${review.url}/checks`,
    });
    expect(post.body.blocks).toEqual(card.blocks);
    expect(post.body.text).toBe(card.text);
    expect(blocksOf(post)).toContain("LIC-02");
    expect(conclusionOf(s, pr.headSha)).toBe("action_required");
    expect(String(record(checkRunsOn(s.gh, pr.headSha)[0]?.fields.output).title)).toContain(CHANNEL);
    // The check's "Details" opens the card.
    expect(checkRunsOn(s.gh, pr.headSha)[0]?.fields.details_url).toBe(cardLink(review));

    const before = {
      profiles: slack.callsTo("users.profile.get").length,
      updates: slack.callsTo("chat.update").length,
    };
    expect((await click(s, ACTION_APPROVE, APPROVER, review.id, ts)).status).toBe(200);
    // Slack is answered only once the approval is stored durably: it is on record at the answer.
    expect((await s.server.gate.store.auditFor(review.id)).map((e) => e.outcome)).toContain("received");
    await waitFor("the check run to pass", () => conclusionOf(s, pr.headSha) === "success");
    const update = await waitFor("a decided card", () =>
      slack.callsTo("chat.update").find((c) => blocksOf(c).includes("Approved")),
    );
    expect(update.body.channel).toBe(CHANNEL);
    expect(update.body.ts).toBe(ts);
    expect(hasButtons(update)).toBe(false);
    expect(blocksOf(update)).toContain(`<@${APPROVER}>`);
    expect(cardPosts(s)).toHaveLength(1);
    // The thread under the card: who is asked (approvers, the author told), then the decision.
    await waitFor("the decision in the thread", () => threadNotes(s).length === 2);
    const [ask, decided] = threadNotes(s);
    expect([ask?.body.thread_ts, decided?.body.thread_ts]).toEqual([ts, ts]);
    expect(String(ask?.body.text)).toContain(`<@${APPROVER}> <@${OTHER_APPROVER}>: a decision is needed`);
    expect(String(ask?.body.text)).toContain(`<@${AUTHOR_SLACK}>, your pull request waits`);
    expect(String(decided?.body.text)).toContain(`Approved by <@${APPROVER}>`);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("done");
    expect(await s.server.gate.store.auditFor(review.id)).toContainEqual(
      expect.objectContaining({ actor: APPROVER, action: "approve", outcome: "received" }),
    );
    await s.server.idle();
    expect((await s.server.gate.store.auditFor(review.id)).filter((e) => e.outcome === "applied")).toHaveLength(1);
    // One round trip per click: one profile look-up (the decider's name), one update of the card.
    expect(slack.callsTo("users.profile.get").length - before.profiles).toBe(1);
    expect(slack.callsTo("chat.update").length - before.updates).toBe(1);
  });

  it("rejects through the modal with a reason: check run failure, card updated", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    const view = await clickForModal(s, ACTION_REJECT, APPROVER, review.id, ts, REJECT_MODAL);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");

    const res = await submit(s, REJECT_MODAL, APPROVER, String(view.private_metadata), {
      [REASON_BLOCK]: { [REASON_INPUT]: "GPL code cannot ship in the dashboard" },
    });
    expect(res.status).toBe(200);
    await waitFor("the check run to fail", () => conclusionOf(s, pr.headSha) === "failure");
    const update = await waitFor("a rejected card", () =>
      slack.callsTo("chat.update").find((c) => blocksOf(c).includes("Rejected")),
    );
    expect(blocksOf(update)).toContain("GPL code cannot ship in the dashboard");
    expect(hasButtons(update)).toBe(false);
    const result = await s.server.gate.runner.result(review.id);
    expect(result.route).toBe("human_rejected");
    expect(result.decision).toMatchObject({
      kind: "reject",
      by: APPROVER,
      note: "GPL code cannot ship in the dashboard",
    });
  });

  it("answers Request info: progress on the card, then the answer; one cycle spent", async () => {
    const { s, slack, review, ts } = await waitingReview(start);
    const before = await s.server.gate.runner.result(review.id);
    const view = await clickForModal(s, ACTION_REQUEST_INFO, APPROVER, review.id, ts, INFO_MODAL);
    const updatesBefore = slack.callsTo("chat.update").length;

    await submit(s, INFO_MODAL, APPROVER, String(view.private_metadata), {
      [QUESTION_BLOCK]: { [QUESTION_INPUT]: "Is gpl-chart-lib bundled into the shipped app?" },
    });
    await waitFor("the review to wait again or finish", async () => {
      const r = await s.server.gate.runner.result(review.id);
      return r.budget.cycles_used === before.budget.cycles_used + 1 && r.status !== "running" ? r : undefined;
    });
    await waitFor("the final card", () => {
      const updates = slack.callsTo("chat.update").slice(updatesBefore);
      return updates.length >= 2 && !blocksOf(updates.at(-1)).includes("Investigating");
    });
    const updates = slack.callsTo("chat.update").slice(updatesBefore);
    expect(blocksOf(updates[0])).toContain("Investigating");
    expect(hasButtons(updates[0])).toBe(false);
    const after = await s.server.gate.runner.result(review.id);
    expect(after.investigations).toHaveLength(before.investigations.length + 1);
    expect(after.investigations.at(-1)?.question).toContain("gpl-chart-lib");
    if (after.status === "waiting_for_human") expect(hasButtons(updates.at(-1))).toBe(true);
    expect(blocksOf(updates.at(-1))).toContain(`cycles ${before.budget.cycles_used + 1} of`);
  });

  it("applies one of two simultaneous Approve clicks; the other is told it was already decided", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    const answers = await Promise.all([
      click(s, ACTION_APPROVE, APPROVER, review.id, ts),
      click(s, ACTION_APPROVE, OTHER_APPROVER, review.id, ts),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    await waitFor("the check run to pass", () => conclusionOf(s, pr.headSha) === "success");
    const [eph] = await slack.waitFor("chat.postEphemeral");
    const loser = String(eph?.body.user);
    expect([APPROVER, OTHER_APPROVER]).toContain(loser);
    // Usually "Already decided by …"; when the second click lands after the first one's claim, the
    // review is "running, not waiting for a decision". Either way exactly one is applied.
    expect(String(eph?.body.text)).toMatch(/already decided|not waiting for a decision/i);
    const audit = await s.server.gate.store.auditFor(review.id);
    const accepted = audit.filter((e) => e.outcome === "received");
    expect(accepted).toHaveLength(1);
    expect(accepted[0]?.actor).not.toBe(loser);
    expect(audit.filter((e) => e.actor === loser && e.outcome.startsWith("refused"))).toHaveLength(1);
    const completions = s.gh.find("PATCH", /check-runs\/\d+$/).filter((r) => record(r.body).conclusion === "success");
    expect(completions).toHaveLength(1);
    expect(slack.callsTo("chat.postEphemeral")).toHaveLength(1);
  });

  it("refuses the PR author and a non-approver, ephemerally and audited; the review keeps waiting", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start, { GATE_APPROVERS: `${APPROVER},${AUTHOR_SLACK}` });
    await click(s, ACTION_APPROVE, AUTHOR_SLACK, review.id, ts);
    await click(s, ACTION_REJECT, "UNOBODY", review.id, ts);
    const ephs = await slack.waitFor("chat.postEphemeral", 2);
    expect(ephs.find((e) => e.body.user === AUTHOR_SLACK)?.body.text).toMatch(/opened this pull request/);
    expect(ephs.find((e) => e.body.user === "UNOBODY")?.body.text).toMatch(/not among the configured approvers/);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
    expect(slack.callsTo("chat.update")).toHaveLength(0);
    expect(slack.callsTo("views.open")).toHaveLength(0);
    expect(conclusionOf(s, pr.headSha)).toBe("action_required");
    const refusals = (await s.server.gate.store.auditFor(review.id)).filter((e) => e.outcome === "refused:not_allowed");
    expect(refusals.map((e) => e.actor).sort()).toEqual([AUTHOR_SLACK, "UNOBODY"]);

    // `gate decide --by <the PR's author>` on the same database is refused with the same words.
    const slackSaid = String(ephs.find((e) => e.body.user === AUTHOR_SLACK)?.body.text);
    const cli = await runGateCli(["decide", review.id, "approve", "--by", pr.author], { env: s.env, cwd: s.dir });
    expect(cli.code).toBe(1);
    expect(cli.stderr.trim()).toBe(`gate decide: refused: ${slackSaid}`);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
  }, 90_000);

  it("recognises the PR author by their Slack profile's GitHub field when no mapping names them", async () => {
    const { s, slack, review, ts } = await waitingReview(start, {
      GATE_GITHUB_TO_SLACK: "",
      GATE_APPROVERS: `${APPROVER},${AUTHOR_SLACK}`,
    });
    slack.profiles.set(AUTHOR_SLACK, {
      display_name: "Priya",
      real_name: "Priya D.",
      fields: { Xf01: { value: "https://github.com/dev-priya", alt: "" } },
    });
    await click(s, ACTION_APPROVE, AUTHOR_SLACK, review.id, ts);
    const [eph] = await slack.waitFor("chat.postEphemeral");
    expect(eph?.body.text).toMatch(/opened this pull request/);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
    expect(slack.callsTo("users.profile.get").map((c) => c.body.user)).toEqual([AUTHOR_SLACK]);

    // Another approver, whose profile names someone else, may decide.
    slack.profiles.set(APPROVER, {
      display_name: "alice",
      fields: { Xf01: { value: "github.com/alice-gh", alt: "" } },
    });
    await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    await waitFor(
      "the review to be approved",
      async () => (await s.server.gate.store.get(review.id))?.status === "done",
    );
  });

  it("a push supersedes the waiting review: its card says so, loses its buttons, and a click on it is refused", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    const newHead = "feedface".repeat(5);
    const moved = serveFixture(s, "002_new_dependency", { headSha: newHead });
    expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("synchronize", moved)))).status).toBe(202);
    await s.server.idle();
    expect((await s.server.gate.store.get(review.id))?.status).toBe("superseded");
    const oldCardUpdate = slack
      .callsTo("chat.update")
      .filter((c) => c.body.ts === ts)
      .at(-1);
    expect(blocksOf(oldCardUpdate)).toContain(newHead.slice(0, 7));
    expect(blocksOf(oldCardUpdate)).toMatch(/[Ss]uperseded/);
    expect(hasButtons(oldCardUpdate)).toBe(false);
    // The new head got its own card.
    const posts = cardPosts(s);
    expect(posts).toHaveLength(2);
    expect(buttonValues(posts[1]).map(([, v]) => v)).not.toContain(review.id);
    // ... in the first card's thread; the old card now points at it.
    expect(posts[1]?.body.thread_ts).toBe(ts);
    expect(blocksOf(oldCardUpdate)).toContain("Open the new card");
    expect(threadNotes(s).every((n) => n.body.thread_ts === ts)).toBe(true);

    await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    const [eph] = await slack.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toMatch(/superseded/i);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("superseded");
    expect(conclusionOf(s, pr.headSha)).toBe("neutral");
  });

  it("finishes a decision clicked just before shutdown before the database closes", async () => {
    const { s, pr, review, ts } = await waitingReview(start);
    expect((await click(s, ACTION_APPROVE, APPROVER, review.id, ts)).status).toBe(200);
    await s.server.close();
    expect(conclusionOf(s, pr.headSha)).toBe("success");
    const next = await s.restart();
    expect((await next.gate.store.get(review.id))?.status).toBe("done");
    expect((await next.gate.runner.result(review.id)).route).toBe("human_approved");
  });

  it("posts a card Slack refused once after a restart, and a click on it resumes the review from SQLite", async () => {
    const s = await start({ slack: true });
    const slack = defined(s.slack, "the Slack fake");
    slack.on("chat.postMessage", () => ({ ok: false, error: "channel_not_found" }));
    const pr = serveFixture(s, "002_new_dependency");
    await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)));
    await s.server.idle();
    const { id } = await latestReview(s, pr);
    expect((await s.server.gate.store.unpublished()).map((r) => r.id)).toEqual([id]);
    await s.server.close();

    slack.on("chat.postMessage", (b) => ({ ok: true, channel: b.channel, ts: "1700000000.000999" }));
    const next = await s.restart();
    await next.idle();
    const review = defined(await next.gate.store.get(id), "the review after the restart");
    expect(review).toMatchObject({ status: "waiting_for_human", slackChannel: CHANNEL, slackTs: "1700000000.000999" });
    expect(await next.gate.store.unpublished()).toHaveLength(0);
    expect(checkRunsOn(s.gh, pr.headSha)).toHaveLength(1);

    await click(s, ACTION_APPROVE, APPROVER, id, "1700000000.000999");
    await waitFor("the check run to pass", () => conclusionOf(s, pr.headSha) === "success");
    expect((await next.gate.runner.result(id)).decision).toMatchObject({ kind: "approve", by: APPROVER });
  });

  it("answers 401 to a bad Slack signature and to a stale timestamp, and changes nothing", async () => {
    const { s, slack, review, ts } = await waitingReview(start);
    const body = interactivityBody(
      buttonClick({
        actionId: ACTION_APPROVE,
        reviewId: review.id,
        userId: APPROVER,
        channel: CHANNEL,
        ts,
        responseUrl: slack.responseUrl("x"),
      }),
    );
    const forged = await postToSlackApp(events(s), body, FORM, { secret: "not-the-secret" });
    const stale = Math.floor(Date.now() / 1000) - 6 * 60;
    const old = await postToSlackApp(events(s), body, FORM, {
      secret: SLACK_SECRET,
      timestamp: stale,
      signature: sign(SLACK_SECRET, stale, body),
    });
    expect(forged.status).toBe(401);
    expect(old.status).toBe(401);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
    // Only the card's post, and Bolt's token check at start: nothing the forged requests caused.
    expect(slack.calls.map((c) => c.method).filter((m) => m !== "chat.postMessage" && m !== "auth.test")).toEqual([]);
    expect((await s.server.gate.store.auditFor(review.id)).filter((e) => e.actor !== "gate")).toEqual([]);
  });

  it("answers 4xx to signed but malformed requests (payload=null, no user, a future timestamp), changes nothing, and keeps serving", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    const click = buttonClick({
      actionId: ACTION_APPROVE,
      reviewId: review.id,
      userId: APPROVER,
      channel: CHANNEL,
      ts,
      responseUrl: slack.responseUrl("x"),
    });
    const { user: _user, ...noUser } = record(click);
    const nullPayload = await postToSlackApp(events(s), "payload=null", FORM, { secret: SLACK_SECRET });
    const userless = await postToSlackApp(events(s), interactivityBody(noUser), FORM, { secret: SLACK_SECRET });
    const ahead = Math.floor(Date.now() / 1000) + 400;
    const future = await postToSlackApp(events(s), interactivityBody(click), FORM, {
      secret: SLACK_SECRET,
      timestamp: ahead,
    });
    expect([nullPayload.status, userless.status, future.status]).toEqual([400, 400, 401]);
    // The process lives and serves: health, a signed webhook, and then a real click.
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
    expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)))).status).toBe(202);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
    expect(slack.calls.map((c) => c.method).filter((m) => m !== "chat.postMessage" && m !== "auth.test")).toEqual([]);
    expect((await postToSlackApp(events(s), interactivityBody(click), FORM, { secret: SLACK_SECRET })).status).toBe(
      200,
    );
    await waitFor("the check run to pass", () => conclusionOf(s, pr.headSha) === "success");
  });

  it("refuses a button whose value names another review than the clicked card's; no card changes", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    const other = serveFixture(s, "003b_auth_change_logs_token");
    const second = await openPr(s, other);
    expect(second.status).toBe("waiting_for_human");
    expect(second.slackTs).toMatch(/^\d+\.\d+$/);
    expect(second.slackTs).not.toBe(ts);
    const updatesBefore = slack.callsTo("chat.update").length;

    // A click on the first review's card whose value was changed to the second review's id.
    expect((await click(s, ACTION_APPROVE, APPROVER, second.id, ts)).status).toBe(200);
    const [eph] = await slack.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toContain(`not the card of review ${second.id}`);
    expect((await s.server.gate.store.get(second.id))?.status).toBe("waiting_for_human");
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
    expect(slack.callsTo("chat.update")).toHaveLength(updatesBefore);
    expect(conclusionOf(s, pr.headSha)).toBe("action_required");
    expect(conclusionOf(s, other.headSha)).toBe("action_required");
    expect(await s.server.gate.store.auditFor(second.id)).toContainEqual(
      expect.objectContaining({ actor: APPROVER, action: "approve", outcome: "refused:wrong_card" }),
    );
  });

  it("answers `/gate status` ephemerally, and says plainly when a PR has no review", async () => {
    const { s, slack, pr, review } = await waitingReview(start);
    const command = (text: string, id: string) =>
      postToSlackApp(events(s), slashCommandBody({ text, userId: "UANY", responseUrl: slack.responseUrl(id) }), FORM, {
        secret: SLACK_SECRET,
      });
    expect((await command(`status ${prKey(pr)}`, "known")).status).toBe(200);
    expect((await command(`status ${pr.owner}/${pr.repo}#999`, "unknown")).status).toBe(200);
    const answers = await slack.waitFor("response_url", 2);
    const known = answers.find((a) => a.responseId === "known");
    const unknown = answers.find((a) => a.responseId === "unknown");
    expect(known?.body.response_type).toBe("ephemeral");
    expect(String(known?.body.text)).toContain(review.id);
    expect(String(known?.body.text)).toMatch(/waiting for human/);
    expect(String(known?.body.text)).toContain("LIC-02");
    expect(String(known?.body.text)).toMatch(/cycles 0\/2/);
    expect(unknown?.body.response_type).toBe("ephemeral");
    expect(unknown?.body.text).toBe(`No review found for ${pr.owner}/${pr.repo}#999.`);
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);

    // App Home lists the review among those waiting.
    expect(
      (await postToSlackApp(events(s), appHomeOpenedBody(APPROVER), "application/json", { secret: SLACK_SECRET }))
        .status,
    ).toBe(200);
    const [home] = await slack.waitFor("views.publish");
    expect(home?.body.user_id).toBe(APPROVER);
    expect(JSON.stringify(home?.body.view)).toContain(prKey(pr));
  });
});

describe("startGateServer without Slack settings", () => {
  it("names the missing variables and mentions `npm run demo` and GATE_SLACK=off", async () => {
    const env = {
      GITHUB_WEBHOOK_SECRET: "x",
      GITHUB_TOKEN: "ghp_x",
      PORT: "0",
      GATE_DB: ":memory:",
      GATE_LOG_LEVEL: "silent",
    };
    const failure = await startGateServer(env).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    const message = failure instanceof Error ? failure.message : "";
    for (const name of [
      "SLACK_BOT_TOKEN",
      "SLACK_SIGNING_SECRET",
      "GATE_SLACK_CHANNEL",
      "GATE_APPROVERS",
      "GATE_SLACK=off",
      "npm run demo",
    ]) {
      expect(message).toContain(name);
    }
  });
});
