import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { TRY_AGAIN } from "../../src/slack/answer-window.js";
import { ACTION_APPROVE } from "../../src/slack/card.js";
import { APPROVER, checkRunsOn, record, stacksClosedAfterEach, waitFor, type Stack } from "./helpers.js";
import { blocksOf, click, waitingReview } from "./slack-helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

const conclusionOf = (s: Stack, sha: string) => checkRunsOn(s.gh, sha)[0]?.fields.conclusion;

/** Slack's own limit: an interaction not answered within 3 s shows the person an error. */
const SLACK_LIMIT_MS = 3000;

describe("Slack is answered within its 3 seconds, whatever its API does", () => {
  it("with users.profile.get answering after 5 s, an Approve is answered in time, applied once without waiting for the name, and the card then names the person", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    slack.profiles.set(APPROVER, { display_name: "Dana Smith", real_name: "Dana S.", fields: {} });
    slack.delay("users.profile.get", 5000);
    const before = {
      profiles: slack.callsTo("users.profile.get").length,
      updates: slack.callsTo("chat.update").length,
    };

    const answer = await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(SLACK_LIMIT_MS);
    // Stored durably before Slack heard back; the name is looked up only after the answer.
    expect((await s.server.gate.store.auditFor(review.id)).map((e) => e.outcome)).toContain("received");
    expect(slack.callsTo("chat.update").length - before.updates).toBe(0);

    await waitFor("the check run to pass", () => conclusionOf(s, pr.headSha) === "success", 20_000);
    // Applied before Slack named the person: the check run keeps their id this once.
    expect(String(record(checkRunsOn(s.gh, pr.headSha)[0]?.fields.output).title)).toBe(`Approved by ${APPROVER}`);
    await waitFor(
      "the card to name the person",
      () => blocksOf(slack.callsTo("chat.update").at(-1)).includes("*Approved* by Dana Smith"),
      15_000,
    );
    await s.server.idle();
    const update = slack.callsTo("chat.update").slice(before.updates).at(-1);
    expect(update?.body.ts).toBe(ts);
    const audit = await s.server.gate.store.auditFor(review.id);
    expect(audit.filter((e) => e.outcome === "received")).toHaveLength(1);
    expect(audit.filter((e) => e.outcome === "applied")).toHaveLength(1);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("done");
    // One profile look-up per click (the decider's name); the card updated as decided, then with the name.
    expect(slack.callsTo("users.profile.get").length - before.profiles).toBe(1);
    expect(slack.callsTo("chat.update").length - before.updates).toBe(2);
    expect(slack.callsTo("chat.postEphemeral")).toHaveLength(0);
  }, 30_000);

  it("a decision that cannot be taken in time (a user group answering after 5 s) is answered 'try again, nothing changed', and nothing is stored", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start, { GATE_APPROVERS: "SREVIEWERS" });
    slack.userGroups.set("SREVIEWERS", [APPROVER]);
    slack.delay("usergroups.users.list", 5000);

    const clicked = Date.now();
    const answer = await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(SLACK_LIMIT_MS);
    const [told] = await slack.waitFor("chat.postEphemeral", 1, 2000);
    expect(told?.body.text).toBe(TRY_AGAIN);
    expect(told?.body.user).toBe(APPROVER);
    // The look-up's bound (2 s) passed: the decision is refused as too late, audited, not stored.
    await waitFor(
      "the late decision to be refused",
      async () => (await s.server.gate.store.auditFor(review.id)).find((e) => e.outcome === "refused:too_late"),
      10_000,
    );
    const audit = await s.server.gate.store.auditFor(review.id);
    expect(audit.filter((e) => e.outcome === "received")).toHaveLength(0);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
    expect(conclusionOf(s, pr.headSha)).toBe("action_required");
    expect(slack.callsTo("chat.postEphemeral")).toHaveLength(1);

    // Once the group answers (the look-up went on), its members are known: trying again decides at once.
    await sleep(Math.max(0, clicked + 5000 + 300 - Date.now()));
    const again = await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    expect(again.ms).toBeLessThan(SLACK_LIMIT_MS);
    await waitFor("the check run to pass", () => conclusionOf(s, pr.headSha) === "success");
    expect(slack.callsTo("usergroups.users.list")).toHaveLength(1);
  }, 30_000);
});
