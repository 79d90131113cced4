import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureOsvRecords, osvDirRecords } from "../../src/advisories/offline-records.js";
import { osvApiRecords } from "../../src/advisories/osv-api-records.js";
import { advisorySourceOver } from "../../src/advisories/record-source.js";
import type { AdvisoryQuery } from "../../src/domain/advisory-source.js";
import { startFakeOsv, type FakeOsv } from "../fakes/osv-api.js";
import { tempDir } from "../helpers/gate.js";
import { ALL_RECORDS } from "./test-records.js";

const QUERIES: AdvisoryQuery[] = [
  { ecosystem: "npm", name: "lodash", version: "4.17.20" },
  { ecosystem: "npm", name: "lodash", version: "4.17.21" },
  { ecosystem: "npm", name: "minimist", version: "1.2.5" },
  { ecosystem: "npm", name: "tiny-helper", version: "1.0.0" },
  { ecosystem: "pypi", name: "pyyaml", version: "5.3.1" },
  { ecosystem: "go", name: "golang.org/x/net", version: "v0.16.0" },
  { ecosystem: "cargo", name: "smallvec", version: "1.6.0" },
  { ecosystem: "npm", name: "left-pad", version: "1.3.0" },
];

/** An unpacked export: one folder per ecosystem, one file per advisory. */
function osvDir(): string {
  const dir = tempDir("gate-osv-");
  for (const r of ALL_RECORDS) {
    const eco = r.affected?.[0]?.package?.ecosystem ?? "other";
    fs.mkdirSync(path.join(dir, eco), { recursive: true });
    fs.writeFileSync(path.join(dir, eco, `${r.id}.json`), JSON.stringify(r));
  }
  return dir;
}

describe("offline OSV records", () => {
  let osv: FakeOsv;
  beforeAll(async () => {
    osv = await startFakeOsv();
    osv.add(...ALL_RECORDS);
  });
  afterAll(() => osv.close());

  it("GATE_OSV_DIR and a fixture's osv.json give the same answers as the live API", async () => {
    const fixture = path.join(tempDir(), "osv.json");
    fs.writeFileSync(fixture, JSON.stringify(ALL_RECORDS));
    const live = await advisorySourceOver(osvApiRecords({ baseUrl: osv.url })).lookup(QUERIES);
    const folder = await advisorySourceOver(osvDirRecords(osvDir())).lookup(QUERIES);
    const fromFixture = await advisorySourceOver(fixtureOsvRecords(fixture)).lookup(QUERIES);
    expect(live.filter((a) => a.status === "found" && a.advisories.length > 0)).toHaveLength(6);
    expect(folder).toEqual(live);
    expect(fromFixture).toEqual(live);
  });

  it("a fixture without osv.json has no advisories", async () => {
    const answers = await advisorySourceOver(fixtureOsvRecords(path.join(tempDir(), "osv.json"))).lookup(QUERIES);
    expect(answers.every((a) => a.status === "found" && a.advisories.length === 0)).toBe(true);
  });

  it("a malformed osv.json, a file in the folder that is not a record, or a missing folder fail every lookup, naming it", async () => {
    const fixture = path.join(tempDir(), "osv.json");
    fs.writeFileSync(fixture, JSON.stringify([{ id: 7 }]));
    const [bad] = await advisorySourceOver(fixtureOsvRecords(fixture)).lookup(QUERIES);
    expect(bad).toEqual({
      status: "failed",
      source: "the fixture's osv.json",
      reason: expect.stringMatching(/osv\.json is not a list of OSV records: 0\.id/),
    });

    const dir = osvDir();
    fs.writeFileSync(path.join(dir, "npm", "GHSA-cut.json"), '{"id": "GHSA-cut", "affected": [');
    const [cut] = await advisorySourceOver(osvDirRecords(dir)).lookup(QUERIES);
    expect(cut).toMatchObject({
      status: "failed",
      source: `the OSV folder ${dir} (GATE_OSV_DIR)`,
      reason: "npm/GHSA-cut.json is not JSON",
    });

    const [missing] = await advisorySourceOver(osvDirRecords(path.join(dir, "nowhere"))).lookup(QUERIES);
    expect(missing).toMatchObject({
      status: "failed",
      reason: expect.stringMatching(/^cannot read the folder: ENOENT/),
    });
  });
});
