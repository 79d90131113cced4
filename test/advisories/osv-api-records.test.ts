import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { osvApiRecords, type OsvApiOptions } from "../../src/advisories/osv-api-records.js";
import type { OsvCache } from "../../src/advisories/osv-cache.js";
import { storeOsvCache } from "../../src/advisories/osv-cache.js";
import { indexedRecords } from "../../src/advisories/offline-records.js";
import type { OsvRecord } from "../../src/advisories/osv-record.js";
import { advisorySourceOver } from "../../src/advisories/record-source.js";
import type { AdvisoryQuery } from "../../src/domain/advisory-source.js";
import { openDatabase } from "../../src/store/database.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { FAST_RETRY } from "../fakes/registry.js";
import { startFakeOsv, type FakeOsv } from "../fakes/osv-api.js";
import { tempDir } from "../helpers/gate.js";
import { ALL_RECORDS, LODASH, record } from "./test-records.js";

const lodash: AdvisoryQuery = { ecosystem: "npm", name: "lodash", version: "4.17.20" };

function mapCache(): OsvCache & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, get: async (k) => map.get(k), set: async (k, v) => void map.set(k, v) };
}

describe("OSV's API through the real HTTP client (loopback fake)", () => {
  let osv: FakeOsv;
  beforeAll(async () => {
    osv = await startFakeOsv();
    osv.add(...ALL_RECORDS);
  });
  afterAll(() => osv.close());
  beforeEach(() => {
    osv.requests.length = 0;
    osv.batches.length = 0;
    osv.mode = "ok";
    osv.failNext = 0;
  });
  const source = (opts: OsvApiOptions = {}) =>
    advisorySourceOver(osvApiRecords({ baseUrl: osv.url, timeoutMs: 300, retry: FAST_RETRY, ...opts }));

  it("asks querybatch, then fetches each record, and names the advisory and its fix", async () => {
    const [answer, clean] = await source().lookup([lodash, { ecosystem: "npm", name: "lodash", version: "4.17.21" }]);
    expect(answer).toEqual({
      status: "found",
      advisories: [expect.objectContaining({ id: LODASH.id, fixed: "4.17.21", severity: "high" })],
    });
    expect(clean).toEqual({ status: "found", advisories: [] });
    expect(osv.requests).toEqual(["POST /v1/querybatch", `GET /v1/vulns/${LODASH.id}`]);
    expect(osv.batches[0]?.[0]).toEqual({ package: { ecosystem: "npm", name: "lodash" }, version: "4.17.20" });
  });

  it("uses OSV's ecosystem names and batches: 5 queries at 2 a request are 3 requests, each record fetched once", async () => {
    const queries: AdvisoryQuery[] = [
      lodash,
      { ecosystem: "pypi", name: "PyYAML", version: "5.3" },
      { ecosystem: "go", name: "golang.org/x/net", version: "v0.16.0" },
      { ecosystem: "cargo", name: "smallvec", version: "1.6.0" },
      { ecosystem: "npm", name: "lodash", version: "4.17.19" },
    ];
    const answers = await source({ batchSize: 2 }).lookup(queries);
    expect(answers.map((a) => (a.status === "found" ? a.advisories.map((m) => m.id) : a.status))).toEqual([
      ["GHSA-test-lodash-0001"],
      ["PYSEC-2099-10"],
      ["GO-2099-0020"],
      ["RUSTSEC-2099-0030"],
      ["GHSA-test-lodash-0001"],
    ]);
    expect(osv.batches.map((b) => b.length)).toEqual([2, 2, 1]);
    expect(osv.batches.flat().map((b) => b.package.ecosystem)).toEqual(["npm", "PyPI", "Go", "crates.io", "npm"]);
    expect(osv.requests.filter((r) => r.startsWith("GET"))).toHaveLength(4);
  });

  it("caches answers with a TTL: the second lookup asks nothing, a stale one asks again", async () => {
    const cache = mapCache();
    let now = 1_000_000;
    const live = source({ cache, cacheTtlMs: 60_000, now: () => now });
    await live.lookup([lodash]);
    expect(osv.requests).toHaveLength(2);
    expect(await live.lookup([lodash])).toEqual(await source().lookup([lodash]));
    expect(osv.requests).toHaveLength(2 + 2); // only the uncached source above asked
    now += 61_000;
    osv.requests.length = 0;
    await live.lookup([lodash]);
    expect(osv.requests).toEqual(["POST /v1/querybatch", `GET /v1/vulns/${LODASH.id}`]);
  });

  it("keeps its cache in the store's SQLite shelf, beside the licences", async () => {
    const db = openDatabase(path.join(tempDir(), "gate.db"));
    const store = sqliteStore(db, () => new Date("2026-12-01T00:00:00Z"));
    await source({ cache: storeOsvCache(store) }).lookup([lodash]);
    expect(JSON.parse((await store.cachedLicense("osv:query:npm:lodash@4.17.20")) ?? "{}").value).toEqual([LODASH.id]);
    expect(JSON.parse((await store.cachedLicense(`osv:vuln:${LODASH.id}`)) ?? "{}").value).toMatchObject({
      id: LODASH.id,
    });
    osv.requests.length = 0;
    const again = await source({ cache: storeOsvCache(store) }).lookup([lodash]);
    expect(again[0]).toMatchObject({ status: "found", advisories: [{ id: LODASH.id }] });
    expect(osv.requests).toEqual([]);
    db.close();
  });

  it.each([
    ["answering 500", "fail", /^querybatch answered 500 \(3 attempts\)$/],
    ["slow", "hang", /^querybatch timed out after 300 ms \(3 attempts\)$/],
    ["answering something that is not JSON", "garbage", /^querybatch sent a document that is not JSON/],
  ] as const)("fails closed when OSV is %s, naming OSV and the error, and caches nothing", async (_n, mode, reason) => {
    osv.mode = mode;
    const cache = mapCache();
    const [answer] = await source({ cache }).lookup([lodash]);
    expect(answer).toEqual({ status: "failed", source: `OSV ${osv.url}`, reason: expect.stringMatching(reason) });
    expect(cache.map.size).toBe(0);
  });

  it("a record that is not OSV's, or an id it cannot fetch, fails the lookup", async () => {
    osv.add({ id: "GHSA-test-broken", affected: [{ package: { ecosystem: "npm", name: "broken" } }], aliases: "nope" });
    const [broken] = await source().lookup([{ ecosystem: "npm", name: "broken", version: "1.0.0" }]);
    expect(broken).toMatchObject({
      status: "failed",
      reason: expect.stringMatching(/vulns\/GHSA-test-broken sent a record that is not OSV's: aliases/),
    });
    osv.records.delete("GHSA-test-broken");
  });

  it("retries a passing failure, and a later lookup succeeds after an outage without a restart", async () => {
    const live = source();
    osv.failNext = 1;
    expect((await live.lookup([lodash]))[0]?.status).toBe("found");
    osv.mode = "fail";
    expect((await live.lookup([lodash]))[0]?.status).toBe("failed");
    osv.mode = "ok";
    expect((await live.lookup([lodash]))[0]).toMatchObject({ status: "found", advisories: [{ id: LODASH.id }] });
  });

  it("a record OSV names for the exact version is never dropped: ranges that do not hold it, or cannot be compared, make it unconfirmed", async () => {
    // OSV's own list names 2.14.1; the record's ECOSYSTEM range (written wrong on purpose) does not hold it.
    osv.add(
      record({
        id: "GHSA-test-misranged",
        ecosystem: "Maven",
        name: "org.example:lib",
        rangeType: "ECOSYSTEM",
        introduced: "3.0",
        fixed: "3.1",
        versions: ["2.14.1"],
        severity: "HIGH",
      }),
      // An ECOSYSTEM range the fake cannot narrow, with a bound Maven's order cannot read.
      record({
        id: "GHSA-test-unreadable",
        ecosystem: "Maven",
        name: "org.example:odd",
        rangeType: "ECOSYSTEM",
        fixed: "1.0 final",
      }),
    );
    const [misranged, unreadable, notNamed] = await source().lookup([
      { ecosystem: "maven", name: "org.example:lib", version: "2.14.1" },
      { ecosystem: "maven", name: "org.example:odd", version: "0.9" },
      { ecosystem: "maven", name: "org.example:lib", version: "2.14.2" },
    ]);
    expect(misranged).toMatchObject({
      status: "found",
      advisories: [
        {
          id: "GHSA-test-misranged",
          unconfirmed: "OSV lists 2.14.1 among the affected versions, but none of its ranges holds it",
        },
      ],
    });
    expect(unreadable).toMatchObject({
      status: "found",
      advisories: [
        { id: "GHSA-test-unreadable", unconfirmed: expect.stringContaining('"1.0 final", which cannot be compared') },
      ],
    });
    expect(notNamed).toEqual({ status: "found", advisories: [] });
  });

  it("a version it cannot compare, in a record OSV names for it, is an unconfirmed advisory; read offline (no naming), it fails that query alone", async () => {
    osv.add(record({ id: "GHSA-test-eco", ecosystem: "npm", name: "eco", rangeType: "ECOSYSTEM", fixed: "2.0.0" }));
    const latest: AdvisoryQuery = { ecosystem: "npm", name: "eco", version: "latest" };
    const [ok, named] = await source().lookup([lodash, latest]);
    expect(ok?.status).toBe("found");
    expect(named).toMatchObject({
      status: "found",
      advisories: [{ id: "GHSA-test-eco", unconfirmed: expect.stringContaining('"latest" cannot be compared') }],
    });
    const offline = advisorySourceOver(indexedRecords("records", async () => [...osv.records.values()] as OsvRecord[]));
    expect((await offline.lookup([latest]))[0]).toMatchObject({
      status: "failed",
      reason: expect.stringContaining('"latest" cannot be compared'),
    });
  });
});
