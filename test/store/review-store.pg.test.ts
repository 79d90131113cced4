import { markDecisionApplied, receiveDecision } from "../../src/review/decision-record.js";
import { afterEach, describe, expect, it } from "vitest";
import { openState, type OpenState } from "../../src/store/open-state.js";
import { UNPUBLISHED } from "../../src/store/rows.js";
import { buildPr } from "../detectors/pr-builder.js";
import { defined } from "../helpers/defined.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";
import { at, reg, reviewStoreContract } from "./review-store-contract.js";

const opened: OpenState[] = [];
const databases: TestDatabase[] = [];
// Each test's pools and database go when it ends (a database's drop takes a second under load).
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

/** A fresh database, and `n` states (each its own pool, as replicas have) opened on it. */
async function replicas(n: number): Promise<OpenState[]> {
  const db = await postgresUrl();
  databases.push(db);
  const states: OpenState[] = [];
  for (let i = 0; i < n; i++) states.push(await openState({ kind: "postgres", url: db.url }, () => at));
  opened.push(...states);
  return states;
}

reviewStoreContract("PostgreSQL", async () => {
  const [state] = await replicas(1);
  if (state?.kind !== "postgres") throw new Error("expected a PostgreSQL state");
  return { store: state.store, exec: (sql) => state.pool.query(sql) };
});

/** Two replicas on one database, and review r-1 waiting for a person. */
async function waitingOnTwoReplicas(): Promise<[OpenState, OpenState]> {
  const [a, b] = await replicas(2);
  if (!a || !b) throw new Error("two states");
  await reg(a.store, "r-1");
  await a.store.setStatus("r-1", "waiting_for_human");
  return [a, b];
}

describe("ReviewStore on PostgreSQL, from several pools at once", () => {
  it("claim: of 20 concurrent claims from two pools, exactly one wins", async () => {
    const [a, b] = await waitingOnTwoReplicas();
    const won = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).store.claim("r-1", "waiting_for_human", "running")),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
    expect((await b.store.get("r-1"))?.status).toBe("running");
  });

  it("receiveDecision: two replicas receiving a decision at once store one decision and one audit entry", async () => {
    const [a, b] = await waitingOnTwoReplicas();
    const received = await Promise.all(
      [a, b, a, b].map((s, i) => receiveDecision(s.store, "r-1", { kind: "approve", by: `U${i}` }, "slack")),
    );
    expect(received.filter(Boolean)).toHaveLength(1);
    expect(await a.store.pendingDecisions()).toHaveLength(1);
    expect((await b.store.auditFor("r-1")).filter((e) => e.outcome === "received")).toHaveLength(1);
    const [pending] = await b.store.pendingDecisions();
    await markDecisionApplied(b.store, "r-1", defined(pending).resume, "approved");
    await markDecisionApplied(a.store, "r-1", defined(pending).resume, "approved");
    expect(await a.store.pendingDecisions()).toEqual([]);
    expect((await a.store.auditFor("r-1")).map((e) => e.outcome)).toEqual(["received", "applied"]);
  });

  it("a transaction's writes are seen by another pool only once it commits", async () => {
    const [a, b] = await replicas(2);
    if (!a || !b) throw new Error("two states");
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let registered = () => {};
    const inside = new Promise<void>((resolve) => {
      registered = resolve;
    });
    const tx = a.store.transaction(async (t) => {
      await reg(t, "r-1");
      registered();
      await held;
    });
    await inside;
    expect(await b.store.get("r-1")).toBeUndefined();
    release();
    await tx;
    expect((await b.store.get("r-1"))?.status).toBe("queued");
  });

  it("with a long history, lists what a replica's start queues through indexes: unpublished results, pending decisions", async () => {
    const [state] = await replicas(1);
    if (state?.kind !== "postgres") throw new Error("expected a PostgreSQL state");
    // 3,000 settled reviews, published, and as many applied decisions; then one of each needing work.
    await state.pool.query(`INSERT INTO gate_reviews (id, pr, repo, number, head_sha, source, source_json, status,
        created_at, updated_at, result_json, result_published)
      SELECT 'h-' || i, 'acme/web#' || i, 'acme/web', i, 'a', 'github', '{}', 'done', '2026-01-01', '2026-01-01',
        repeat('x', 3000), 1 FROM generate_series(1, 3000) AS i`);
    await state.pool.query(`INSERT INTO gate_decisions (review_id, resume_json, door, received_at, applied_at)
      SELECT 'h-' || i, '{}', 'slack', '2026-01-01', '2026-01-01' FROM generate_series(1, 3000) AS i`);
    await reg(state.store, "r-1");
    await state.store.saveResult("r-1", { pr: "acme/web#7", route: null, status: "done", review_id: "r-1" } as never);
    await state.store.setStatus("r-1", "waiting_for_human");
    expect(await receiveDecision(state.store, "r-1", { kind: "approve", by: "alice" }, "slack")).toBe(true);
    await state.pool.query("ANALYZE gate_reviews, gate_decisions");

    expect((await state.store.unpublished()).map((r) => r.id)).toEqual(["r-1"]);
    expect((await state.store.pendingDecisions()).map((d) => d.reviewId)).toEqual(["r-1"]);
    const plan = async (sql: string) =>
      (await state.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`)).map((r) => r["QUERY PLAN"]).join("\n");
    expect(await plan(`SELECT * FROM gate_reviews WHERE ${UNPUBLISHED} ORDER BY created_at, seq`)).toMatch(
      /Index Scan using gate_reviews_unpublished/,
    );
    expect(await plan("SELECT * FROM gate_decisions WHERE applied_at IS NULL ORDER BY seq")).toMatch(
      /Index Scan using gate_decisions_pending/,
    );
  });

  it("the audit log refuses TRUNCATE too", async () => {
    const [state] = await replicas(1);
    if (state?.kind !== "postgres") throw new Error("expected a PostgreSQL state");
    await state.store.audit({ reviewId: "r-1", actor: "alice", action: "approve", outcome: "accepted" });
    await expect(state.pool.query("TRUNCATE gate_audit")).rejects.toThrow(/append-only/);
    expect(await state.store.auditFor("r-1")).toHaveLength(1);
  });

  it("keeps a review's pull request gzipped in one row, read back by another pool", async () => {
    const [a, b] = await replicas(2);
    if (!a || !b) throw new Error("two states");
    const pr = buildPr({
      repo: "acme/web",
      number: 7,
      title: "x".repeat(10_000),
      files: [{ filename: "a.ts", patch: "@@ -0,0 +1 @@\n+x" }],
    });
    await a.pullRequests.put("r-1", pr);
    expect(await b.pullRequests.get("r-1")).toEqual(pr);
    const [row] = await a.query<{ n: number }>("SELECT length(json_gz) AS n FROM gate_pull_requests");
    expect(defined(row).n).toBeLessThan(1_000);
    await b.pullRequests.delete("r-1");
    expect(await b.pullRequests.get("r-1")).toBeUndefined();
  });
});
