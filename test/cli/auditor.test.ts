import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { systemClock } from "../../src/domain/clock.js";
import { auditorOfToken } from "../../src/review/auditor-tokens.js";
import { openDatabase } from "../../src/store/database.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";

const dir = tempDir("gate-auditor-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const gate = (file: string, ...args: string[]) =>
  runGateCli(["auditor", ...args], {
    env: { PATH: process.env.PATH ?? "", GATE_DB: file, GATE_LOG_LEVEL: "silent" },
    cwd: dir,
  });

describe("gate auditor add | list | revoke", () => {
  it("prints a token once, stores only its hash, lists and revokes; bad usage and names are refused", async () => {
    const file = path.join(dir, "gate.db");
    const added = await gate(file, "add", "kim");
    expect(added.code).toBe(0);
    const token = added.stdout.trim();
    expect(token).toMatch(/^gat_[A-Za-z0-9_-]{43}$/);
    expect(added.stderr).toContain("shown this once");
    // The file holds the hash, never the token.
    expect(fs.readFileSync(file).includes(Buffer.from(token))).toBe(false);
    const db = openDatabase(file);
    const store = sqliteStore(db, systemClock);
    expect((await auditorOfToken(store, token))?.name).toBe("kim");
    db.close();

    expect((await gate(file, "add", "kim")).code).toBe(1);
    expect((await gate(file, "add", "<script>")).code).toBe(1);
    expect((await gate(file, "add")).code).toBe(2);
    expect((await gate(file, "frobnicate")).code).toBe(2);

    const listed = await gate(file, "list", "--json");
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: "kim", createdAt: expect.any(String), lastUsedAt: null, revokedAt: null },
    ]);
    expect(listed.stdout).not.toContain(token);

    expect((await gate(file, "revoke", "kim")).code).toBe(0);
    expect((await gate(file, "revoke", "kim")).code).toBe(1);
    expect((await gate(file, "revoke", "nobody")).code).toBe(1);
    const after = await gate(file, "list");
    expect(after.stdout).toMatch(/^kim\tcreated \S+\tlast used never\trevoked \S+\n$/);
    const db2 = openDatabase(file);
    expect(await auditorOfToken(sqliteStore(db2, systemClock), token)).toBeUndefined();
    db2.close();
  });
});
