import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ACTION_APPROVE } from "../../src/slack/card.js";
import { defined } from "../helpers/defined.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";
import { buttonClick, interactivityBody, postToSlackApp } from "../slack/helpers/slack-requests.js";
import { startChildServer, type ChildServer } from "./child-server.js";
import { FORM, isCard } from "./slack-helpers.js";
import * as stack from "./helpers.js";

/** Starting server processes (tsx compiles on the fly) and a dozen reviews take a while on a loaded machine. */
const SLOW = 180_000;

/** Twelve pull requests: some pass, some wait for a person (a GPL dependency, a key, an injection, ...). */
const FIXTURES = [
  "001_readme_typo",
  "002_new_dependency",
  "003_auth_change",
  "003b_auth_change_logs_token",
  "004_hardcoded_aws_key",
  "006_sql_injection",
  "008_weak_crypto",
  "009_gpl_dev_dependency",
  "011_unknown_license",
  "013_logs_user_email",
  "016_tests_only",
  "017_version_bump",
];

const ReviewRow = z.object({
  id: z.string(),
  pr: z.string(),
  head_sha: z.string(),
  status: z.string(),
  slack_ts: z.string().nullable(),
  result_json: z.string().nullable(),
  result_published: z.number(),
});
type ReviewRow = z.infer<typeof ReviewRow>;

const settled = (r: ReviewRow) =>
  (r.status === "done" || r.status === "waiting_for_human") && r.result_json !== null && r.result_published === 1;

let db: TestDatabase | undefined;
let pool: pg.Pool | undefined;
let fakes: stack.StackFakes | undefined;
const children: ChildServer[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-replicas-"));

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(children.map((c) => c.exited));
  await pool?.end();
  await db?.drop();
  await Promise.all([fakes?.gh.close(), fakes?.registry.close(), fakes?.osv.close(), fakes?.slack?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("two gate server processes on one PostgreSQL database", { timeout: 4 * SLOW }, () => {
  it("share a batch of webhooks; one SIGKILLed mid-review is taken over after its lease: one final check run per PR, at most one card per review, nothing left running; a click on a replica that did not run the review applies it", async () => {
    db = await postgresUrl();
    const sql = new pg.Pool({ connectionString: db.url, max: 2 });
    sql.on("error", () => undefined);
    pool = sql;
    const reviews = async () => z.array(ReviewRow).parse((await sql.query("SELECT * FROM gate_reviews")).rows);
    const jobs = async () =>
      (
        await sql.query<{ kind: string; job_json: string; locked_by: string | null; live: boolean }>(
          "SELECT kind, job_json, locked_by, locked_until > now() AS live FROM gate_jobs",
        )
      ).rows;

    fakes = await stack.startFakes({ slack: true });
    const { gh } = fakes;
    const slack = defined(fakes.slack, "the Slack fake");
    const prs = FIXTURES.map((name) => stack.serveFixture(defined(fakes, "the fakes"), name));
    // Every review's intake reads its pull request from a slow GitHub: reviews are in flight long enough to be cut.
    const fast = gh.slow("GET", /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+$/, 1500);
    const replica = async (name: string) => {
      const env = stack.stackEnv(fakes as stack.StackFakes, path.join(dir, name), {
        env: {
          GATE_DATABASE_URL: db?.url ?? "",
          GATE_REPLICA_ID: name,
          GATE_JOB_LEASE: "3s",
          GATE_CONCURRENCY: "2",
        },
      });
      const child = await startChildServer(env, SLOW);
      children.push(child);
      return child;
    };
    // Both start at once, on an empty database: one migrates, the other waits for it.
    const [a, b] = await Promise.all([replica("replica-a"), replica("replica-b")]);

    // The batch, spread across both: each delivery goes to one of them, as a load balancer would send it.
    for (const [i, pr] of prs.entries()) {
      const to = i % 2 === 0 ? a : b;
      expect((await stack.postWebhook(to.base, JSON.stringify(stack.pullRequestEvent("opened", pr)))).status).toBe(202);
    }

    // Replica A is running a review: it holds a live lease on a review job. SIGKILL: no handler runs.
    const cut = await stack.waitFor(
      "replica A in the middle of a review",
      async () => {
        const held = (await jobs()).filter((j) => j.locked_by === "replica-a" && j.live && j.kind === "review");
        return held.length > 0 ? held : undefined;
      },
      SLOW,
    );
    a.kill("SIGKILL");
    expect((await a.exited).signal).toBe("SIGKILL");
    fast();
    const cutIds = cut.map((j) => z.object({ reviewId: z.string() }).parse(JSON.parse(j.job_json)).reviewId);
    const cutRows = (await reviews()).filter((r) => cutIds.includes(r.id));
    // What A left: reviews it had taken, not finished.
    expect(cutRows.length).toBeGreaterThan(0);
    expect(cutRows.every((r) => !settled(r))).toBe(true);

    // B alone finishes everything, A's cut reviews included once their leases expire.
    await stack.waitFor(
      "every review settled and published, and no job left",
      async () => {
        const rows = await reviews();
        return rows.length === FIXTURES.length && rows.every(settled) && (await jobs()).length === 0;
      },
      SLOW,
    );
    const taken = b.logs.filter((l) => String(l.msg).startsWith("job taken over"));
    for (const id of cutIds) expect(taken.some((l) => stack.record(l.job).reviewId === id)).toBe(true);

    const rows = await reviews();
    expect(rows.filter((r) => r.status === "queued" || r.status === "running")).toEqual([]);
    // One review per PR (no delivery registered twice), each PR one check run, concluded.
    expect(new Set(rows.map((r) => r.pr)).size).toBe(FIXTURES.length);
    for (const pr of prs) {
      const runs = stack.checkRunsOn(gh, pr.headSha);
      expect(runs, `${pr.repo}#${pr.number}`).toHaveLength(1);
      expect(runs[0]?.fields.status, `${pr.repo}#${pr.number}`).toBe("completed");
    }
    // At most one card per review; each review that waits for a person has its one card.
    const cards = () => slack.callsTo("chat.postMessage").filter(isCard);
    const cardsOf = (id: string) =>
      cards().filter((c) => stack.record(stack.record(c.body.metadata).event_payload).review_id === id);
    for (const r of rows) expect(cardsOf(r.id).length, r.pr).toBeLessThanOrEqual(1);
    const waiting = rows.filter((r) => r.status === "waiting_for_human");
    expect(waiting.length).toBeGreaterThanOrEqual(4);
    for (const r of waiting) expect(cardsOf(r.id), r.pr).toHaveLength(1);

    // A replica that ran none of these (A, restarted under a new name) handles a click on a card.
    const target = defined(
      waiting.find((r) => r.pr === "acme/web-dashboard#214"),
      "the GPL dependency's waiting review",
    );
    const c = await replica("replica-c");
    expect(c.logs.some((l) => l.msg === "review card posted")).toBe(false);
    const click = buttonClick({
      actionId: ACTION_APPROVE,
      reviewId: target.id,
      userId: stack.APPROVER,
      channel: stack.CHANNEL,
      ts: target.slack_ts ?? "",
      responseUrl: slack.responseUrl("approve-on-c"),
    });
    const ack = await postToSlackApp(`${c.base}/slack/events`, interactivityBody(click), FORM, {
      secret: stack.SLACK_SECRET,
    });
    expect(ack.status).toBe(200);
    const approved = await stack.waitFor(
      "the approval applied and published",
      async () =>
        (await reviews()).find(
          (r) => r.id === target.id && settled(r) && JSON.parse(r.result_json ?? "{}").status === "done",
        ),
      SLOW,
    );
    expect(JSON.parse(approved.result_json ?? "{}")).toMatchObject({
      route: "human_approved",
      decision: { kind: "approve", by: stack.APPROVER },
    });
    // Still one check run for that head, now concluded success; still one card, updated in place.
    const [run] = stack.checkRunsOn(gh, target.head_sha);
    expect(stack.checkRunsOn(gh, target.head_sha)).toHaveLength(1);
    expect(run?.fields).toMatchObject({ status: "completed", conclusion: "success" });
    expect(
      stack
        .checkRunHistory(gh, defined(run, "the check run"))
        .map((body) => body.conclusion)
        .filter((x) => x !== undefined)
        .at(-1),
    ).toBe("success");
    expect(cardsOf(target.id)).toHaveLength(1);
    expect(
      slack.callsTo("chat.update").some((u) => u.body.ts === target.slack_ts && /approved/i.test(String(u.body.text))),
    ).toBe(true);
    // The decision's job, held by C while it applied it, is gone with it; the decision is applied.
    await stack.waitFor("the decision's job released", async () => (await jobs()).length === 0, SLOW);
    const decisions = await sql.query<{ applied_at: string | null }>("SELECT applied_at FROM gate_decisions");
    expect(decisions.rows.map((d) => d.applied_at !== null)).toEqual([true]);
  });
});
