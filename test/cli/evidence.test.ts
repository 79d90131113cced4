import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededSample } from "../../src/domain/seeded-sample.js";
import type { EvidenceRow } from "../../src/review/evidence-row.js";
import { type EvidenceCases, writeEvidenceCases } from "../helpers/evidence-store.js";
import { tempDir, testGate } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";
import { csvObjects, expectCsvEvidence, expectJsonEvidence } from "./evidence-cases.js";

const dir = tempDir("gate-evidence-");
const file = path.join(dir, "gate.db");
let cases: EvidenceCases;

beforeAll(async () => {
  cases = await writeEvidenceCases((extras) => testGate({}, extras, dir));
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const evidence = (args: string[], db = file) =>
  runGateCli(["evidence", ...args], {
    env: { PATH: process.env.PATH ?? "", GATE_DB: db, GATE_DATA_DIR: dir, GATE_LOG_LEVEL: "silent" },
    cwd: dir,
  });

describe("gate evidence on SQLite (the real CLI, in its own process)", () => {
  it("lists every merged PR as JSON and as CSV, with its review, decision and whether it came before the merge", async () => {
    const json = expectJsonEvidence(await evidence(["--format", "json"]), cases);
    expectCsvEvidence(await evidence(["--format", "csv"]), json, cases);
  }, 120_000);

  it("narrows to one repository and a period (--until a day takes the whole day)", async () => {
    const web = JSON.parse(
      (await evidence(["--format", "json", "--repo", "acme/web-dashboard"])).stdout,
    ) as EvidenceRow[];
    expect(web.map((r) => r.pr).sort()).toEqual([cases.approvedBeforeMerge, cases.mergedUnapproved].sort());
    const day = JSON.parse(
      (await evidence(["--format", "json", "--since", "2026-03-02", "--until", "2026-03-02"])).stdout,
    ) as EvidenceRow[];
    expect(day.map((r) => r.pr)).toEqual([
      cases.autoApproved,
      cases.approvedByGate,
      cases.approvedBeforeMerge,
      cases.approvedAfterMerge,
      cases.mergedUnapproved,
    ]);
    const from = JSON.parse(
      (await evidence(["--format", "json", "--since", "2026-03-02T11:00:00Z", "--until", "2026-03-02T13:00:00Z"]))
        .stdout,
    ) as EvidenceRow[];
    expect(from.map((r) => r.pr)).toEqual([cases.approvedBeforeMerge, cases.approvedAfterMerge]);
  }, 120_000);

  it("--sample 5 --seed 1 draws the same 5 rows every time, and another seed others", async () => {
    // CSV is the default format.
    const [one, oneAgain] = await Promise.all([1, 2].map(() => evidence(["--sample", "5", "--seed", "1"])));
    expect(one?.stderr).toContain('a sample of 5 drawn with seed "1"');
    const first = csvObjects(one?.stdout ?? "").map((r) => r.change);
    const again = csvObjects(oneAgain?.stdout ?? "").map((r) => r.change);
    expect(first).toHaveLength(5);
    expect(new Set(first).size).toBe(5);
    expect(again).toEqual(first);
    const other = csvObjects((await evidence(["--sample", "5", "--seed", "2"])).stdout).map((r) => r.change);
    expect(other).toHaveLength(5);
    expect(other).not.toEqual(first);
    const [sampled, listed] = await Promise.all([
      evidence(["--sample", "5", "--seed", "1", "--format", "json"]),
      evidence(["--format", "json"]),
    ]);
    expect((JSON.parse(sampled?.stdout ?? "") as EvidenceRow[]).map((r) => r.change)).toEqual(first);
    // The draw is the seeded PRNG's over the whole listing, in its order (the same on PostgreSQL).
    const all = (JSON.parse(listed?.stdout ?? "") as EvidenceRow[]).map((r) => r.change);
    expect(first).toEqual(seededSample(all, 5, "1"));
  }, 120_000);

  it("refuses bad flags with exit 2 and a clear line, before any database is opened", async () => {
    const missing = path.join(dir, "none", "gate.db");
    const refused = [
      [["--format", "xml"], "--format xml: choose json or csv"],
      [["--since", "yesterday"], "--since yesterday: give a day"],
      [["--sample", "5"], "--sample N and --seed S go together"],
      [["--since", "2026-03-05", "--until", "2026-03-01"], "is not before --until"],
      [["--json"], "does not take --json"],
    ] as const;
    const runs = await Promise.all(refused.map(([args]) => evidence([...args], missing)));
    refused.forEach(([args, says], i) => {
      const r = runs[i];
      expect(r?.code, args.join(" ")).toBe(2);
      expect(r?.stderr).toContain(says);
      expect(r?.stdout).toBe("");
    });
    const none = await evidence([], missing);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("there is no database to read evidence from");
    expect(fs.existsSync(path.dirname(missing))).toBe(false);
  }, 120_000);
});
