import fs from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/database.js";
import { startWalCheckpoints } from "../../src/store/wal-checkpoints.js";
import { tempDir } from "../helpers/gate.js";

/** A logger whose lines the test reads. */
function capturingLog() {
  const lines: Array<{ msg: string }> = [];
  const log = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

/** Polls `check` every 10 ms until it holds, for at most `ms`. */
async function eventually(check: () => boolean, ms = 5000): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < ms; ) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return check();
}

describe("WAL checkpoints in a worker thread", () => {
  it("checkpoints the WAL from the worker while the connection itself never does, and gives checkpointing back on close", async () => {
    const file = path.join(tempDir(), "gate.db");
    const db = openDatabase(file);
    const { log } = capturingLog();
    const checkpoints = await startWalCheckpoints(db, log, 20);
    expect(checkpoints).toBeDefined();
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    const before = fs.statSync(file).size;
    db.exec("CREATE TABLE filler (body BLOB)");
    const insert = db.prepare("INSERT INTO filler (body) VALUES (?)");
    // About 2 MB, in transactions of their own: pages the connection writes to the WAL only.
    for (let i = 0; i < 500; i++) insert.run(Buffer.alloc(4000, i % 256));
    // The worker copies them into the database file.
    expect(await eventually(() => fs.statSync(file).size > before + 1_500_000)).toBe(true);
    expect((db.prepare("SELECT count(*) AS n FROM filler").get() as { n: number }).n).toBe(500);
    await checkpoints?.close();
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
    db.close();
  });

  it("leaves checkpointing to the connection when the worker cannot open the database", async () => {
    const file = path.join(tempDir(), "gate.db");
    const db = openDatabase(file);
    // The connection keeps the unlinked file; a new connection finds none.
    fs.rmSync(file);
    const { log, lines } = capturingLog();
    expect(await startWalCheckpoints(db, log, 20)).toBeUndefined();
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
    expect(lines.map((l) => l.msg)).toContain("the WAL checkpoint worker failed");
    db.close();
  });

  it("is not started for a database in memory", async () => {
    const { log } = capturingLog();
    expect(await startWalCheckpoints(openDatabase(":memory:"), log)).toBeUndefined();
  });
});
