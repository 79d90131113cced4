import { describe, expect, it } from "vitest";
import { ACTION_APPROVE, ACTION_REQUEST_INFO } from "../../src/slack/card.js";
import { INFO_MODAL, QUESTION_BLOCK, QUESTION_INPUT } from "../../src/slack/modals.js";
import { defined } from "../helpers/defined.js";
import {
  buttonClick,
  interactivityBody,
  postToSlackApp,
  slashCommandBody,
  viewSubmission,
} from "../slack/helpers/slack-requests.js";
import {
  APPROVER,
  CHANNEL,
  OTHER_APPROVER,
  SLACK_SECRET,
  checkRunsOn,
  prKey,
  stacksClosedAfterEach,
  waitFor,
  type Stack,
} from "./helpers.js";
import { FORM, clickForModal, events, waitingReview } from "./slack-helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

/** Posts the very same signed request (one body, one timestamp, so one signature) `times` times at once. */
function replay(s: Stack, body: string, contentType: string, times: number) {
  const timestamp = Math.floor(Date.now() / 1000);
  return Promise.all(
    Array.from({ length: times }, () =>
      postToSlackApp(events(s), body, contentType, { secret: SLACK_SECRET, timestamp }),
    ),
  );
}

const outcomes = async (s: Stack, reviewId: string) =>
  (await s.server.gate.store.auditFor(reviewId)).map((e) => `${e.actor} ${e.action} ${e.outcome}`);

describe("a replayed Slack request has one effect", () => {
  it("five identical signed `/gate rerun` requests give one re-run; another re-run of the head while it runs is refused as already running; all audited", async () => {
    const { s, slack, pr, review } = await waitingReview(start);
    // GitHub answers slowly, so the re-run stays queued or running while the others arrive.
    s.gh.slow("GET", /\/pulls\/\d+/, 2500);
    const body = slashCommandBody({
      text: `rerun ${prKey(pr)}`,
      userId: APPROVER,
      responseUrl: slack.responseUrl("five"),
    });
    const answers = await replay(s, body, FORM, 5);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const said = (await slack.waitFor("response_url", 5)).map((c) => String(c.body.text));
    expect(said.filter((t) => t.startsWith("Re-run started"))).toHaveLength(1);
    expect(said.filter((t) => t.includes("was already received"))).toHaveLength(4);
    const reviews = await s.server.gate.store.allForPr(prKey(pr));
    expect(reviews).toHaveLength(2);
    const fresh = defined(reviews[0], "the re-run");
    expect(["queued", "running"]).toContain(fresh.status);

    // A new request (another approver) for the same head while the re-run is under way.
    await postToSlackApp(
      events(s),
      slashCommandBody({ text: `rerun ${prKey(pr)}`, userId: OTHER_APPROVER, responseUrl: slack.responseUrl("other") }),
      FORM,
      { secret: SLACK_SECRET },
    );
    const [other] = await waitFor(
      "the other answer",
      () =>
        slack.callsTo("response_url").filter((c) => c.responseId === "other").length === 1 &&
        slack.callsTo("response_url").filter((c) => c.responseId === "other"),
    );
    expect(String(other?.body.text)).toContain("already queued or running");
    await s.server.idle();
    expect(await s.server.gate.store.allForPr(prKey(pr))).toHaveLength(2);
    expect(checkRunsOn(s.gh, pr.headSha)).toHaveLength(2);
    // The refusals are audited: four replays (on the review the command found: the first, or the
    // re-run once registered), and the busy head on the re-run.
    const audited = [...(await outcomes(s, review.id)), ...(await outcomes(s, fresh.id))];
    expect(audited.filter((o) => o === `${APPROVER} /gate rerun refused:replayed`)).toHaveLength(4);
    expect(await outcomes(s, fresh.id)).toContain(`${OTHER_APPROVER} rerun refused:already_running`);
  }, 30_000);

  it("three identical Request-info submissions give one investigation", async () => {
    const { s, review, ts } = await waitingReview(start);
    const before = await s.server.gate.runner.result(review.id);
    const view = await clickForModal(s, ACTION_REQUEST_INFO, APPROVER, review.id, ts, INFO_MODAL);
    const submission = viewSubmission({
      callbackId: INFO_MODAL,
      userId: APPROVER,
      privateMetadata: String(view.private_metadata),
      values: {
        [QUESTION_BLOCK]: { [QUESTION_INPUT]: { type: "plain_text_input", value: "Is gpl-chart-lib shipped?" } },
      },
    });
    const answers = await replay(s, interactivityBody(submission), FORM, 3);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    await waitFor("the investigation to finish", async () => {
      const r = await s.server.gate.runner.result(review.id);
      return r.budget.cycles_used > before.budget.cycles_used && r.status !== "running";
    });
    await s.server.idle();
    const after = await s.server.gate.runner.result(review.id);
    expect(after.investigations).toHaveLength(before.investigations.length + 1);
    expect(after.budget.cycles_used).toBe(before.budget.cycles_used + 1);
    const audit = await outcomes(s, review.id);
    expect(audit.filter((o) => o === `${APPROVER} info received`)).toHaveLength(1);
    expect(audit.filter((o) => o === `${APPROVER} ${INFO_MODAL} refused:replayed`)).toHaveLength(2);
  }, 30_000);

  it("a click Slack delivers twice (the same trigger and action, signed anew) decides once", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    const click = buttonClick({
      actionId: ACTION_APPROVE,
      reviewId: review.id,
      userId: APPROVER,
      channel: CHANNEL,
      ts,
      responseUrl: slack.responseUrl("c"),
    });
    const body = interactivityBody(click);
    await postToSlackApp(events(s), body, FORM, { secret: SLACK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 5 });
    await postToSlackApp(events(s), body, FORM, { secret: SLACK_SECRET });
    await waitFor("the check run to pass", () => checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion === "success");
    await s.server.idle();
    const audit = await outcomes(s, review.id);
    expect(audit.filter((o) => o === `${APPROVER} approve received`)).toHaveLength(1);
    expect(audit).toContain(`${APPROVER} ${ACTION_APPROVE} refused:replayed`);
    // The replay was told nothing (Slack's own retry); nobody was told "already decided".
    expect(slack.callsTo("chat.postEphemeral")).toHaveLength(0);
  });
});
