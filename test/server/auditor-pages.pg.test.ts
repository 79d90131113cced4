import { afterEach, describe, expect, it } from "vitest";
import { verifyAuditLog } from "../../src/review/audit-verification.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";
import { stackWithEvidence } from "./auditor-helpers.js";
import { stacksClosedAfterEach } from "./helpers.js";

const start = stacksClosedAfterEach();
const databases: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(databases.splice(0).map((db) => db.drop()));
});

describe("the auditor's pages on PostgreSQL", () => {
  it("401 without a token; the table and the review page with one, each view audited and verified; revoked: 401", async () => {
    const db = await postgresUrl();
    databases.push(db);
    const { s, review, token } = await stackWithEvidence(start, { GATE_DATABASE_URL: db.url });
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${s.base}/evidence`)).status).toBe(401);
    expect((await fetch(`${s.base}/review?id=${review.id}`)).status).toBe(401);

    const table = await fetch(`${s.base}/evidence?since=2027-04-01`, { headers: auth });
    expect(table.status).toBe(200);
    expect(await table.text()).toContain("1 change shown (1 not reviewed)");
    const page = await fetch(`${s.base}/review?id=${review.id}`, { headers: auth });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("approve by UAPPROVER");

    const views = await s.server.gate.state.query(
      "SELECT review_id, action FROM gate_audit WHERE actor = 'auditor:kim' ORDER BY seq",
    );
    expect(views).toEqual([
      { review_id: "", action: "view" },
      { review_id: review.id, action: "view" },
    ]);
    expect((await verifyAuditLog(s.server.gate.store)).intact).toBe(true);

    expect(await s.server.gate.store.revokeAuditor("kim")).toBe(true);
    expect((await fetch(`${s.base}/evidence`, { headers: auth })).status).toBe(401);
  });
});
