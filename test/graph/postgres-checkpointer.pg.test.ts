import { afterEach, describe, expect, it } from "vitest";
import { reviewFixture, testGate, type TestGate } from "../helpers/gate.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";

const gates: TestGate[] = [];
const databases: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(gates.splice(0).map((g) => g.close()));
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

async function open(url: string): Promise<TestGate> {
  const g = await testGate({ GATE_DATABASE_URL: url });
  gates.push(g);
  return g;
}

async function count(g: TestGate, sql: string): Promise<number> {
  const [row] = await g.state.query<{ n: string }>(sql);
  return Number(row?.n);
}

describe("the review graph on PostgreSQL (PostgresSaver)", () => {
  it("a review waiting for a person is approved by a second gate, with its own pool and its own data folder", async () => {
    const db = await postgresUrl();
    databases.push(db);
    const first = await open(db.url);
    expect(first.state.kind).toBe("postgres");
    const waiting = await reviewFixture(first, "002_new_dependency");
    expect(waiting.status).toBe("waiting_for_human");
    expect(waiting.findings.map((f) => f.policy)).toContain("LIC-02");
    await first.close();
    gates.splice(gates.indexOf(first), 1);

    const second = await open(db.url);
    expect(second.dir).not.toBe(first.dir);
    expect((await second.reviewConfig(waiting.review_id))?.risk.threshold).toBe(30);
    const outcome = await second.runner.decide(waiting.review_id, { kind: "approve", by: "alice", note: "legal ok" });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.result.route).toBe("human_approved");
    expect(outcome.result.decision).toMatchObject({ kind: "approve", by: "alice", note: "legal ok" });
    expect((await second.store.get(waiting.review_id))?.status).toBe("done");
    const entries = (await second.store.auditFor(waiting.review_id)).map((a) => `${a.actor}:${a.action}:${a.outcome}`);
    expect(entries).toEqual(expect.arrayContaining(["alice:approve:received", "alice:approve:applied"]));

    // Settled: one checkpoint kept (status still reads it), the diff kept once (what-if replays it).
    const thread = `'${waiting.review_id}'`;
    expect(await count(second, `SELECT count(*) AS n FROM checkpoints WHERE thread_id = ${thread}`)).toBe(1);
    expect(await count(second, `SELECT count(*) AS n FROM checkpoint_writes WHERE thread_id = ${thread}`)).toBe(0);
    expect(await count(second, `SELECT count(*) AS n FROM gate_pull_requests WHERE review_id = ${thread}`)).toBe(1);
    const status = await second.runner.status(waiting.review_id);
    expect(status?.route).toBe("human_approved");
    expect(status?.findings).toEqual(outcome.result.findings);
  });

  it("the investigator's review runs to the end on PostgreSQL, and pruning keeps only what its last state needs", async () => {
    const db = await postgresUrl();
    databases.push(db);
    const g = await open(db.url);
    const r = await reviewFixture(g, "003_auth_change");
    expect(r.route).toBe("approved");
    expect(r.investigations).toHaveLength(1);
    const thread = `'${r.review_id}'`;
    expect(await count(g, `SELECT count(*) AS n FROM checkpoints WHERE thread_id = ${thread}`)).toBe(1);
    // Blobs left are the channels the kept checkpoint names, no more.
    const kept = await count(
      g,
      `SELECT count(*) AS n FROM checkpoints c, jsonb_each_text(c.checkpoint -> 'channel_versions') v WHERE c.thread_id = ${thread}`,
    );
    expect(
      await count(g, `SELECT count(*) AS n FROM checkpoint_blobs WHERE thread_id = ${thread}`),
    ).toBeLessThanOrEqual(kept);
    const again = await g.runner.status(r.review_id);
    expect(again?.route).toBe("approved");
    expect(again?.investigations).toHaveLength(1);
  });
});
