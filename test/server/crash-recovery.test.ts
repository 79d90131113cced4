import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { systemClock } from "../../src/domain/clock.js";
import { ACTION_APPROVE } from "../../src/slack/card.js";
import { openDatabase } from "../../src/store/database.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { defined } from "../helpers/defined.js";
import { buttonClick, interactivityBody, postToSlackApp } from "../slack/helpers/slack-requests.js";
import { startChildServer, type ChildServer } from "./child-server.js";
import { isCard } from "./slack-helpers.js";
import {
  APPROVER,
  AUTHOR_SLACK,
  CHANNEL,
  INSTALLATION_ID,
  SLACK_SECRET,
  checkRunHistory,
  checkRunsOn,
  postWebhook,
  pullRequestEvent,
  record,
  serveFixture,
  stackEnv,
  startFakes,
  waitFor,
  type StackFakes,
} from "./helpers.js";

const FORM = "application/x-www-form-urlencoded";
/** Starting a server process (tsx compiles on the fly) and a review take seconds on a loaded machine. */
const SLOW = 90_000;

const ReviewRow = z.object({
  id: z.string(),
  status: z.string(),
  slack_channel: z.string().nullable(),
  slack_ts: z.string().nullable(),
  slack_post_started_at: z.string().nullable(),
  result_json: z.string().nullable(),
  result_published: z.number(),
});
type ReviewRow = z.infer<typeof ReviewRow>;
const AuditRow = z.object({ actor: z.string(), action: z.string(), outcome: z.string() });

/** Reads the server's SQLite file from outside, as a second process would (read-only, closed after). */
function readDb<T>(file: string, read: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function reviewRows(file: string): ReviewRow[] {
  if (!fs.existsSync(file)) return [];
  return readDb(file, (db) => z.array(ReviewRow).parse(db.prepare("SELECT * FROM gate_reviews").all()));
}

function auditOf(file: string, reviewId: string) {
  return readDb(file, (db) =>
    z.array(AuditRow).parse(db.prepare("SELECT * FROM gate_audit WHERE review_id = ? ORDER BY seq").all(reviewId)),
  );
}

function pendingDecisions(file: string): number {
  return readDb(file, (db) =>
    z
      .object({ n: z.number() })
      .parse(db.prepare("SELECT COUNT(*) AS n FROM gate_decisions WHERE applied_at IS NULL").get()),
  ).n;
}

/** A review whose result is saved and was shown everywhere (card and check run). */
const settled = (r: ReviewRow) => r.result_json !== null && r.result_published === 1;

interface Scene {
  fakes: StackFakes;
  dir: string;
  dbFile: string;
  env: NodeJS.ProcessEnv;
  children: ChildServer[];
}

let scene: Scene | undefined;
afterEach(async () => {
  if (!scene) return;
  for (const child of scene.children) child.kill("SIGKILL");
  await Promise.all(scene.children.map((c) => c.exited));
  await Promise.all([
    scene.fakes.gh.close(),
    scene.fakes.registry.close(),
    scene.fakes.osv.close(),
    scene.fakes.slack?.close(),
  ]);
  fs.rmSync(scene.dir, { recursive: true, force: true });
  scene = undefined;
});

/** Fakes of GitHub (App mode), Slack and the registries, and the settings of a server using them. */
async function setUp(): Promise<Scene & { slackApi: NonNullable<StackFakes["slack"]> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-crash-"));
  const fakes = await startFakes({ slack: true });
  const dataDir = path.join(dir, "data");
  const env = stackEnv(fakes, dataDir, { env: { GATE_GITHUB_TO_SLACK: `dev-priya=${AUTHOR_SLACK}` } });
  scene = { fakes, dir, dbFile: path.join(dataDir, "gate.db"), env, children: [] };
  const slackApi = fakes.slack;
  if (!slackApi) throw new Error("the Slack fake did not start");
  return { ...scene, slackApi };
}

async function start(s: Scene): Promise<ChildServer> {
  const child = await startChildServer(s.env);
  s.children.push(child);
  return child;
}

describe("a real server process killed with SIGKILL", { timeout: 4 * SLOW }, () => {
  it("right after Slack got 200 for an Approve: after restart the review is approved once, its check run concluded once, one 'received' and one 'applied'", async () => {
    const s = await setUp();
    const { gh } = s.fakes;
    const pr = serveFixture(s.fakes, "002_new_dependency");
    const first = await start(s);
    expect((await postWebhook(first.base, JSON.stringify(pullRequestEvent("opened", pr)))).status).toBe(202);

    // The GPL dependency waits for a person: card posted, check run "action required", both recorded.
    const waiting = await waitFor(
      "the card and the check run of the waiting review",
      () => reviewRows(s.dbFile).find((r) => r.status === "waiting_for_human" && r.slack_ts !== null && settled(r)),
      SLOW,
    );
    const cards = () => s.slackApi.callsTo("chat.postMessage").filter(isCard);
    expect(record(cards()[0]?.body.metadata).event_payload).toEqual({
      review_id: waiting.id,
    });
    const [run] = checkRunsOn(gh, pr.headSha);
    expect(run?.fields.conclusion).toBe("action_required");

    // From here GitHub never hears the first process: its check-run writes die with it.
    const held = gh.hold("PATCH", /\/check-runs\/\d+$/);
    const click = buttonClick({
      actionId: ACTION_APPROVE,
      reviewId: waiting.id,
      userId: APPROVER,
      channel: CHANNEL,
      ts: waiting.slack_ts ?? "",
      responseUrl: s.slackApi.responseUrl("approve"),
    });
    const ack = await postToSlackApp(`${first.base}/slack/events`, interactivityBody(click), FORM, {
      secret: SLACK_SECRET,
    });
    // The moment Slack hears back, the process dies: no handler, no flush, no close.
    first.kill("SIGKILL");
    expect(ack.status).toBe(200);
    expect((await first.exited).signal).toBe("SIGKILL");

    // What the dead process left: the decision stored, received and not applied.
    expect(pendingDecisions(s.dbFile)).toBe(1);
    expect(
      auditOf(s.dbFile, waiting.id)
        .filter((e) => e.actor === APPROVER)
        .map((e) => e.outcome),
    ).toEqual(["received"]);

    held.release();
    const second = await start(s);
    // Recovery publishes the outcome, then marks the decision applied.
    await waitFor("the decision applied", () => pendingDecisions(s.dbFile) === 0, SLOW);
    const done = defined(
      reviewRows(s.dbFile).find((r) => r.id === waiting.id),
      "the review",
    );
    expect(done.status).toBe("done");
    expect(settled(done)).toBe(true);
    expect(JSON.parse(done.result_json ?? "{}")).toMatchObject({
      route: "human_approved",
      decision: { kind: "approve", by: APPROVER },
    });
    expect(auditOf(s.dbFile, waiting.id).filter((e) => e.actor === APPROVER)).toEqual([
      { actor: APPROVER, action: "approve", outcome: "received" },
      { actor: APPROVER, action: "approve", outcome: "applied" },
    ]);

    // One check run for the head, concluded "success" by exactly one write.
    const runs = checkRunsOn(gh, pr.headSha);
    expect(runs).toHaveLength(1);
    const concluded = defined(runs[0], "the head's check run");
    expect(concluded.fields).toMatchObject({ status: "completed", conclusion: "success" });
    const conclusions = checkRunHistory(gh, concluded)
      .map((b) => b.conclusion)
      .filter((c) => c !== undefined);
    expect(conclusions).toEqual(["action_required", "success"]);

    // The card says so, and no second card was posted. The thread hears of the decision at most
    // once (a note is claimed before it is posted: a crash in between loses it rather than repeats it).
    expect(cards()).toHaveLength(1);
    expect(String(s.slackApi.callsTo("chat.update").at(-1)?.body.text)).toMatch(/approved/i);
    const approvedNotes = s.slackApi
      .callsTo("chat.postMessage")
      .filter((c) => !isCard(c) && String(c.body.text).includes("Approved by"));
    expect(approvedNotes.length).toBeLessThanOrEqual(1);

    // A second restart finds nothing left to apply.
    second.kill("SIGKILL");
    await second.exited;
    const third = await start(s);
    expect((await fetch(`${third.base}/healthz`)).status).toBe(200);
    expect(auditOf(s.dbFile, waiting.id).filter((e) => e.outcome === "applied")).toHaveLength(1);
  });

  it("after answering a delivery and before registering its review: a restart registers and concludes it, once", async () => {
    const s = await setUp();
    const { gh } = s.fakes;
    const pr = serveFixture(s.fakes, "001_readme_typo");
    // What a process killed right after its 202 leaves: the delivery and its inbox entry, no review yet.
    fs.mkdirSync(path.dirname(s.dbFile), { recursive: true });
    const db = openDatabase(s.dbFile);
    const source = {
      kind: "github" as const,
      owner: pr.owner,
      repo: pr.repo,
      number: pr.number,
      headSha: pr.headSha,
      installationId: INSTALLATION_ID,
    };
    const entry = {
      review: { source, repo: `${pr.owner}/${pr.repo}`, number: pr.number, headSha: pr.headSha, title: pr.title },
      baseChanged: false,
    };
    expect(await sqliteStore(db, systemClock).recordDelivery("d-answered", "pull_request", entry)).toBe(true);
    db.close();

    const server = await start(s);
    await waitFor(
      "the review concluded",
      () => reviewRows(s.dbFile).find((r) => r.status === "done" && settled(r)),
      SLOW,
    );
    expect(reviewRows(s.dbFile)).toHaveLength(1);
    const runs = checkRunsOn(gh, pr.headSha);
    expect(runs.map((r) => r.fields.conclusion)).toEqual(["success"]);
    // GitHub redelivering it changes nothing: the delivery was recorded before the crash.
    const again = await postWebhook(server.base, JSON.stringify(pullRequestEvent("opened", pr)), { id: "d-answered" });
    expect(again).toMatchObject({ status: 200, text: "duplicate" });
    expect(reviewRows(s.dbFile)).toHaveLength(1);
  });

  it("between Slack posting the card and the gate recording it: after restart there is one card, found again", async () => {
    const s = await setUp();
    const pr = serveFixture(s.fakes, "002_new_dependency");
    const first = await start(s);
    // Slack has posted the card; the process dies before it reads the answer.
    let armed = true;
    s.slackApi.after("chat.postMessage", (body) => {
      if (!armed || !isCard({ method: "chat.postMessage", body })) return;
      armed = false;
      first.kill("SIGKILL");
    });
    expect((await postWebhook(first.base, JSON.stringify(pullRequestEvent("opened", pr)))).status).toBe(202);
    expect((await first.exited).signal).toBe("SIGKILL");

    const [lost] = reviewRows(s.dbFile);
    expect(lost?.status).toBe("waiting_for_human");
    expect(lost?.slack_post_started_at).not.toBeNull();
    expect(lost?.slack_ts).toBeNull();
    const cards = () => s.slackApi.callsTo("chat.postMessage").filter(isCard);
    expect(cards()).toHaveLength(1);

    await start(s);
    const recovered = await waitFor(
      "the review's card recorded and published",
      () => reviewRows(s.dbFile).find((r) => r.id === lost?.id && r.slack_ts !== null && settled(r)),
      SLOW,
    );
    // The one card, found through its metadata and updated in place.
    expect(cards()).toHaveLength(1);
    expect(s.slackApi.callsTo("conversations.history").length).toBeGreaterThan(0);
    const updates = s.slackApi.callsTo("chat.update");
    expect(updates.at(-1)?.body).toMatchObject({ channel: CHANNEL, ts: recovered.slack_ts });
    expect(recovered.slack_channel).toBe(CHANNEL);
    expect(checkRunsOn(s.fakes.gh, pr.headSha)).toHaveLength(1);
  });
});
