import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { osvDirRecords } from "../../src/advisories/offline-records.js";
import { osvApiRecords } from "../../src/advisories/osv-api-records.js";
import { advisorySourceOver } from "../../src/advisories/record-source.js";
import type { AdvisoryQuery } from "../../src/domain/advisory-source.js";
import { startFakeOsv, type FakeOsv } from "../fakes/osv-api.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";
import { ALL_RECORDS } from "./test-records.js";

const QUERIES: AdvisoryQuery[] = [
  { ecosystem: "npm", name: "lodash", version: "4.17.20" },
  { ecosystem: "npm", name: "lodash", version: "4.17.21" },
  { ecosystem: "npm", name: "minimist", version: "1.2.5" },
  { ecosystem: "pypi", name: "pyyaml", version: "5.3.1" },
  { ecosystem: "go", name: "golang.org/x/net", version: "v0.16.0" },
  { ecosystem: "cargo", name: "smallvec", version: "1.6.0" },
];

/** OSV's export zip of one ecosystem: one `<id>.json` per advisory at the top of the archive. */
function exportZip(ecosystem: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const r of ALL_RECORDS) {
    if (r.affected?.some((a) => a.package?.ecosystem === ecosystem)) files[`${r.id}.json`] = strToU8(JSON.stringify(r));
  }
  return zipSync(files);
}

/** A loopback stand-in for OSV's export bucket: `GET /<ecosystem>/all.zip`; `broken` answers 500 or a damaged zip. */
let bucket: Server;
let bucketUrl: string;
const requests: string[] = [];
const broken = new Map<string, "500" | "damaged">();
let osv: FakeOsv;

beforeAll(async () => {
  bucket = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const eco = decodeURIComponent((req.url ?? "").split("/")[1] ?? "");
    const fault = broken.get(eco);
    if (fault === "500") {
      res.writeHead(500).end("no");
      return;
    }
    const zip = exportZip(eco);
    res.writeHead(200, { "content-type": "application/zip" });
    res.end(fault === "damaged" ? Buffer.from(zip).subarray(0, 40) : Buffer.from(zip));
  });
  await new Promise<void>((resolve) => bucket.listen(0, "127.0.0.1", resolve));
  bucketUrl = `http://127.0.0.1:${(bucket.address() as AddressInfo).port}`;
  osv = await startFakeOsv();
  osv.add(...ALL_RECORDS);
});
afterAll(async () => {
  await new Promise<void>((resolve) => bucket.close(() => resolve()));
  await osv.close();
});

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? "",
  GATE_LOG_LEVEL: "silent",
  GATE_OSV_EXPORT_URL: bucketUrl,
  ...extra,
});

describe("gate osv sync (real CLI process, loopback export bucket)", () => {
  it("fills a folder, one per ecosystem, that GATE_OSV_DIR reads with the same answers as the live API", async () => {
    const dir = path.join(tempDir("gate-osv-sync-"), "osv");
    requests.length = 0;
    const r = await runGateCli(["osv", "sync", dir], { env: env(), cwd: tempDir() });
    expect(r.code).toBe(0);
    expect(requests).toEqual([
      "GET /npm/all.zip",
      "GET /PyPI/all.zip",
      "GET /Go/all.zip",
      "GET /crates.io/all.zip",
      "GET /RubyGems/all.zip",
      "GET /Packagist/all.zip",
    ]);
    expect(fs.readdirSync(dir).sort()).toEqual(["Go", "Packagist", "PyPI", "RubyGems", "crates.io", "npm"]);
    expect(r.stdout).toMatch(
      /^\d+ advisories in .* \(npm, PyPI, Go, crates\.io, RubyGems, Packagist\): set GATE_OSV_DIR=/,
    );
    const live = await advisorySourceOver(osvApiRecords({ baseUrl: osv.url })).lookup(QUERIES);
    const synced = await advisorySourceOver(osvDirRecords(dir)).lookup(QUERIES);
    expect(live.filter((a) => a.status === "found" && a.advisories.length > 0)).toHaveLength(5);
    expect(synced).toEqual(live);
  });

  it("--ecosystem takes the gate's or OSV's names; an unknown one is a usage error that fetches nothing", async () => {
    const dir = path.join(tempDir("gate-osv-sync-"), "osv");
    requests.length = 0;
    const ok = await runGateCli(["osv", "sync", dir, "--ecosystem", "pypi,crates.io"], { env: env(), cwd: tempDir() });
    expect(ok.code).toBe(0);
    expect(requests).toEqual(["GET /PyPI/all.zip", "GET /crates.io/all.zip"]);
    requests.length = 0;
    const bad = await runGateCli(["osv", "sync", dir, "--ecosystem", "npm,cobol"], { env: env(), cwd: tempDir() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown ecosystem cobol");
    expect(requests).toEqual([]);
  });

  it("a download that fails or a damaged zip leaves the previous copy whole, and says so", async () => {
    const dir = path.join(tempDir("gate-osv-sync-"), "osv");
    expect((await runGateCli(["osv", "sync", dir, "--ecosystem", "npm"], { env: env(), cwd: tempDir() })).code).toBe(0);
    const before = fs.readdirSync(path.join(dir, "npm")).sort();
    expect(before.length).toBeGreaterThan(0);
    for (const fault of ["500", "damaged"] as const) {
      broken.set("npm", fault);
      const r = await runGateCli(["osv", "sync", dir, "--ecosystem", "npm"], { env: env(), cwd: tempDir() });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        fault === "500"
          ? /cannot fetch OSV's npm export .*HTTP 500; the folder was left as it was/
          : /is not a zip archive.*; the folder was left as it was/,
      );
      // The advice is the sync's: its own setting, not the advisory lookup's (GATE_OSV_URL, GATE_OSV_DIR).
      expect(r.stderr).toContain("point GATE_OSV_EXPORT_URL at a mirror");
      expect(r.stderr).not.toMatch(/GATE_OSV_URL|GATE_OSV_DIR|a person decides/);
      expect(fs.readdirSync(path.join(dir, "npm")).sort()).toEqual(before);
    }
    broken.clear();
  });

  it("GATE_OSV_DIR may name an export's all.zip itself: the same answers as the unpacked folder", async () => {
    const zipFile = path.join(tempDir("gate-osv-zip-"), "all.zip");
    const all: Record<string, Uint8Array> = {};
    for (const r of ALL_RECORDS) all[`${r.id}.json`] = strToU8(JSON.stringify(r));
    fs.writeFileSync(zipFile, zipSync(all));
    const live = await advisorySourceOver(osvApiRecords({ baseUrl: osv.url })).lookup(QUERIES);
    expect(await advisorySourceOver(osvDirRecords(zipFile)).lookup(QUERIES)).toEqual(live);
    fs.writeFileSync(zipFile, "not a zip");
    const [bad] = await advisorySourceOver(osvDirRecords(zipFile)).lookup(QUERIES);
    expect(bad).toMatchObject({ status: "failed", reason: expect.stringMatching(/all\.zip is not a zip archive/) });
  });
});
