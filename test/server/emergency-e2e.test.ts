import { describe, expect, it } from "vitest";
import { evidencePages, type EvidenceRow } from "../../src/review/evidence-row.js";
import { ACTION_APPROVE, ACTION_REJECT } from "../../src/slack/card.js";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { registrationFor } from "../../src/review/registration.js";
import { defined } from "../helpers/defined.js";
import { runGateCli } from "../helpers/run-cli.js";
import {
  APPROVER,
  AUTHOR_SLACK,
  CHANNEL,
  INSTALLATION_ID,
  checkRunsOn,
  latestReview,
  postWebhook,
  prKey,
  pullRequestEvent,
  record,
  serveFixture,
  stacksClosedAfterEach,
  waitFor,
  type ServedPr,
  type Stack,
} from "./helpers.js";
import { blocksOf, buttonValues, click, threadNotes } from "./slack-helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

const LABELLER = "oncall-sam";
const MERGER = "oncall-sam";
const HOUR = 3_600_000;

/** A clock the test moves: the real time plus `offset` (Slack's request signatures stay fresh until it moves). */
function movableClock() {
  let offset = 0;
  return {
    clock: () => new Date(Date.now() + offset),
    advance(ms: number) {
      offset += ms;
    },
  };
}

/** The PR's `pull_request` event with these labels, sent by LABELLER. */
function labelledEvent(action: string, pr: ServedPr, labels: string[], label?: string): Record<string, unknown> {
  const event = pullRequestEvent(action, pr);
  return {
    ...event,
    pull_request: { ...record(event.pull_request), labels: labels.map((name, i) => ({ id: 100 + i, name })) },
    sender: { login: LABELLER, id: 9, type: "User" },
    ...(label ? { label: { id: 200, name: label } } : {}),
  };
}

async function send(s: Stack, event: Record<string, unknown>, status = 202): Promise<void> {
  expect((await postWebhook(s.base, JSON.stringify(event))).status).toBe(status);
  await s.server.idle();
}

/** A Slack-mode stack with a GPL-dependency PR (it waits for a person), opened with these labels. */
async function openLabelled(labels: string[], env: Record<string, string> = {}) {
  const time = movableClock();
  const s = await start({
    slack: true,
    clock: time.clock,
    env: { GATE_GITHUB_TO_SLACK: `dev-priya=${AUTHOR_SLACK}`, ...env },
  });
  const pr = serveFixture(s, "002_new_dependency");
  await send(s, labelledEvent("opened", pr, labels));
  const review = await latestReview(s, pr);
  expect(review.status).toBe("waiting_for_human");
  const ts = defined(review.slackTs, "the card's ts");
  return { s, pr, review, ts, time, slack: defined(s.slack, "the Slack fake") };
}

const lastCardOf = (s: Stack, ts: string) => {
  const slack = defined(s.slack, "the Slack fake");
  const updates = slack.callsTo("chat.update").filter((c) => c.body.ts === ts);
  return (
    updates.at(-1) ?? slack.callsTo("chat.postMessage").find((c) => c.body.ts === ts || c.body.channel === CHANNEL)
  );
};

const checkOf = (s: Stack, pr: ServedPr) => defined(checkRunsOn(s.gh, pr.headSha)[0], "the check run").fields;

/** A `closed` delivery with `merged: true`, by MERGER at `at`. */
function mergedEvent(pr: ServedPr, at: string): Record<string, unknown> {
  const event = pullRequestEvent("closed", pr);
  return {
    ...event,
    pull_request: {
      ...record(event.pull_request),
      state: "closed",
      merged: true,
      merged_at: at,
      merged_by: { login: MERGER, id: 9, type: "User" },
    },
  };
}

async function evidenceRows(s: Stack): Promise<EvidenceRow[]> {
  const rows: EvidenceRow[] = [];
  for await (const page of evidencePages(s.server.gate.store, {})) rows.push(...page);
  return rows;
}

/** `gate evidence --format json` run as an auditor runs it, on the server's database. */
async function gateEvidence(s: Stack): Promise<EvidenceRow[]> {
  const env = {
    PATH: process.env.PATH ?? "",
    GATE_DB: defined(s.env.GATE_DB, "the stack's database"),
    GATE_DATA_DIR: s.dataDir,
    GATE_LOG_LEVEL: "silent",
  };
  const out = await runGateCli(["evidence", "--format", "json"], { env, cwd: PACKAGE_ROOT });
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout) as EvidenceRow[];
}

describe("emergency changes", () => {
  it("a PR opened with the emergency label: its check passes with the due time, the card says EMERGENCY with its buttons; past due it is overdue on the card, the thread and the evidence, once", async () => {
    const { s, pr, review, ts, time } = await openLabelled(["bug", "emergency"]);
    const result = await s.server.gate.runner.result(review.id);
    // The findings are still computed and shown: the emergency changes only the check's verdict.
    expect(result.route).toBe("human");
    expect(result.findings.some((f) => f.blocking)).toBe(true);
    const emergency = defined(result.emergency, "the emergency pass");
    expect(emergency).toMatchObject({ label: "emergency", overdue: false });
    expect(Date.parse(emergency.due_at) - Date.parse(emergency.since)).toBe(24 * HOUR);
    const due = emergency.due_at.slice(0, 16).replace("T", " ");

    const check = checkOf(s, pr);
    expect(check.conclusion).toBe("success");
    expect(JSON.stringify(check.output)).toContain(`Emergency: approval due by ${due} UTC`);

    const card = lastCardOf(s, ts);
    expect(blocksOf(card)).toContain("EMERGENCY");
    expect(buttonValues(card)).toContainEqual([ACTION_APPROVE, review.id]);
    expect(buttonValues(card)).toContainEqual([ACTION_REJECT, review.id]);
    expect(await s.server.gate.store.auditFor(review.id)).toContainEqual(
      expect.objectContaining({
        actor: `github:${LABELLER}`,
        action: "emergency",
        outcome: "granted",
        detail: expect.objectContaining({ label: "emergency", due_at: emergency.due_at, labeled_by: LABELLER }),
      }),
    );

    // Merged on the pass, before anyone approved it.
    const mergedAt = new Date().toISOString();
    await send(s, mergedEvent(pr, mergedAt));
    const merged = await s.server.gate.runner.result(review.id);
    expect(merged).toMatchObject({ status: "merged_unapproved", emergency: { overdue: false } });
    expect(checkOf(s, pr).conclusion).toBe("success");
    expect(JSON.stringify(checkOf(s, pr).output)).toContain(
      `Emergency merged by ${MERGER}: approval due by ${due} UTC`,
    );
    expect(blocksOf(lastCardOf(s, ts))).toContain("EMERGENCY, merged; approval due");
    expect(await evidenceRows(s)).toEqual([
      expect.objectContaining({
        pr: prKey(pr),
        emergency: true,
        emergency_due_at: emergency.due_at,
        overdue: false,
        reviewed: false,
      }),
    ]);

    // Not yet due: nothing is marked.
    time.advance(23 * HOUR);
    expect(await s.server.sweepEmergencies()).toBe(0);
    // Past due: overdue, once.
    time.advance(2 * HOUR);
    expect(await s.server.sweepEmergencies()).toBe(1);
    await s.server.idle();
    expect(await s.server.sweepEmergencies()).toBe(0);

    const overdue = await s.server.gate.runner.result(review.id);
    expect(overdue.emergency).toMatchObject({ overdue: true, due_at: emergency.due_at });
    expect(blocksOf(lastCardOf(s, ts))).toContain("EMERGENCY OVERDUE");
    const loud = threadNotes(s).filter((n) => String(n.body.text).includes("Emergency OVERDUE"));
    expect(loud).toHaveLength(1);
    expect(loud[0]?.body.thread_ts).toBe(ts);
    expect(String(loud[0]?.body.text)).toContain(`<@${APPROVER}>`);
    expect(checkOf(s, pr).conclusion).toBe("failure");
    expect(JSON.stringify(checkOf(s, pr).output)).toContain("Emergency overdue");
    expect(
      (await s.server.gate.store.auditFor(review.id)).filter(
        (e) => e.action === "emergency" && e.outcome === "overdue",
      ),
    ).toHaveLength(1);
    const status = await runGateCli(["status", review.id], {
      env: { PATH: process.env.PATH ?? "", GATE_DB: defined(s.env.GATE_DB, "the database"), GATE_DATA_DIR: s.dataDir },
      cwd: PACKAGE_ROOT,
    });
    expect(status.stdout).toContain(`emergency: the emergency label since ${emergency.since}; OVERDUE`);
    expect(await gateEvidence(s)).toEqual([
      expect.objectContaining({ pr: prKey(pr), emergency: true, emergency_due_at: emergency.due_at, overdue: true }),
    ]);

    // Approved after the fact later (at the CLI's door: Slack's signatures are a day old on this clock):
    // it stays overdue in the evidence, and is accounted for; the sweep never marks it again.
    const after = await s.server.gate.runner.decideAfterMerge(review.id, { kind: "approve_after_merge", by: APPROVER });
    expect(after.ok).toBe(true);
    await s.server.idle();
    time.advance(HOUR);
    expect(await s.server.sweepEmergencies()).toBe(0);
    expect(checkOf(s, pr).conclusion).toBe("success");
    expect(JSON.stringify(checkOf(s, pr).output)).toContain("approved after the fact");
    expect(blocksOf(lastCardOf(s, ts))).toContain("approved after the fact");
    expect(await evidenceRows(s)).toEqual([
      expect.objectContaining({
        overdue: true,
        decision: "approve_after_merge",
        decided: "after_merge",
        reviewed: true,
      }),
    ]);
  });

  it("approved before it is due: human_approved, never overdue", async () => {
    const { s, pr, review, ts, time } = await openLabelled(["emergency"]);
    expect(checkOf(s, pr).conclusion).toBe("success");
    expect((await click(s, ACTION_APPROVE, APPROVER, review.id, ts)).status).toBe(200);
    await waitFor(
      "the approval",
      async () => (await s.server.gate.runner.result(review.id)).route === "human_approved",
    );
    await s.server.idle();

    time.advance(25 * HOUR);
    expect(await s.server.sweepEmergencies()).toBe(0);
    const result = await s.server.gate.runner.result(review.id);
    expect(result).toMatchObject({ route: "human_approved", emergency: { overdue: false } });
    expect(checkOf(s, pr).conclusion).toBe("success");
    expect(JSON.stringify(checkOf(s, pr).output)).toContain("Approved by");
    expect(threadNotes(s).some((n) => String(n.body.text).includes("OVERDUE"))).toBe(false);
  });

  it("rejected while on the pass: the check fails", async () => {
    const { s, pr, review } = await openLabelled(["emergency"]);
    await s.server.gate.runner.decide(review.id, { kind: "reject", by: APPROVER, note: "not an emergency" });
    await s.server.idle();
    expect((await s.server.gate.runner.result(review.id)).route).toBe("human_rejected");
    expect(checkOf(s, pr).conclusion).toBe("failure");
  });

  it("a PR without the label is unchanged (action_required); the label added later grants the pass, audited with who added it", async () => {
    const { s, pr, review } = await openLabelled(["bug"]);
    expect((await s.server.gate.runner.result(review.id)).emergency).toBeUndefined();
    expect(checkOf(s, pr).conclusion).toBe("action_required");

    // Another label: nothing.
    await send(s, labelledEvent("labeled", pr, ["bug", "docs"], "docs"));
    expect(checkOf(s, pr).conclusion).toBe("action_required");

    await send(s, labelledEvent("labeled", pr, ["bug", "emergency"], "emergency"));
    expect((await s.server.gate.runner.result(review.id)).emergency).toMatchObject({
      label: "emergency",
      overdue: false,
    });
    expect(checkOf(s, pr).conclusion).toBe("success");
    expect(await s.server.gate.store.auditFor(review.id)).toContainEqual(
      expect.objectContaining({ actor: `github:${LABELLER}`, action: "emergency", outcome: "granted" }),
    );
  });

  it("labelled while its review still runs: remembered, and granted once the review waits for a person", async () => {
    const s = await start({ slack: true, env: { GATE_GITHUB_TO_SLACK: `dev-priya=${AUTHOR_SLACK}` } });
    const pr = serveFixture(s, "002_new_dependency");
    const runner = s.server.gate.runner;
    const queued = await runner.register(
      registrationFor(
        {
          kind: "github",
          owner: pr.owner,
          repo: pr.repo,
          number: pr.number,
          headSha: pr.headSha,
          installationId: INSTALLATION_ID,
        },
        {
          repo: `${pr.owner}/${pr.repo}`,
          number: pr.number,
          headSha: pr.headSha,
          title: pr.title,
          url: pr.url,
          author: pr.author,
        },
      ),
    );
    expect(await runner.labelPr(prKey(pr), "emergency", LABELLER)).toEqual([]);
    expect((await runner.result(queued.id)).emergency).toBeUndefined();
    await runner.run(queued.id);
    await s.server.idle();
    expect(await runner.result(queued.id)).toMatchObject({ route: "human", emergency: { label: "emergency" } });
    expect(checkOf(s, pr).conclusion).toBe("success");
    expect(await s.server.gate.store.auditFor(queued.id)).toContainEqual(
      expect.objectContaining({ actor: `github:${LABELLER}`, action: "emergency", outcome: "granted" }),
    );
  });

  it("GATE_EMERGENCY_LABEL=off: the label is ignored", async () => {
    const { s, pr, review } = await openLabelled(["emergency"], { GATE_EMERGENCY_LABEL: "off" });
    expect((await s.server.gate.runner.result(review.id)).emergency).toBeUndefined();
    expect(checkOf(s, pr).conclusion).toBe("action_required");
    await send(s, labelledEvent("labeled", pr, ["emergency"], "emergency"));
    expect(checkOf(s, pr).conclusion).toBe("action_required");
    expect(await s.server.gate.store.auditFor(review.id)).not.toContainEqual(
      expect.objectContaining({ action: "emergency" }),
    );
  });

  it("GATE_EMERGENCY_LABEL and GATE_EMERGENCY_HOURS name another label and window", async () => {
    const { s, pr, review } = await openLabelled(["hotfix"], {
      GATE_EMERGENCY_LABEL: "hotfix",
      GATE_EMERGENCY_HOURS: "4",
    });
    const pass = defined((await s.server.gate.runner.result(review.id)).emergency, "the pass");
    expect(Date.parse(pass.due_at) - Date.parse(pass.since)).toBe(4 * HOUR);
    expect(checkOf(s, pr).conclusion).toBe("success");
  });
});

describe("emergency reminders follow the due time", () => {
  const reminders = (s: Stack) =>
    threadNotes(s).filter((n) => /Emergency (reminder|escalated)/.test(String(n.body.text)));

  it("the deciders halfway through the window, GATE_REMINDER_ESCALATE_TO in its last quarter (merged or not), each once; none once overdue; GATE_REMINDER_AFTER's own reminders not for it", async () => {
    const { s, pr, review, ts, time } = await openLabelled(["emergency"], {
      GATE_EMERGENCY_HOURS: "8",
      GATE_REMINDER_AFTER: "1h",
      GATE_REMINDER_ESCALATE_TO: "SLEADS",
    });
    // A PR without the label, waiting as long: GATE_REMINDER_AFTER's reminders, unchanged.
    const plain = serveFixture(s, "002_new_dependency", { number: 9, headSha: "c".repeat(40) });
    await send(s, labelledEvent("opened", plain, []));
    const plainReview = await latestReview(s, plain);
    expect(plainReview.status).toBe("waiting_for_human");

    time.advance(2 * HOUR);
    // Only the plain PR is reminded (and escalated: it has waited twice GATE_REMINDER_AFTER).
    expect(await s.server.remind()).toBe(2);
    expect(reminders(s)).toEqual([]);
    expect(
      threadNotes(s).filter((n) => n.body.thread_ts === ts && /Reminder|Escalated/.test(String(n.body.text))),
    ).toEqual([]);

    // Halfway through the 8 hours: the people who may decide, with the due time.
    time.advance(2 * HOUR + 60_000);
    expect(await s.server.remind()).toBe(1);
    expect(await s.server.remind()).toBe(0);
    const due = defined((await s.server.gate.runner.result(review.id)).emergency, "the pass").due_at;
    expect(reminders(s).map((n) => [n.body.thread_ts, String(n.body.text)])).toEqual([
      [
        ts,
        expect.stringMatching(
          /^:alarm_clock: \*Emergency reminder\*: <@UAPPROVER> <@UOTHER>, acme\/[\w.-]+#\d+ passed its check on the `emergency` label; its approval is due by <!date\^\d+\^[^|]+\|([^>]+)> \(in 3h 5\dm\)/,
        ),
      ],
    ]);
    expect(String(reminders(s)[0]?.body.text)).toContain(`|${due}>`);

    // Merged on the pass, still undecided: in the last quarter (2 h left), escalated, once, across a restart.
    await send(s, mergedEvent(pr, new Date().toISOString()));
    expect((await s.server.gate.runner.result(review.id)).status).toBe("merged_unapproved");
    time.advance(HOUR);
    expect(await s.server.remind()).toBe(0);
    time.advance(HOUR);
    await s.server.close();
    const next = await s.restart();
    expect(await next.remind()).toBe(1);
    expect(await next.remind()).toBe(0);
    expect(reminders(s).map((n) => String(n.body.text))).toEqual([
      expect.stringContaining("Emergency reminder"),
      expect.stringMatching(
        /^:rotating_light: \*Emergency escalated\*: <!subteam\^SLEADS>, .* its approval is due by .* \(in 1h 5\dm\) and nobody has decided yet/,
      ),
    ]);
    expect(reminders(s).every((n) => n.body.thread_ts === ts)).toBe(true);

    // Past due: the sweep's overdue note, no more reminders.
    time.advance(3 * HOUR);
    expect(await next.sweepEmergencies()).toBe(1);
    expect(await next.remind()).toBe(0);
    expect(reminders(s)).toHaveLength(2);
  });

  it("without GATE_REMINDER_AFTER or GATE_REMINDER_ESCALATE_TO: the emergency is still reminded, and escalates to the approvers", async () => {
    const { s, ts, time } = await openLabelled(["emergency"], { GATE_EMERGENCY_HOURS: "4" });
    time.advance(HOUR);
    expect(await s.server.remind()).toBe(0);
    // Past the last quarter at once: both, once each.
    time.advance(2 * HOUR + 60_000);
    expect(await s.server.remind()).toBe(2);
    expect(await s.server.remind()).toBe(0);
    expect(reminders(s).map((n) => [n.body.thread_ts, String(n.body.text)])).toEqual([
      [ts, expect.stringMatching(/^:alarm_clock: \*Emergency reminder\*: <@UAPPROVER> <@UOTHER>, .*\(in 58m\)/)],
      [ts, expect.stringMatching(/^:rotating_light: \*Emergency escalated\*: <@UAPPROVER> <@UOTHER>, .*\(in 58m\)/)],
    ]);
  });
});
