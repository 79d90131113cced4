import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/database.js";
import { SqliteReviewStore } from "../../src/store/review-store.js";
import { tempDir } from "../helpers/gate.js";
import { at, reviewStoreContract } from "./review-store-contract.js";

/** A store on a fresh file, and the connection under it (for what only SQLite itself can show). */
const opened = () => {
  const db = openDatabase(path.join(tempDir(), "gate.db"));
  return { db, s: new SqliteReviewStore(db, () => at) };
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
});
