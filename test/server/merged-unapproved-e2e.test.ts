import { describe, expect, it } from "vitest";
import { ACTION_APPROVE, ACTION_APPROVE_AFTER_MERGE, ACTION_INCIDENT, ACTION_REJECT } from "../../src/slack/card.js";
import { INCIDENT_MODAL, REASON_INPUT, REJECT_MODAL } from "../../src/slack/modals.js";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { defined } from "../helpers/defined.js";
import { runGateCli } from "../helpers/run-cli.js";
import {
  APPROVER,
  AUTHOR_SLACK,
  OTHER_APPROVER,
  checkRunsOn,
  postWebhook,
  prKey,
  pullRequestEvent,
  record,
  stacksClosedAfterEach,
  waitFor,
  type ServedPr,
  type Stack,
} from "./helpers.js";
import {
  REASON_BLOCK,
  blocksOf,
  buttonValues,
  click,
  clickForModal,
  hasButtons,
  submit,
  threadNotes,
  waitingReview,
} from "./slack-helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

const MERGER = "octo-admin";
const MERGED_AT = "2026-03-02T10:15:00Z";
const NOBODY = "UNOBODY";

/** GitHub's `pull_request` `closed` example for a served PR: merged by MERGER at MERGED_AT, or closed unmerged. */
function closedEvent(pr: ServedPr, merged: boolean): Record<string, unknown> {
  const event = pullRequestEvent("closed", pr);
  const inner = record(event.pull_request);
  return {
    ...event,
    pull_request: {
      ...inner,
      state: "closed",
      merged,
      merged_at: merged ? MERGED_AT : null,
      merged_by: merged ? { login: MERGER, id: 77, type: "User" } : null,
    },
  };
}

async function closePr(s: Stack, pr: ServedPr, merged: boolean): Promise<void> {
  expect((await postWebhook(s.base, JSON.stringify(closedEvent(pr, merged)))).status).toBe(202);
  await s.server.idle();
}

const lastUpdateOf = (s: Stack, ts: string) =>
  defined(s.slack, "the Slack fake")
    .callsTo("chat.update")
    .filter((c) => c.body.ts === ts)
    .at(-1);

/** `gate status` run as a person runs it, on the server's database. */
function gateStatus(s: Stack, ...args: string[]) {
  const env = {
    ...process.env,
    GATE_DB: defined(s.env.GATE_DB, "the stack's database"),
    GATE_DATA_DIR: s.dataDir,
    GATE_LOG_LEVEL: "silent",
  };
  return runGateCli(["status", ...args], { env, cwd: PACKAGE_ROOT });
}

describe("a PR merged past the gate", () => {
  it("merged while waiting: the review ends merged_unapproved; card, thread, check run, gate status and audit say who merged it and when", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    await closePr(s, pr, true);

    expect(await s.server.gate.store.get(review.id)).toMatchObject({ status: "merged_unapproved" });
    const result = await s.server.gate.runner.result(review.id);
    expect(result).toMatchObject({
      status: "merged_unapproved",
      route: "merged_unapproved",
      merged: { by: MERGER, at: MERGED_AT, was: { status: "waiting_for_human", route: "human" } },
    });
    expect(result.after_the_fact).toBeUndefined();

    // The card says so, and offers only the decisions after the fact.
    const card = lastUpdateOf(s, ts);
    expect(blocksOf(card)).toContain("MERGED WITHOUT APPROVAL");
    expect(blocksOf(card)).toContain(MERGER);
    expect(buttonValues(card)).toEqual([
      [ACTION_APPROVE_AFTER_MERGE, review.id],
      [ACTION_INCIDENT, review.id],
    ]);
    // The thread hears it loudly, with the approvers mentioned.
    const loud = threadNotes(s).find((n) => String(n.body.text).includes("Merged without approval"));
    expect(loud?.body.thread_ts).toBe(ts);
    expect(String(loud?.body.text)).toContain(MERGER);
    expect(String(loud?.body.text)).toContain(`<@${APPROVER}>`);
    // The check run on the merged head fails, naming who merged it.
    const run = defined(checkRunsOn(s.gh, pr.headSha)[0], "the check run");
    expect(run.fields.conclusion).toBe("failure");
    expect(JSON.stringify(run.fields.output)).toContain(`Merged without approval by ${MERGER}`);

    // The audit log: who merged, and when.
    expect(await s.server.gate.store.auditFor(review.id)).toContainEqual(
      expect.objectContaining({
        actor: `github:${MERGER}`,
        action: "merge",
        outcome: "merged_unapproved",
        detail: expect.objectContaining({ merged_by: MERGER, merged_at: MERGED_AT, status: "waiting_for_human" }),
      }),
    );
    // `gate status`, as JSON and as text.
    const json = await gateStatus(s, review.id, "--json");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: "merged_unapproved",
      route: "merged_unapproved",
      merged: { by: MERGER, at: MERGED_AT },
    });
    const text = await gateStatus(s, prKey(pr));
    expect(text.stdout).toContain(`merged:   by ${MERGER} at ${MERGED_AT}, without approval`);
    expect(text.stdout).toContain(`github:${MERGER} merge: merged_unapproved`);

    // The evidence's change: the merge commit GitHub named, who merged it, not passed.
    expect(await s.server.gate.store.changesPage({}, undefined, 10)).toEqual([
      expect.objectContaining({
        kind: "merge",
        pr: prKey(pr),
        commitSha: "c4295bd74fb0f4fda03689c3df3f2803b658fd85",
        headSha: pr.headSha,
        author: pr.author,
        mergedBy: MERGER,
        mergedAt: new Date(MERGED_AT).toISOString(),
        reviewId: review.id,
        passed: false,
        review: expect.objectContaining({ status: "merged_unapproved" }),
      }),
    ]);

    // The gate's own buttons no longer decide it.
    await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    const [eph] = await slack.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toContain("merged without approval");
    expect((await s.server.gate.runner.result(review.id)).decision).toBeUndefined();
  });

  it("approved after the fact by an approver: recorded as such in the result, the audit log, the card and the thread; once", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    await closePr(s, pr, true);

    await click(s, ACTION_APPROVE_AFTER_MERGE, APPROVER, review.id, ts);
    await waitFor(
      "the approval after the fact",
      async () => (await s.server.gate.runner.result(review.id)).after_the_fact,
    );
    await s.server.idle();
    const result = await s.server.gate.runner.result(review.id);
    expect(result).toMatchObject({
      status: "merged_unapproved",
      route: "merged_unapproved",
      merged: { by: MERGER },
      after_the_fact: { kind: "approve", by: APPROVER },
    });
    expect(result.decision).toBeUndefined();
    const audit = await s.server.gate.store.auditFor(review.id);
    expect(audit).toContainEqual(
      expect.objectContaining({
        actor: APPROVER,
        action: "approve_after_merge",
        outcome: "received",
        detail: expect.objectContaining({ door: "slack", after_the_fact: true }),
      }),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({
        actor: APPROVER,
        action: "approve_after_merge",
        outcome: "applied",
        detail: expect.objectContaining({ after_the_fact: true }),
      }),
    );
    const card = await waitFor("the card approved after the fact", () =>
      slack.callsTo("chat.update").find((c) => c.body.ts === ts && blocksOf(c).includes("Approved after the fact")),
    );
    expect(hasButtons(card)).toBe(false);
    expect(threadNotes(s).map((n) => String(n.body.text))).toContainEqual(
      expect.stringContaining("Approved after the fact"),
    );
    expect(checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion).toBe("success");

    // A second decision after the fact is refused, and audited.
    await click(s, ACTION_APPROVE_AFTER_MERGE, OTHER_APPROVER, review.id, ts);
    await waitFor("the second one refused", async () =>
      (await s.server.gate.store.auditFor(review.id)).find(
        (e) => e.actor === OTHER_APPROVER && e.outcome === "refused:merged",
      ),
    );
    expect((await s.server.gate.runner.result(review.id)).after_the_fact).toMatchObject({ by: APPROVER });
  });

  it("after the fact from the author or a non-approver is refused and audited; nothing is recorded", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    await closePr(s, pr, true);

    await click(s, ACTION_APPROVE_AFTER_MERGE, AUTHOR_SLACK, review.id, ts);
    const [first] = await slack.waitFor("chat.postEphemeral");
    expect(String(first?.body.text)).toContain("you opened this pull request");
    await click(s, ACTION_APPROVE_AFTER_MERGE, NOBODY, review.id, ts);
    const [, second] = await slack.waitFor("chat.postEphemeral", 2);
    expect(String(second?.body.text)).toContain("not among the configured approvers");
    await click(s, ACTION_INCIDENT, NOBODY, review.id, ts);
    await slack.waitFor("chat.postEphemeral", 3);
    expect(slack.callsTo("views.open")).toHaveLength(0);

    const refused = (await s.server.gate.store.auditFor(review.id)).filter((e) => e.outcome === "refused:not_allowed");
    expect(refused.map((e) => [e.actor, e.action])).toEqual([
      [AUTHOR_SLACK, "approve_after_merge"],
      [NOBODY, "approve_after_merge"],
      [NOBODY, "incident"],
    ]);
    expect((await s.server.gate.runner.result(review.id)).after_the_fact).toBeUndefined();
  });

  it("marked as an incident with a note, through its modal", async () => {
    const { s, review, pr, ts } = await waitingReview(start);
    await closePr(s, pr, true);
    const view = await clickForModal(s, ACTION_INCIDENT, APPROVER, review.id, ts, INCIDENT_MODAL);
    const res = await submit(s, INCIDENT_MODAL, APPROVER, String(view.private_metadata), {
      [REASON_BLOCK]: { [REASON_INPUT]: "admin merge during the outage; GPL dependency to be removed" },
    });
    expect(res.status).toBe(200);
    const after = await waitFor(
      "the incident",
      async () => (await s.server.gate.runner.result(review.id)).after_the_fact,
    );
    expect(after).toMatchObject({
      kind: "incident",
      by: APPROVER,
      note: "admin merge during the outage; GPL dependency to be removed",
    });
    await s.server.idle();
    expect(await s.server.gate.store.auditFor(review.id)).toContainEqual(
      expect.objectContaining({ actor: APPROVER, action: "incident", outcome: "applied" }),
    );
    expect(checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion).toBe("failure");
  });

  it("merged after it was rejected: merged_unapproved, the rejection kept", async () => {
    const { s, pr, review, ts } = await waitingReview(start);
    const view = await clickForModal(s, ACTION_REJECT, APPROVER, review.id, ts, REJECT_MODAL);
    await submit(s, REJECT_MODAL, APPROVER, String(view.private_metadata), {
      [REASON_BLOCK]: { [REASON_INPUT]: "GPL code cannot ship" },
    });
    await waitFor("the rejection", async () => (await s.server.gate.store.get(review.id))?.status === "done");
    await s.server.idle();
    await closePr(s, pr, true);
    const result = await s.server.gate.runner.result(review.id);
    expect(result).toMatchObject({
      status: "merged_unapproved",
      route: "merged_unapproved",
      decision: { kind: "reject", by: APPROVER },
      merged: { by: MERGER, was: { status: "done", route: "human_rejected" } },
    });
    expect(blocksOf(lastUpdateOf(s, ts))).toContain("after its review rejected it");
  });

  it("merged after it was approved: as before, nothing marks it", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start);
    await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    await waitFor("the approval", async () => (await s.server.gate.store.get(review.id))?.status === "done");
    await s.server.idle();
    const updates = slack.callsTo("chat.update").length;
    await closePr(s, pr, true);
    expect(await s.server.gate.runner.result(review.id)).toMatchObject({ status: "done", route: "human_approved" });
    expect((await s.server.gate.store.auditFor(review.id)).map((e) => e.action)).not.toContain("merge");
    expect(slack.callsTo("chat.update")).toHaveLength(updates);
    expect(
      threadNotes(s)
        .map((n) => String(n.body.text))
        .join("\n"),
    ).not.toContain("Merged without approval");
    expect(checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion).toBe("success");
    // The evidence records it as a change the gate let pass.
    expect(await s.server.gate.store.changesPage({}, undefined, 10)).toEqual([
      expect.objectContaining({ pr: prKey(pr), mergedBy: MERGER, reviewId: review.id, passed: true }),
    ]);
  });

  it("closed without merge: as before, the review ends without a decision", async () => {
    const { s, pr, review, ts } = await waitingReview(start);
    await closePr(s, pr, false);
    expect(await s.server.gate.runner.result(review.id)).toMatchObject({ status: "closed" });
    expect((await s.server.gate.runner.result(review.id)).merged).toBeUndefined();
    expect(blocksOf(lastUpdateOf(s, ts))).toContain("pull request was closed");
    expect(
      threadNotes(s)
        .map((n) => String(n.body.text))
        .join("\n"),
    ).not.toContain("Merged without approval");
    expect(checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion).toBe("neutral");
    // Closed without merge: no change reached the branch.
    expect(await s.server.gate.store.changesPage({}, undefined, 10)).toEqual([]);
  });
});
