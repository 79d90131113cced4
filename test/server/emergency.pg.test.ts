import { afterEach, describe, expect, it } from "vitest";
import { evidencePages, type EvidenceRow } from "../../src/review/evidence-row.js";
import { defined } from "../helpers/defined.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";
import {
  AUTHOR_SLACK,
  checkRunsOn,
  latestReview,
  postWebhook,
  pullRequestEvent,
  record,
  serveFixture,
  stacksClosedAfterEach,
  waitFor,
} from "./helpers.js";
import { threadNotes } from "./slack-helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();
const databases: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(databases.splice(0).map((db) => db.drop()));
});

const HOUR = 3_600_000;

describe("emergency changes, on PostgreSQL", () => {
  it("a label added while the review waits is a `label` job of the shared queue: the check passes; past due, merged, overdue in the evidence", async () => {
    const db = await postgresUrl();
    databases.push(db);
    let offset = 0;
    const s = await start({
      slack: true,
      clock: () => new Date(Date.now() + offset),
      env: { GATE_DATABASE_URL: db.url, GATE_GITHUB_TO_SLACK: `dev-priya=${AUTHOR_SLACK}` },
    });
    const pr = serveFixture(s, "002_new_dependency");
    expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)))).status).toBe(202);
    const review = await waitFor("the review waiting", async () => {
      const r = await latestReview(s, pr).catch(() => undefined);
      return r?.status === "waiting_for_human" && r.slackTs ? r : undefined;
    });
    await s.server.idle();
    expect(checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion).toBe("action_required");

    const event = pullRequestEvent("labeled", pr);
    const labeled = {
      ...event,
      pull_request: { ...record(event.pull_request), labels: [{ id: 1, name: "emergency" }] },
      label: { id: 1, name: "emergency" },
      sender: { login: "oncall-sam", id: 9, type: "User" },
    };
    expect((await postWebhook(s.base, JSON.stringify(labeled))).status).toBe(202);
    await waitFor(
      "the check passing on the emergency",
      () => checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion === "success",
    );
    const pass = defined((await s.server.gate.runner.result(review.id)).emergency, "the pass");
    expect(Date.parse(pass.due_at) - Date.parse(pass.since)).toBe(24 * HOUR);

    const closed = pullRequestEvent("closed", pr);
    const merged = {
      ...closed,
      pull_request: {
        ...record(closed.pull_request),
        state: "closed",
        merged: true,
        merged_at: new Date().toISOString(),
        merged_by: { login: "oncall-sam", id: 9, type: "User" },
      },
    };
    expect((await postWebhook(s.base, JSON.stringify(merged))).status).toBe(202);
    await waitFor("the merge", async () => (await s.server.gate.store.get(review.id))?.status === "merged_unapproved");
    await s.server.idle();

    offset = 25 * HOUR;
    expect(await s.server.sweepEmergencies()).toBe(1);
    expect(await s.server.sweepEmergencies()).toBe(0);
    await waitFor("the thread told", () =>
      threadNotes(s).some((n) => String(n.body.text).includes("Emergency OVERDUE")),
    );
    const rows: EvidenceRow[] = [];
    for await (const page of evidencePages(s.server.gate.store, {})) rows.push(...page);
    expect(rows).toEqual([expect.objectContaining({ emergency: true, overdue: true, reviewed: false })]);
  });
});
