import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";
import { runGateCli } from "../helpers/run-cli.js";
import { PROPOSAL, storeWithReviews } from "./whatif-store.js";

const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "", GATE_LOG_LEVEL: "silent" };
const databases: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(databases.map((d) => d.drop()));
});

/** A fingerprint of every row of the gate's tables and the checkpointer's. */
async function fingerprint(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const parts: string[] = [];
    for (const table of ["gate_reviews", "gate_pull_requests", "gate_audit", "gate_configs", "checkpoints"]) {
      const exists = await client.query("SELECT to_regclass($1) AS t", [table]);
      if (!exists.rows[0]?.t) continue;
      const r = await client.query(
        `SELECT count(*) AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS h FROM ${table} t`,
      );
      parts.push(`${table}:${r.rows[0]?.n}:${r.rows[0]?.h}`);
    }
    return parts.join(" ");
  } finally {
    await client.end();
  }
}

/** Whether V8 takes the bundle's code cache in a fresh process of this Node (test/cli/installed-command.test.ts). */
function codeCacheTaken(): string {
  const loader = path.join(PACKAGE_ROOT, "dist/cli/bundle-loader.cjs");
  return execFileSync(
    process.execPath,
    ["-e", `console.log(require(${JSON.stringify(loader)}).loadCliBundle().cacheUsed)`],
    {
      encoding: "utf8",
    },
  ).trim();
}

// runGateCli runs the built command (dist/cli/gate.cjs). In 0.2.0 the bundle loaded `pg` with
// `import()`, which Node 20 cannot run in a script compiled from a code cache: this command failed
// with "A dynamic import callback was not specified" where the sources (tsx) passed.
describe("gate config whatif on PostgreSQL, from the built command", { timeout: 240_000 }, () => {
  it("lists the same reviews as on SQLite from the same stored reviews, and changes no row", async () => {
    // The bundle runs from its code cache, the case that failed.
    expect(codeCacheTaken()).toBe("true");
    const store = await storeWithReviews(env);
    const proposal = path.join(store.dir, "proposed.yml");
    fs.writeFileSync(proposal, PROPOSAL);
    const db = await postgresUrl();
    databases.push(db);
    const copy = await runGateCli(["db", "copy", "--to", db.url], {
      env: { ...env, GATE_DB: store.db, GATE_DATA_DIR: store.dir },
      cwd: store.dir,
    });
    expect(copy.code, copy.stderr).toBe(0);

    const onSqlite = await runGateCli(["config", "whatif", proposal, "--json"], {
      env: { ...env, GATE_DB: store.db, GATE_DATA_DIR: store.dir },
      cwd: store.dir,
    });
    const before = await fingerprint(db.url);
    expect(before).toContain("gate_reviews:9:");
    const onPostgres = await runGateCli(["config", "whatif", proposal, "--json"], {
      env: { ...env, GATE_DATABASE_URL: db.url, GATE_DATA_DIR: store.dir },
      cwd: store.dir,
    });
    expect(onPostgres.stderr).toBe("");
    const report = JSON.parse(onPostgres.stdout) as { changes: { pr: string }[]; summary: unknown; replayed: number };
    expect(report.replayed).toBe(9);
    expect(report.changes.map((c) => c.pr).sort()).toEqual([
      "acme/web#101",
      "acme/web-dashboard#231",
      "acme/web-dashboard#232",
    ]);
    expect(report).toEqual(JSON.parse(onSqlite.stdout));
    expect(await fingerprint(db.url)).toBe(before);
  });
});
