import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/database.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { TransactionGate } from "../../src/store/sqlite/group-commit.js";
import { heldFsync, walSync } from "../../src/store/wal-sync.js";
import { tempDir } from "../helpers/gate.js";
import { at } from "./review-store-contract.js";

/**
 * A store on a fresh WAL file whose fsyncs are watched: at the start of each, a second connection
 * reads which deliveries are committed; when it finishes, those are on disk.
 */
function watched(fail = false, spacingMs?: number) {
  const file = path.join(tempDir(), "gate.db");
  const db = openDatabase(file);
  const reader = new Database(file, { readonly: true });
  const durable = new Set<string>();
  const flushes: string[][] = [];
  let flush: (() => Promise<void>) | undefined;
  const store = sqliteStore(
    db,
    () => at,
    new TransactionGate(async (wal) => {
      const committed = (reader.prepare("SELECT id FROM gate_deliveries").all() as Array<{ id: string }>).map(
        (r) => r.id,
      );
      flushes.push(committed);
      if (fail) throw new Error("disk gone");
      flush ??= heldFsync(wal);
      await flush();
      for (const id of committed) durable.add(id);
    }, spacingMs),
  );
  return { db, store, durable, flushes };
}

/** How many of this process's descriptors are open on `file`. */
const descriptorsOn = (file: string) =>
  fs.readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false; // the directory's own descriptor, gone once read
    }
  }).length;

describe("the held WAL descriptor", () => {
  it("keeps one descriptor across a run of fsyncs, and closes it once none has come for the idle time", async () => {
    const file = path.join(tempDir(), "wal");
    fs.writeFileSync(file, "frames");
    const flush = heldFsync(file, 30);
    expect(descriptorsOn(file)).toBe(0);
    await Promise.all([flush(), flush(), flush()]);
    for (let i = 0; i < 5; i++) await flush();
    // Eight fsyncs, one descriptor: none opened per flush, none left behind by one.
    expect(descriptorsOn(file)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(descriptorsOn(file)).toBe(0);
    // After the idle close, the next flush opens it again.
    await flush();
    expect(descriptorsOn(file)).toBe(1);
  });

  it("fails the flush of a file that cannot be opened, and opens afresh on the next", async () => {
    const file = path.join(tempDir(), "wal");
    const flush = heldFsync(file, 30);
    await expect(flush()).rejects.toMatchObject({ code: "ENOENT" });
    fs.writeFileSync(file, "frames");
    await expect(flush()).resolves.toBeUndefined();
  });
});

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

  it("spaces batches: transactions asked for one after another, soon after a batch, wait for the next and share it", async () => {
    const { store, flushes } = watched(false, 200);
    const record = (id: string) =>
      store.transaction(async (tx) => {
        await tx.recordDelivery(id, "pull_request");
      });
    // Alone, after a quiet spell: committed on its own, at once.
    await record("first");
    // Asked for 10 ms apart, both within 200 ms of the first batch: without the spacing, "a"
    // would commit (and fsync) alone before "b" was asked for.
    const a = record("a");
    await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all([a, record("b")]);
    expect(flushes.map((ids) => [...ids].sort())).toEqual([["first"], ["a", "b", "first"]]);
  });

  it("lets a batch start at once when the last started the spacing ago or more, else waits out the rest", () => {
    const gate = new TransactionGate(undefined, 2);
    expect(gate.due(1000)).toBe(0);
    gate.lastBatch = 1000;
    expect(gate.due(1000.5)).toBe(1.5);
    expect(gate.due(1002)).toBe(0);
    expect(gate.due(1500)).toBe(0);
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
