import { describe, expect, it } from "vitest";
import { TRY_AGAIN } from "../../src/slack/answer-window.js";
import { ACTION_APPROVE, ACTION_REJECT } from "../../src/slack/card.js";
import { PENDING_MODAL, REASON_INPUT, REJECT_MODAL } from "../../src/slack/modals.js";
import {
  APPROVER,
  OTHER_APPROVER,
  checkRunsOn,
  record,
  stacksClosedAfterEach,
  waitFor,
  type Stack,
} from "./helpers.js";
import { REASON_BLOCK, blocksOf, click, submit, waitingReview } from "./slack-helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

const conclusionOf = (s: Stack, sha: string) => checkRunsOn(s.gh, sha)[0]?.fields.conclusion;

/** Slack's own limit: an interaction not answered within 3 s shows the person an error (a protocol deadline). */
const SLACK_LIMIT_MS = 3000;

/** A slow Slack: what the issue measured. */
const SLOW_MS = 5000;

describe("decisions do not wait for Slack's API", () => {
  it("with usergroups.users.list and users.profile.get answering after 5 s, an Approve by an approver listed by id is answered in time, applied once, and the card then names them", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start, { GATE_APPROVERS: `${APPROVER},SREVIEWERS` });
    slack.userGroups.set("SREVIEWERS", [OTHER_APPROVER]);
    slack.profiles.set(APPROVER, { display_name: "Dana Smith", real_name: "Dana S.", fields: {} });
    slack.delay("usergroups.users.list", SLOW_MS);
    slack.delay("users.profile.get", SLOW_MS);
    const before = {
      profiles: slack.callsTo("users.profile.get").length,
      updates: slack.callsTo("chat.update").length,
    };

    const answer = await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(SLACK_LIMIT_MS);
    // Listed by id: the groups were never asked.
    expect(slack.callsTo("usergroups.users.list")).toHaveLength(0);

    await waitFor("the check run to pass", () => conclusionOf(s, pr.headSha) === "success", 20_000);
    // Applied without waiting for the name (Slack's profile answers 5 s after the click).
    const title = String(record(checkRunsOn(s.gh, pr.headSha)[0]?.fields.output).title);
    expect(title).toMatch(/^Approved by /);
    expect(title).not.toContain("Dana Smith");
    expect((await s.server.gate.runner.result(review.id)).route).toBe("human_approved");

    // Then the card names them, once their profile answers.
    await waitFor(
      "the card to name the approver",
      () =>
        slack
          .callsTo("chat.update")
          .slice(before.updates)
          .find((u) => u.body.ts === ts && blocksOf(u).includes("*Approved* by Dana Smith")),
      15_000,
    );
    await s.server.idle();
    const audit = await s.server.gate.store.auditFor(review.id);
    expect(audit.filter((e) => e.outcome === "received")).toHaveLength(1);
    expect(audit.filter((e) => e.outcome === "applied")).toHaveLength(1);
    expect(audit.filter((e) => e.outcome.startsWith("refused"))).toHaveLength(0);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("done");
    expect(slack.callsTo("users.profile.get").length - before.profiles).toBe(1);
    expect(slack.callsTo("usergroups.users.list")).toHaveLength(0);
    expect(slack.callsTo("chat.postEphemeral")).toHaveLength(0);
  }, 40_000);

  it("an approver known only through a group whose look-up answers within its bound (1 s) is answered in time and applied", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start, { GATE_APPROVERS: "SREVIEWERS" });
    slack.userGroups.set("SREVIEWERS", [APPROVER]);
    slack.delay("usergroups.users.list", 1000);

    const answer = await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(SLACK_LIMIT_MS);
    expect(answer.ms).toBeGreaterThanOrEqual(1000);
    await waitFor("the check run to pass", () => conclusionOf(s, pr.headSha) === "success", 20_000);
    await s.server.idle();
    const audit = await s.server.gate.store.auditFor(review.id);
    expect(audit.filter((e) => e.outcome === "received")).toHaveLength(1);
    expect(audit.filter((e) => e.outcome === "applied")).toHaveLength(1);
    expect(slack.callsTo("usergroups.users.list")).toHaveLength(1);
    expect(slack.callsTo("chat.postEphemeral")).toHaveLength(0);
  }, 30_000);

  it("a Reject whose check needs Slack's API opens its modal first (views.open before any look-up), then updates it to the form", async () => {
    // Known only through a group, and an author GATE_GITHUB_TO_SLACK does not map: both look-ups are needed.
    const { s, slack, review, ts } = await waitingReview(start, {
      GATE_APPROVERS: "SREVIEWERS",
      GATE_GITHUB_TO_SLACK: "someone-else=USOMEONE",
    });
    slack.userGroups.set("SREVIEWERS", [APPROVER]);
    slack.delay("usergroups.users.list", 1000);
    slack.delay("users.profile.get", 1000);

    const answer = await click(s, ACTION_REJECT, APPROVER, review.id, ts);
    expect(answer.ms).toBeLessThan(SLACK_LIMIT_MS);
    const [update] = await slack.waitFor("views.update", 1, 10_000);
    const order = slack.calls.map((c) => c.method);
    const opened = order.indexOf("views.open");
    expect(opened).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("usergroups.users.list")).toBeGreaterThan(opened);
    expect(order.indexOf("users.profile.get")).toBeGreaterThan(opened);
    const [open] = slack.callsTo("views.open");
    expect(record(open?.body.view).callback_id).toBe(PENDING_MODAL);
    expect(String(open?.body.trigger_id)).not.toBe("");
    // The same view, now the form.
    expect(update?.body.view_id).toBe("V1");
    const view = record(update?.body.view);
    expect(view.callback_id).toBe(REJECT_MODAL);
    expect(slack.callsTo("views.open")).toHaveLength(1);

    const res = await submit(s, REJECT_MODAL, APPROVER, String(view.private_metadata), {
      [REASON_BLOCK]: { [REASON_INPUT]: "adds GPL code" },
    });
    expect(res.status).toBe(200);
    await waitFor(
      "the review to be rejected",
      async () => (await s.server.gate.store.get(review.id))?.status === "done",
    );
    await s.server.idle();
    expect((await s.server.gate.runner.result(review.id)).route).toBe("human_rejected");
  }, 30_000);

  it("a Reject by someone the group look-up does not find shows the refusal in the modal it opened, privately and audited", async () => {
    const { s, slack, review, ts } = await waitingReview(start, { GATE_APPROVERS: "SREVIEWERS" });
    slack.userGroups.set("SREVIEWERS", [OTHER_APPROVER]);

    await click(s, ACTION_REJECT, "UNOBODY", review.id, ts);
    const [update] = await slack.waitFor("views.update", 1, 10_000);
    const order = slack.calls.map((c) => c.method);
    expect(order.indexOf("usergroups.users.list")).toBeGreaterThan(order.indexOf("views.open"));
    const view = record(update?.body.view);
    expect(view.callback_id).toBe(PENDING_MODAL);
    expect(JSON.stringify(view.blocks)).toContain("not among the configured approvers");
    expect(slack.callsTo("chat.postEphemeral")).toHaveLength(0);
    const audit = await s.server.gate.store.auditFor(review.id);
    expect(audit.filter((e) => e.outcome === "refused:not_allowed").map((e) => e.actor)).toEqual(["UNOBODY"]);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
  }, 30_000);

  it("a Reject whose group look-up is slower than its bound shows why in the modal; nothing changes, and it is audited", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start, { GATE_APPROVERS: "SREVIEWERS" });
    slack.userGroups.set("SREVIEWERS", [APPROVER]);
    slack.delay("usergroups.users.list", SLOW_MS);

    await click(s, ACTION_REJECT, APPROVER, review.id, ts);
    const [update] = await slack.waitFor("views.update", 1, 10_000);
    const view = record(update?.body.view);
    expect(view.callback_id).toBe(PENDING_MODAL);
    expect(JSON.stringify(view.blocks)).toContain(TRY_AGAIN);
    expect(view.submit).toBeUndefined();
    expect(slack.callsTo("chat.postEphemeral")).toHaveLength(0);
    const audit = await s.server.gate.store.auditFor(review.id);
    expect(audit.filter((e) => e.outcome === "refused:too_late").map((e) => e.actor)).toEqual([APPROVER]);
    expect(audit.filter((e) => e.outcome === "received")).toHaveLength(0);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
    expect(conclusionOf(s, pr.headSha)).toBe("action_required");
  }, 30_000);
});
