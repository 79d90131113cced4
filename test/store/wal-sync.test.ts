import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/database.js";
import { SqliteReviewStore, TransactionGate } from "../../src/store/review-store.js";
import { fsyncFile, walSync } from "../../src/store/wal-sync.js";
import { tempDir } from "../helpers/gate.js";
import { at } from "./review-store-contract.js";

/**
 * A store on a fresh WAL file whose fsyncs are watched: at the start of each, a second connection
 * reads which deliveries are committed; when it finishes, those are on disk.
 */
function watched(fail = false) {
  const file = path.join(tempDir(), "gate.db");
  const db = openDatabase(file);
  const reader = new Database(file, { readonly: true });
  const durable = new Set<string>();
  const flushes: string[][] = [];
  const store = new SqliteReviewStore(
    db,
    () => at,
    new TransactionGate(async (wal) => {
      const committed = (reader.prepare("SELECT id FROM gate_deliveries").all() as Array<{ id: string }>).map(
        (r) => r.id,
      );
      flushes.push(committed);
      if (fail) throw new Error("disk gone");
      await fsyncFile(wal);
      for (const id of committed) durable.add(id);
    }),
  );
  return { db, store, durable, flushes };
}

describe("group commit on the SQLite WAL", () => {
  it("answers each transaction only once an fsync begun after its commit has finished, sharing fsyncs across a burst", async () => {
    const { store, durable, flushes } = watched();
    const ids = Array.from({ length: 40 }, (_, i) => `delivery-${i}`);
    const answeredDurable = await Promise.all(
      ids.map(async (id) => {
        await store.transaction(async (tx) => {
          await tx.recordDelivery(id, "pull_request");
        });
        return durable.has(id);
      }),
    );
    expect(answeredDurable).toEqual(ids.map(() => true));
    expect(await store.hasDelivery("delivery-39")).toBe(true);
    // One fsync each would be 40; a burst shares them.
    expect(flushes.length).toBeGreaterThanOrEqual(1);
    expect(flushes.length).toBeLessThan(ids.length / 2);
  });

  it("leaves the connection at synchronous = NORMAL: single statements wait for no fsync, before or after a transaction, committed or rolled back", async () => {
    const { db, store, flushes } = watched();
    expect(db.pragma("synchronous", { simple: true })).toBe(1);
    await store.recordDelivery("alone", "pull_request");
    expect(flushes).toEqual([]);
    await store.transaction(async (tx) => {
      await tx.recordDelivery("a", "pull_request");
    });
    await expect(
      store.transaction(async (tx) => {
        await tx.recordDelivery("b", "pull_request");
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(db.pragma("synchronous", { simple: true })).toBe(1);
    expect(await store.hasDelivery("b")).toBe(false);
    // One fsync, the committed transaction's: nothing for the single statement or the rollback.
    expect(flushes.map((ids) => [...ids].sort())).toEqual([["a", "alone"]]);
  });

  it("fails the transaction when its fsync fails, rather than answering as if it were on disk", async () => {
    const { store, flushes } = watched(true);
    await expect(
      store.transaction(async (tx) => {
        await tx.recordDelivery("c", "pull_request");
      }),
    ).rejects.toThrow("disk gone");
    expect(flushes).toEqual([["c"]]);
  });

  it("leaves to SQLite's own commit a database not in WAL mode, or one whose commits sync themselves (FULL)", () => {
    expect(walSync(new Database(":memory:"))).toBeUndefined();
    const file = path.join(tempDir(), "rollback.db");
    const db = new Database(file);
    db.pragma("synchronous = NORMAL");
    expect(walSync(db)).toBeUndefined();
    db.pragma("journal_mode = WAL");
    expect(walSync(db)).toBeDefined();
    db.pragma("synchronous = FULL");
    expect(walSync(db)).toBeUndefined();
  });
});
