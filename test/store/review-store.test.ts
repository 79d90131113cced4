import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/database.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { auditedWithStatusSql } from "../../src/store/audit-sql.js";
import { UNPUBLISHED } from "../../src/store/rows.js";
import { tempDir } from "../helpers/gate.js";
import { at, reviewStoreContract } from "./review-store-contract.js";

/** A store on a fresh file, and the connection under it (for what only SQLite itself can show). */
const opened = () => {
  const db = openDatabase(path.join(tempDir(), "gate.db"));
  return { db, s: sqliteStore(db, () => at) };
};

reviewStoreContract("SQLite", async () => {
  const { db, s } = opened();
  return { store: s, exec: async (sql) => db.prepare(sql).run() };
});

describe("ReviewStore on SQLite", () => {
  it("opens in WAL mode with a busy timeout", () => {
    const { db } = opened();
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("busy_timeout", { simple: true })).toBe(5000);
  });

  it("lists what a restart finishes through indexes, reading none of the settled reviews or applied decisions", () => {
    const { db } = opened();
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join("; ");
    // The partial index holds the unpublished reviews only: walking it reads no settled one.
    expect(plan(`SELECT * FROM gate_reviews WHERE ${UNPUBLISHED} ORDER BY created_at, rowid`)).toBe(
      "SCAN gate_reviews USING INDEX gate_reviews_unpublished",
    );
    expect(plan(`SELECT * FROM gate_reviews WHERE id = 'r-1' AND ${UNPUBLISHED}`)).toMatch(/^SEARCH gate_reviews /);
    expect(plan("SELECT * FROM gate_decisions WHERE applied_at IS NULL AND review_id = 'r-1' ORDER BY seq")).toBe(
      "SEARCH gate_decisions USING INDEX gate_decisions_pending (applied_at=?)",
    );
    // The sweeps' question (which waiting reviews hold an emergency entry) reads no settled review.
    expect(plan(auditedWithStatusSql("r.status IN ('waiting_for_human')", "'emergency'"))).toMatch(
      /^SEARCH r USING (COVERING )?INDEX gate_reviews_status \(status=\?\); SEARCH a USING INDEX gate_audit_review \(review_id=\?\)/,
    );
  });
});
