import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { GENESIS_HASH } from "../../src/domain/audit-chain.js";
import { verifyAuditLog } from "../../src/review/audit-verification.js";
import { migratePostgres } from "../../src/store/postgres/migrate.js";
import { POSTGRES_MIGRATIONS } from "../../src/store/postgres/migrations.js";
import { type OpenState, openState } from "../../src/store/open-state.js";
import { LIFT_TRIGGERS, type SampleRow, tamperings, tickingClock, writeSampleLog } from "../helpers/audit-log.js";
import { tempDir } from "../helpers/gate.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";
import { runGateCli } from "../helpers/run-cli.js";

const cwd = tempDir("gate-audit-pg-");
const opened: OpenState[] = [];
const databases: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

async function database(): Promise<TestDatabase> {
  const db = await postgresUrl();
  databases.push(db);
  return db;
}

async function open(url: string, clock = tickingClock()): Promise<OpenState> {
  const state = await openState({ kind: "postgres", url }, clock);
  opened.push(state);
  return state;
}

/** Runs statements as the database's owner, on a connection of their own. */
async function asOwner<T = unknown>(url: string, statements: string[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let rows: T[] = [];
    for (const sql of statements) rows = (await client.query(sql)).rows as T[];
    return rows;
  } finally {
    await client.end();
  }
}

/** A database holding the sample log, written through the store (its pool closed again). */
async function sampleDatabase(): Promise<string> {
  const { url } = await database();
  const state = await open(url);
  await writeSampleLog(state.store);
  await state.close();
  opened.splice(opened.indexOf(state), 1);
  return url;
}

const verify = (url: string, json = false) =>
  runGateCli(["audit", "verify", ...(json ? ["--json"] : [])], {
    env: { PATH: process.env.PATH ?? "", GATE_DATABASE_URL: url, GATE_DATA_DIR: cwd, GATE_LOG_LEVEL: "silent" },
    cwd,
  });

const acmeRows = async (url: string) =>
  (
    await asOwner<Omit<SampleRow, "seq"> & { seq: string }>(url, [
      "SELECT seq, at, outcome FROM gate_audit WHERE review_id = 'r-1' ORDER BY seq",
    ])
  ).map((r) => ({ ...r, seq: Number(r.seq) }));

/** acme/web#7's entries as the sample log writes them (the same numbers and times in every database). */
const acme = await acmeRows(await sampleDatabase());

describe("gate audit verify on PostgreSQL (the real CLI, GATE_DATABASE_URL)", () => {
  it("exits 0 on an intact log, saying how many entries it verified", async () => {
    const r = await verify(await sampleDatabase());
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^audit log intact: 6 entries verified in 3 chains/);
    expect(r.stdout).toMatch(/ {2}acme: 4 entries, head [0-9a-f]{64}/);
  });

  for (const t of tamperings(acme)) {
    it(`exits 1 naming the entry when ${t.name} directly in the database`, async () => {
      const url = await sampleDatabase();
      await asOwner(url, [...LIFT_TRIGGERS.postgres, ...t.sql]);
      const r = await verify(url, true);
      expect(r.code).toBe(1);
      const verdict = JSON.parse(r.stdout) as { intact: boolean; breaks: unknown[] };
      expect(verdict.intact).toBe(false);
      expect(verdict.breaks).toEqual([
        expect.objectContaining({
          chain: "acme",
          kind: t.names.kind,
          seq: t.names.seq,
          pr: "acme/web#7",
          at: t.names.at,
          what: expect.stringMatching(t.names.what),
        }),
      ]);
    });
  }
});

describe("the audit chain on PostgreSQL", () => {
  it("two replicas appending to one chain at once never fork it", async () => {
    const { url } = await database();
    const [a, b] = [await open(url), await open(url)];
    await writeSampleLog(a.store);
    // 40 transactions, half on each replica's pool, each appending twice to acme's chain, plus
    // 20 lone appends (each its own transaction) to acme's and globex's.
    await Promise.all([
      ...Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).store.transaction(async (tx) => {
          await tx.audit({ reviewId: "r-1", actor: `U${i}`, action: "x", outcome: "first" });
          await tx.audit({ reviewId: "r-1", actor: `U${i}`, action: "x", outcome: "second" });
        }),
      ),
      ...Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? b : a).store.audit({ reviewId: i % 4 ? "r-1" : "r-2", actor: `V${i}`, action: "y", outcome: "lone" }),
      ),
    ]);
    const verdict = await verifyAuditLog(b.store);
    expect(verdict).toMatchObject({ intact: true, verified: 106, breaks: [] });
    const links = await asOwner<{ n: string; d: string }>(url, [
      "SELECT count(*) AS n, count(DISTINCT prev_hash) AS d FROM gate_audit WHERE chain = 'acme'",
    ]);
    // Every entry follows a different one: no two entries share a predecessor.
    expect(links[0]).toEqual({ n: "99", d: "99" });
  });

  it("migration 6 chains the rows written before it, per owner, and new entries follow them", async () => {
    const { url } = await database();
    const pool = new pg.Pool({ connectionString: url });
    try {
      await migratePostgres(pool, "v5", async () => {}, POSTGRES_MIGRATIONS.slice(0, 5));
      await pool.query(`INSERT INTO gate_reviews (id, pr, repo, number, head_sha, source, source_json, status, created_at, updated_at)
        VALUES ('r-1', 'acme/web#7', 'acme/web', 7, 's', 'github', '{}', 'done', 't', 't'),
               ('r-2', 'Acme/api#1', 'Acme/api', 1, 's', 'github', '{}', 'done', 't', 't')`);
      for (const id of ["r-1", "r-2", "r-gone", "r-1"]) {
        await pool.query(
          "INSERT INTO gate_audit (review_id, at, actor, action, outcome, detail) VALUES ($1, 't', 'a', 'b', 'c', '{}')",
          [id],
        );
      }
    } finally {
      await pool.end();
    }
    const state = await open(url);
    const rows = await state.query<{ seq: string; chain: string; prev_hash: string }>(
      "SELECT seq, chain, prev_hash FROM gate_audit ORDER BY seq",
    );
    expect(rows.map((r) => r.chain)).toEqual(["acme", "acme", "", "acme"]);
    expect(rows.filter((r) => r.prev_hash === GENESIS_HASH).map((r) => Number(r.seq))).toEqual([1, 3]);
    expect(await verifyAuditLog(state.store)).toMatchObject({ intact: true, verified: 4 });
    await state.store.audit({ reviewId: "r-2", actor: "gate", action: "run", outcome: "done" });
    expect(await verifyAuditLog(state.store)).toMatchObject({ intact: true, verified: 5 });
    await expect(state.query("UPDATE gate_audit SET actor = 'm'")).rejects.toThrow(/append-only/);
    await expect(state.query("DELETE FROM gate_audit_heads")).rejects.toThrow(/only moves forward/);
  });
});
