import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededSample } from "../../src/domain/seeded-sample.js";
import { type EvidenceCases, writeEvidenceCases } from "../helpers/evidence-store.js";
import { type TestGate, tempDir, testGate } from "../helpers/gate.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";
import { runGateCli } from "../helpers/run-cli.js";
import { csvObjects, expectCsvEvidence, expectJsonEvidence } from "./evidence-cases.js";

const cwd = tempDir("gate-evidence-pg-");
let db: TestDatabase;
let cases: EvidenceCases;
const gates: TestGate[] = [];

beforeAll(async () => {
  db = await postgresUrl();
  cases = await writeEvidenceCases(async (extras) => {
    const g = await testGate({ GATE_DATABASE_URL: db.url }, extras, tempDir("gate-evidence-pg-gate-"));
    gates.push(g);
    return g;
  });
}, 120_000);
afterAll(async () => {
  for (const g of gates) fs.rmSync(g.dir, { recursive: true, force: true });
  await db?.drop();
  fs.rmSync(cwd, { recursive: true, force: true });
});

const evidence = (args: string[]) =>
  runGateCli(["evidence", ...args], {
    env: { PATH: process.env.PATH ?? "", GATE_DATABASE_URL: db.url, GATE_DATA_DIR: cwd, GATE_LOG_LEVEL: "silent" },
    cwd,
  });

describe("gate evidence on PostgreSQL (the real CLI, in its own process)", () => {
  it("lists the same evidence as on SQLite, as JSON and as CSV", async () => {
    const [json, csv] = await Promise.all([evidence(["--format", "json"]), evidence(["--format", "csv"])]);
    expectCsvEvidence(csv, expectJsonEvidence(json, cases), cases);
  }, 120_000);

  it("narrows to a repository and a day; --sample 5 --seed 1 is stable, another seed draws others", async () => {
    const [web, one, again, other, listed] = await Promise.all([
      evidence(["--format", "json", "--repo", "acme/web-dashboard", "--since", "2026-03-02", "--until", "2026-03-02"]),
      evidence(["--sample", "5", "--seed", "1"]),
      evidence(["--sample", "5", "--seed", "1"]),
      evidence(["--sample", "5", "--seed", "2"]),
      evidence(["--format", "json"]),
    ]);
    expect((JSON.parse(web?.stdout ?? "") as Array<{ pr: string }>).map((r) => r.pr).sort()).toEqual(
      [cases.approvedBeforeMerge, cases.mergedUnapproved].sort(),
    );
    const changes = (r: typeof one) => csvObjects(r?.stdout ?? "").map((row) => row.change);
    expect(changes(one)).toHaveLength(5);
    expect(changes(again)).toEqual(changes(one));
    expect(changes(other)).toHaveLength(5);
    expect(changes(other)).not.toEqual(changes(one));
    // The seeded draw over the listing in the same order as SQLite's (bytewise, by time then key).
    const all = (JSON.parse(listed?.stdout ?? "") as Array<{ change: string }>).map((r) => r.change);
    expect(changes(one)).toEqual(seededSample(all, 5, "1"));
  }, 120_000);
});
