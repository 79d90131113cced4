import { describe, expect, it } from "vitest";
import { verifyAuditLog } from "../../src/review/audit-verification.js";
import { openDatabase } from "../../src/store/database.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { tickingClock, writeSampleLog } from "../helpers/audit-log.js";

describe("verifyAuditLog", () => {
  it("takes entries appended while it walks (a gate running meanwhile) for what they are: the chain holds", async () => {
    const store = sqliteStore(openDatabase(":memory:"), tickingClock());
    await writeSampleLog(store);
    const verdict = await verifyAuditLog({
      auditChains: async () => {
        const chains = await store.auditChains();
        // Appended after the heads were read, before the chain is walked.
        await store.audit({ reviewId: "r-1", actor: "gate", action: "run", outcome: "done" });
        return chains;
      },
      auditChainPage: (chain, after, limit) => store.auditChainPage(chain, after, limit),
    });
    expect(verdict).toMatchObject({ intact: true, verified: 7, breaks: [] });
  });

  it("reads a long chain page by page", async () => {
    const store = sqliteStore(openDatabase(":memory:"), tickingClock());
    await writeSampleLog(store);
    for (let i = 0; i < 2100; i++) await store.audit({ reviewId: "r-1", actor: `U${i}`, action: "x", outcome: "y" });
    expect(await verifyAuditLog(store)).toMatchObject({ intact: true, verified: 2106 });
  });
});
