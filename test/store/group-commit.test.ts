import type { ReviewStore } from "../../src/domain/review-store.js";
import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/database.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { tempDir } from "../helpers/gate.js";
import { at, reg } from "./review-store-contract.js";

/** A store on a fresh WAL file, and the connection under it. */
const opened = () => {
  const file = path.join(tempDir(), "gate.db");
  const db = openDatabase(file);
  return { db, file, s: sqliteStore(db, () => at) };
};

/** One webhook delivery's transaction: the delivery, its review and the review's audit entry. */
const accept = (s: ReviewStore, i: number) =>
  s.transaction(async (tx) => {
    await tx.recordDelivery(`d-${i}`, "pull_request");
    await reg(tx, `r-${i}`);
    await tx.audit({ reviewId: `r-${i}`, actor: "gate", action: "register", outcome: "queued", detail: {} });
    return i;
  });

describe("group commit of SQLite transactions", () => {
  it("commits the transactions asked for in one turn together: a burst writes a fraction of the WAL the same transactions write one by one", async () => {
    const walBytes = async (burst: boolean) => {
      const { s, file } = opened();
      const before = fs.statSync(`${file}-wal`).size;
      const ids = Array.from({ length: 40 }, (_, i) => i);
      if (burst) expect(await Promise.all(ids.map((i) => accept(s, i)))).toEqual(ids);
      else for (const i of ids) expect(await accept(s, i)).toBe(i);
      expect(await s.hasDelivery("d-39")).toBe(true);
      expect(await s.get("r-39")).toMatchObject({ id: "r-39", status: "queued" });
      return fs.statSync(`${file}-wal`).size - before;
    };
    const oneByOne = await walBytes(false);
    const together = await walBytes(true);
    // Each COMMIT writes every page it changed; 40 commits rewrite the same few leaf pages 40 times.
    expect(together).toBeGreaterThan(0);
    expect(together * 5).toBeLessThan(oneByOne);
  });

  it("rolls back only the transaction that throws; the others of its batch commit", async () => {
    const { s } = opened();
    const outcomes = await Promise.allSettled([
      accept(s, 1),
      s.transaction(async (tx) => {
        await tx.recordDelivery("d-2", "pull_request");
        await reg(tx, "r-2");
        throw new Error("crash before the answer");
      }),
      accept(s, 3),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(outcomes[1]).toMatchObject({ reason: new Error("crash before the answer") });
    expect(await s.hasDelivery("d-1")).toBe(true);
    expect(await s.hasDelivery("d-2")).toBe(false);
    expect(await s.get("r-2")).toBeUndefined();
    expect(await s.hasDelivery("d-3")).toBe(true);
  });

  it("fails every transaction of the batch, committing none, when a failure ends SQLite's transaction itself", async () => {
    const { db, s } = opened();
    const outcomes = await Promise.allSettled([
      accept(s, 1),
      s.transaction(async (tx) => {
        await tx.recordDelivery("d-2", "pull_request");
        // What a full disk or an I/O error does: SQLite rolls the whole transaction back.
        db.prepare("ROLLBACK").run();
        throw new Error("disk full");
      }),
      accept(s, 3),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
    for (const o of outcomes) expect(o).toMatchObject({ reason: new Error("disk full") });
    for (const id of ["d-1", "d-2", "d-3"]) expect(await s.hasDelivery(id)).toBe(false);
    expect(db.inTransaction).toBe(false);
    // The store goes on: the next transaction commits.
    expect(await accept(s, 4)).toBe(4);
    expect(await s.hasDelivery("d-4")).toBe(true);
  });

  it("runs each transaction's work in its caller's async context, though the batch runs them together later", async () => {
    const { s } = opened();
    const caller = new AsyncLocalStorage<string>();
    const seen = await Promise.all(
      ["webhook", "decision", "rerun"].map((name) =>
        caller.run(name, () => s.transaction(async () => caller.getStore())),
      ),
    );
    expect(seen).toEqual(["webhook", "decision", "rerun"]);
  });

  it("lets a transaction begun inside another's work join it without waiting for a batch; a caller outside reads its writes once committed", async () => {
    const { s } = opened();
    const seen: string[] = [];
    const outer = s.transaction(async (tx) => {
      await tx.recordDelivery("d-1", "pull_request");
      // Joins: its writes are the outer transaction's, and it does not wait for the batch.
      await s.transaction(async (inner) => inner.recordDelivery("d-2", "pull_request"));
      seen.push("outer done");
    });
    const reader = new Promise<void>((resolve) => {
      // A caller outside, once the batch has begun: it reads only committed rows.
      setImmediate(
        () =>
          void s.hasDelivery("d-2").then((had) => {
            seen.push(`outside saw d-2: ${had}`);
            resolve();
          }),
      );
    });
    await Promise.all([outer, reader]);
    expect(seen).toEqual(["outer done", "outside saw d-2: true"]);
  });
});
