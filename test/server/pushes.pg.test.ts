import { afterEach, describe, expect, it } from "vitest";
import { ACTION_APPROVE_AFTER_MERGE } from "../../src/slack/card.js";
import { defined } from "../helpers/defined.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";
import { APPROVER, stacksClosedAfterEach, waitFor } from "./helpers.js";
import { BEFORE, PUSHER, push, pushEvent, pushReviews, servePush, sha } from "./push-helpers.js";
import { blocksOf, cardPosts, click } from "./slack-helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();
const databases: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(databases.splice(0).map((db) => db.drop()));
});

describe("a push with no pull request, on PostgreSQL", () => {
  it("is reviewed once after the fact, stored and audited as on SQLite; a redelivery does nothing; approved after the fact", async () => {
    const db = await postgresUrl();
    databases.push(db);
    const s = await start({ slack: true, env: { GATE_DATABASE_URL: db.url } });
    const commits = [sha(21), sha(22)];
    const { pr, after } = servePush(s, commits, { forced: true });
    await push(s, pushEvent(pr, { after, commits, forced: true }), { id: "pg-push-1" });
    await waitFor("the push's review settled", async () =>
      (await pushReviews(s)).find((r) => r.status === "merged_unapproved"),
    );
    const again = await push(s, pushEvent(pr, { after, commits, forced: true }), { id: "pg-push-1", expect: 200 });
    expect(again.text).toBe("duplicate");

    const [review, ...others] = await pushReviews(s);
    expect(others).toEqual([]);
    const r = defined(review, "the push's review");
    expect(r).toMatchObject({ source: "push", number: 0, author: PUSHER, headSha: after });
    expect(await s.server.gate.runner.result(r.id)).toMatchObject({
      status: "merged_unapproved",
      pushed: { branch: "main", before: BEFORE, after, forced: true, commits },
      merged: { by: PUSHER },
    });
    const audit = await s.server.gate.store.auditFor(r.id);
    expect(audit.map((e) => `${e.action}:${e.outcome}`)).toEqual(
      expect.arrayContaining(["push:forced", "push:merged_unapproved"]),
    );
    const ts = await waitFor("the card", async () => (await s.server.gate.store.get(r.id))?.slackTs);
    expect(blocksOf(cardPosts(s)[0])).toContain("FORCE-PUSHED, CHANGED WITHOUT REVIEW");

    await click(s, ACTION_APPROVE_AFTER_MERGE, APPROVER, r.id, ts);
    const after_ = await waitFor(
      "the approval after the fact",
      async () => (await s.server.gate.runner.result(r.id)).after_the_fact,
    );
    expect(after_).toMatchObject({ kind: "approve", by: APPROVER });
  });
});
