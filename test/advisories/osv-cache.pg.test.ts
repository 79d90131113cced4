import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeOsvCache } from "../../src/advisories/osv-cache.js";
import { osvApiRecords } from "../../src/advisories/osv-api-records.js";
import { advisorySourceOver } from "../../src/advisories/record-source.js";
import { openState, type OpenState } from "../../src/store/open-state.js";
import { FAST_RETRY } from "../fakes/registry.js";
import { startFakeOsv, type FakeOsv } from "../fakes/osv-api.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";
import { LODASH } from "./test-records.js";

describe("OSV answers cached on PostgreSQL", () => {
  let osv: FakeOsv;
  let db: TestDatabase;
  let state: OpenState;
  beforeAll(async () => {
    osv = await startFakeOsv();
    osv.add(LODASH);
    db = await postgresUrl();
    state = await openState({ kind: "postgres", url: db.url }, () => new Date("2026-12-01T00:00:00Z"));
  });
  afterAll(async () => {
    await state.close();
    await db.drop();
    await osv.close();
  });

  it("are kept on the store's licence-cache shelf and answer the next review without asking OSV", async () => {
    const source = () =>
      advisorySourceOver(osvApiRecords({ baseUrl: osv.url, retry: FAST_RETRY, cache: storeOsvCache(state.store) }));
    const query = { ecosystem: "npm" as const, name: "lodash", version: "4.17.20" };
    expect((await source().lookup([query]))[0]).toMatchObject({ status: "found", advisories: [{ id: LODASH.id }] });
    expect(osv.requests).toHaveLength(2);
    expect((await source().lookup([query]))[0]).toMatchObject({ status: "found", advisories: [{ id: LODASH.id }] });
    expect(osv.requests).toHaveLength(2);
    expect(await state.store.cachedLicense("osv:query:npm:lodash@4.17.20")).toContain(LODASH.id);
  });
});
