import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { runGateCli } from "../helpers/run-cli.js";
import { PROPOSAL, storeWithReviews } from "./whatif-store.js";

const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "", GATE_LOG_LEVEL: "silent" };

interface Report {
  replayed: number;
  skipped: { review_id: string; pr: string; why: string }[];
  changes: { pr: string; route_now: string; route_would: string }[];
}

describe("gate config whatif over damaged stored reviews", { timeout: 180_000 }, () => {
  it("names each damaged review, skips it and replays the rest; the setting is not blamed", async () => {
    const store = await storeWithReviews(env);
    const proposal = path.join(store.dir, "proposed.yml");
    fs.writeFileSync(proposal, PROPOSAL);
    const db = new Database(store.db);
    const ids = (
      db.prepare("SELECT id, pr FROM gate_reviews ORDER BY created_at, id").all() as { id: string; pr: string }[]
    ).filter((r) => r.pr !== "acme/web-dashboard#232");
    const [unzippable, badSource, unfit] = ids;
    if (!unzippable || !badSource || !unfit) throw new Error("the store holds fewer reviews than the test damages");
    // Three kinds of damage: a pull request that is not gzip, a record whose JSON is cut, a pull request the replay cannot use.
    db.prepare("UPDATE gate_pull_requests SET json_gz = ? WHERE review_id = ?").run(
      Buffer.from("not gzip"),
      unzippable.id,
    );
    db.prepare("UPDATE gate_reviews SET source_json = '{' WHERE id = ?").run(badSource.id);
    db.prepare("UPDATE gate_pull_requests SET json_gz = ? WHERE review_id = ?").run(
      gzipSync(JSON.stringify({ files: "not a list" })),
      unfit.id,
    );
    db.close();

    const at = { ...env, GATE_DB: store.db, GATE_DATA_DIR: store.dir };
    const run = await runGateCli(["config", "whatif", proposal, "--json"], { env: at, cwd: store.dir });
    expect(run.stderr).not.toMatch(/cannot read the gate's reviews/);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    const skipped = Object.fromEntries(report.skipped.map((s) => [s.review_id, s.why]));
    expect(skipped[unzippable.id]).toMatch(/^its stored record cannot be read: /);
    expect(skipped[badSource.id]).toMatch(/^its stored record cannot be read: /);
    expect(skipped[unfit.id]).toMatch(/^the replay failed: /);
    expect(report.replayed).toBe(9 - 3);
    // The rest were replayed as before: the denied MPL-2.0 licence still sends its PR to a person.
    expect(report.changes.map((c) => `${c.pr}: ${c.route_now} -> ${c.route_would}`)).toContain(
      "acme/web-dashboard#232: approved -> human",
    );

    const text = await runGateCli(["config", "whatif", proposal], { env: at, cwd: store.dir });
    expect(text.code).toBe(0);
    for (const id of [unzippable.id, badSource.id, unfit.id]) expect(text.stdout).toContain(`(${id}): `);
  });
});
