import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { GENESIS_HASH } from "../../src/domain/audit-chain.js";
import { verifyAuditLog } from "../../src/review/audit-verification.js";
import { migrateSqlite, openDatabase, SQLITE_MIGRATIONS } from "../../src/store/database.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { tickingClock } from "../helpers/audit-log.js";
import { tempDir } from "../helpers/gate.js";

/** A file at schema version 5 with audit rows as the gate wrote them before the chain. */
function fileBeforeTheChain(): string {
  const file = path.join(tempDir(), "gate.db");
  const old = new Database(file);
  migrateSqlite(old, "v5", SQLITE_MIGRATIONS.slice(0, 5));
  old.exec(`INSERT INTO gate_reviews (id, pr, repo, number, head_sha, source, source_json, status, created_at, updated_at)
    VALUES ('r-1', 'acme/web#7', 'acme/web', 7, 's', 'github', '{}', 'done', 't', 't'),
           ('r-2', 'ACME/api#1', 'ACME/api', 1, 's', 'github', '{}', 'done', 't', 't'),
           ('r-3', 'globex/x#2', 'globex/x', 2, 's', 'github', '{}', 'done', 't', 't')`);
  const insert = old.prepare(
    "INSERT INTO gate_audit (review_id, at, actor, action, outcome, detail) VALUES (?, ?, ?, ?, ?, ?)",
  );
  for (const [id, outcome] of [
    ["r-1", "queued"],
    ["r-3", "queued"],
    ["r-2", "queued"],
    ["r-1", "received"],
    ["r-gone", "refused:not_found"],
    ["r-1", "applied"],
  ] as const) {
    insert.run(id, "2026-10-01T00:00:00.000Z", "alice", "approve", outcome, '{"door":"slack"}');
  }
  old.close();
  return file;
}

describe("the audit chain's migration on SQLite (6)", () => {
  it("chains the rows written before it once, per owner in sequence order, and new entries follow them", async () => {
    const db = openDatabase(fileBeforeTheChain());
    const rows = db.prepare("SELECT seq, chain, prev_hash, hash FROM gate_audit ORDER BY seq").all() as Array<{
      seq: number;
      chain: string;
      prev_hash: string;
      hash: string;
    }>;
    // acme/web and ACME/api share one owner's chain; the refusal of no known review has its own.
    expect(rows.map((r) => r.chain)).toEqual(["acme", "globex", "acme", "acme", "", "acme"]);
    expect(rows.filter((r) => r.prev_hash === GENESIS_HASH).map((r) => r.seq)).toEqual([1, 2, 5]);
    expect(rows[2]?.prev_hash).toBe(rows[0]?.hash);
    const store = sqliteStore(db, tickingClock());
    expect(await verifyAuditLog(store)).toMatchObject({ intact: true, verified: 6 });

    await store.audit({ reviewId: "r-1", actor: "gate", action: "run", outcome: "done" });
    const last = db.prepare("SELECT seq, prev_hash FROM gate_audit ORDER BY seq DESC LIMIT 1").get();
    expect(last).toEqual({ seq: 7, prev_hash: rows[5]?.hash });
    expect(await verifyAuditLog(store)).toMatchObject({ intact: true, verified: 7 });
    // The log stays append-only after the migration lifted its trigger for its own updates.
    expect(() => db.prepare("UPDATE gate_audit SET actor = 'mallory'").run()).toThrow(/append-only/);
    expect(() => db.prepare("UPDATE gate_audit_heads SET seq = 1").run()).toThrow(/only moves forward/);
    expect(() => db.prepare("DELETE FROM gate_audit_heads").run()).toThrow(/only moves forward/);
    db.close();
  });

  it("records each chain's head: its last entry", async () => {
    const db = openDatabase(fileBeforeTheChain());
    const heads = db.prepare("SELECT chain, seq FROM gate_audit_heads ORDER BY chain").all();
    expect(heads).toEqual([
      { chain: "", seq: 5 },
      { chain: "acme", seq: 6 },
      { chain: "globex", seq: 2 },
    ]);
    const verdict = await verifyAuditLog(sqliteStore(db, tickingClock()));
    expect(verdict.chains.map((c) => [c.chain, c.verified])).toEqual([
      ["", 1],
      ["acme", 4],
      ["globex", 1],
    ]);
    db.close();
  });
});
