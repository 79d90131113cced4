import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { entryHash, GENESIS_HASH } from "../../src/domain/audit-chain.js";
import { openDatabase } from "../../src/store/database.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { LIFT_TRIGGERS, type SampleRow, tamperings, tickingClock, writeSampleLog } from "../helpers/audit-log.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";

const dir = tempDir("gate-audit-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A SQLite file holding the sample log, written through the store. */
async function sampleFile(name: string): Promise<string> {
  const file = path.join(dir, `${name}.db`);
  const db = openDatabase(file);
  await writeSampleLog(sqliteStore(db, tickingClock()));
  db.close();
  return file;
}

const verify = (file: string, json = false) =>
  runGateCli(["audit", "verify", ...(json ? ["--json"] : [])], {
    env: { PATH: process.env.PATH ?? "", GATE_DB: file, GATE_LOG_LEVEL: "silent" },
    cwd: dir,
  });

function acmeRows(file: string): SampleRow[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare("SELECT seq, at, outcome FROM gate_audit WHERE review_id = 'r-1' ORDER BY seq")
      .all() as SampleRow[];
  } finally {
    db.close();
  }
}

/** acme/web#7's entries as the sample log writes them (the same numbers and times in every file). */
const acme = acmeRows(await sampleFile("probe"));

describe("gate audit verify on SQLite (the real CLI, in its own process)", () => {
  it("exits 0 on an intact log, saying how many entries it verified in which chains", async () => {
    const file = await sampleFile("intact");
    const r = await verify(file);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^audit log intact: 6 entries verified in 3 chains/);
    // Owners are compared as GitHub compares logins: Globex's entries are in chain "globex".
    expect(r.stdout).toMatch(/ {2}acme: 4 entries, head [0-9a-f]{64}/);
    expect(r.stdout).toContain("  globex: 1 entry,");
    expect(r.stdout).toContain("  (no known review): 1 entry,");
  });

  it("chains each entry to the one before it in its owner's chain: SHA-256 of its fields and that hash", async () => {
    const file = await sampleFile("links");
    const db = new Database(file, { readonly: true });
    const rows = db.prepare("SELECT * FROM gate_audit WHERE chain = 'acme' ORDER BY seq").all() as Array<{
      seq: number;
      chain: string;
      review_id: string;
      at: string;
      actor: string;
      action: string;
      outcome: string;
      detail: string;
      prev_hash: string;
      hash: string;
    }>;
    const head = db.prepare("SELECT seq, hash FROM gate_audit_heads WHERE chain = 'acme'").get();
    db.close();
    expect(rows.map((r) => r.outcome)).toEqual(["queued", "received", "applied", "superseded"]);
    let prev = GENESIS_HASH;
    for (const row of rows) {
      expect(row.prev_hash).toBe(prev);
      expect(row.hash).toBe(entryHash(row, prev));
      prev = row.hash;
    }
    expect(head).toEqual({ seq: rows.at(-1)?.seq, hash: prev });
  });

  for (const t of tamperings(acme)) {
    it(`exits 1 naming the entry when ${t.name} directly in the database`, async () => {
      const file = await sampleFile(t.name.replace(/\W+/g, "-"));
      const db = new Database(file);
      for (const sql of [...LIFT_TRIGGERS.sqlite, ...t.sql]) db.prepare(sql).run();
      db.close();

      const r = await verify(file);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("audit log NOT intact");
      expect(r.stdout).toContain(`entry #${t.names.seq} (acme/web#7, ${t.names.at}) of chain acme: `);
      expect(r.stdout).toMatch(t.names.what);

      const json = await verify(file, true);
      expect(json.code).toBe(1);
      const verdict = JSON.parse(json.stdout) as { intact: boolean; breaks: unknown[] };
      expect(verdict.intact).toBe(false);
      // Only acme's chain broke; the other two still hold.
      expect(verdict.breaks).toEqual([
        expect.objectContaining({ chain: "acme", kind: t.names.kind, seq: t.names.seq, pr: "acme/web#7" }),
      ]);
    });
  }

  it("exits 1 when a chain's last entries are removed (the recorded head is gone)", async () => {
    const file = await sampleFile("tail");
    const last = acmeRows(file).at(-1);
    const db = new Database(file);
    for (const sql of [...LIFT_TRIGGERS.sqlite, `DELETE FROM gate_audit WHERE seq = ${last?.seq}`])
      db.prepare(sql).run();
    db.close();
    const r = await verify(file);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`entry #${last?.seq} of chain acme: missing: the chain's last entry was #${last?.seq}`);
  });

  it("refuses a GATE_DB that does not exist, and makes none", async () => {
    const file = path.join(dir, "none", "gate.db");
    const r = await verify(file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("there is no database to verify");
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });
});
