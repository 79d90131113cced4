import { describe, expect, it } from "vitest";
import { verifyAuditLog } from "../../src/review/audit-verification.js";
import { addAuditor, tokenHash } from "../../src/review/auditor-tokens.js";
import { APRIL_MERGE, stackWithEvidence } from "./auditor-helpers.js";
import { stacksClosedAfterEach, type Stack } from "./helpers.js";

const start = stacksClosedAfterEach();

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The audit log's entries written by an auditor. */
async function auditorEntries(s: Stack) {
  const rows = await s.server.gate.state.query(
    "SELECT review_id, actor, action, outcome, detail FROM gate_audit WHERE actor LIKE 'auditor:%' ORDER BY seq",
  );
  return rows as Array<{ review_id: string; actor: string; action: string; outcome: string; detail: string }>;
}

describe("the auditor's pages: signed in only, every view audited", () => {
  it("without a token: 401 and the sign-in form, no evidence and no review data; with a bad one too", async () => {
    const { s, review } = await stackWithEvidence(start);
    for (const path of [
      "/evidence",
      `/evidence/change?key=${encodeURIComponent("acme/web#1")}`,
      `/review?id=${review.id}`,
    ]) {
      for (const headers of [
        {} as Record<string, string>,
        bearer("gat_not-a-token"),
        bearer("nonsense"),
        { cookie: "gate_session=kim.99999999999999.x" },
      ]) {
        const res = await fetch(`${s.base}${path}`, { headers, redirect: "manual" });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        const html = await res.text();
        expect(html).toContain("gate auditor add");
        expect(html).not.toContain("octo-admin");
        expect(html).not.toContain(review.title);
        expect(html).not.toContain("LIC-02");
      }
    }
    expect(await auditorEntries(s)).toEqual([]);
  });

  it("with a token: the table, one change's chain and the review page, each view in the audit log", async () => {
    const { s, review, pr, token, other } = await stackWithEvidence(start);
    // The store keeps the token's hash, never the token.
    const [stored] = await s.server.gate.state.query("SELECT token_hash FROM gate_auditors WHERE name = 'kim'");
    expect(stored).toEqual({ token_hash: tokenHash(token) });
    expect(token).toMatch(/^gat_[A-Za-z0-9_-]{43}$/);

    const table = await fetch(`${s.base}/evidence`, { headers: bearer(token) });
    expect(table.status).toBe(200);
    expect(table.headers.get("content-type")).toMatch(/^text\/html/);
    expect(table.headers.get("cache-control")).toBe("no-store");
    const html = await table.text();
    const key = `${pr.owner}/${pr.repo}#${pr.number}`;
    expect(html).toContain(`${key}</a>`);
    expect(html).toContain(`${other.owner}/${other.repo}#9</a>`);
    expect(html).toContain("2 changes shown (1 not reviewed)");

    // The filter narrows it: April only.
    const april = await (await fetch(`${s.base}/evidence?since=2027-04-01`, { headers: bearer(token) })).text();
    expect(april).toContain("1 change shown");
    expect(april).toContain(APRIL_MERGE.slice(0, 10));
    expect(april).not.toContain(`>${key}</a>`);
    // A bad filter: 400 naming it.
    const bad = await fetch(`${s.base}/evidence?since=yesterday`, { headers: bearer(token) });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("--since yesterday");
    for (const q of ["since=2027-05-01&until=2027-04-01", "limit=0", "limit=5000", "repo=not-a-repo"]) {
      expect((await fetch(`${s.base}/evidence?${q}`, { headers: bearer(token) })).status, q).toBe(400);
    }
    // A page of one row links to the next.
    const first = await (await fetch(`${s.base}/evidence?limit=1`, { headers: bearer(token) })).text();
    expect(first).toContain("1 change shown");
    const next = /<a id="next" href="([^"]+)"/.exec(first)?.[1]?.replaceAll("&amp;", "&");
    expect(next).toMatch(/after_key=/);
    const second = await (await fetch(`${s.base}${next}`, { headers: bearer(token) })).text();
    expect(second).toContain(`${other.owner}/${other.repo}#9</a>`);
    expect(second).not.toContain('id="next"');

    const change = await fetch(`${s.base}/evidence/change?key=${encodeURIComponent(key)}`, { headers: bearer(token) });
    expect(change.status).toBe(200);
    const chain = await change.text();
    expect(chain).toContain(`approve by UAPPROVER`);
    expect(chain).toContain(`/review?id=${review.id}`);
    expect(chain).toContain("before_merge");

    const page = await fetch(`${s.base}/review?id=${review.id}`, { headers: bearer(token) });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain(review.id);
    expect(text).toContain("LIC-02");
    expect(text).toContain("approve by UAPPROVER");
    expect((await fetch(`${s.base}/review?id=r-ffffffffffff`, { headers: bearer(token) })).status).toBe(404);
    expect((await fetch(`${s.base}/review?id=../../etc/passwd`, { headers: bearer(token) })).status).toBe(400);

    const entries = await auditorEntries(s);
    expect(entries.map((e) => [e.actor, e.action, e.review_id, JSON.parse(e.detail).page])).toEqual([
      ["auditor:kim", "view", "", "/evidence"],
      ["auditor:kim", "view", "", "/evidence"],
      ["auditor:kim", "view", "", "/evidence"],
      ["auditor:kim", "view", "", "/evidence"],
      ["auditor:kim", "view", review.id, "/evidence/change"],
      ["auditor:kim", "view", review.id, "/review"],
    ]);
    expect(JSON.parse(entries[1]?.detail ?? "{}").filter).toEqual({ since: "2027-04-01T00:00:00.000Z" });
    const [used] = await s.server.gate.store.auditors();
    expect(used?.lastUsedAt).not.toBeNull();
  });

  it("escapes what GitHub sent (a hostile author, branch and key) on the table and the change's page; the log still verifies", async () => {
    const { s, token } = await stackWithEvidence(start);
    const evil = '<script>alert("x")</script>';
    await s.server.gate.store.recordChange({
      kind: "push",
      repo: "acme/web",
      commitSha: "c".repeat(40),
      branch: `main"><img src=x onerror=alert(1)>`,
      author: evil,
      mergedBy: evil,
      mergedAt: "2027-05-01T00:00:00Z",
      passed: false,
    });
    const html = await (await fetch(`${s.base}/evidence?repo=acme/web`, { headers: bearer(token) })).text();
    expect(html).toContain("1 change shown (1 not reviewed)");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    const key = `acme/web@${"c".repeat(40)}`;
    const change = await fetch(`${s.base}/evidence/change?key=${encodeURIComponent(key)}`, { headers: bearer(token) });
    expect(change.status).toBe(200);
    const chain = await change.text();
    expect(chain).toContain("The gate had no review of this change.");
    expect(chain).not.toContain("<script>");
    expect(chain).not.toContain("<img");
    expect((await fetch(`${s.base}/evidence/change?key=nope`, { headers: bearer(token) })).status).toBe(404);
    // The views' entries are chained like every other entry: the log verifies.
    const verdict = await verifyAuditLog(s.server.gate.store);
    expect(verdict.intact).toBe(true);
    expect((await auditorEntries(s)).length).toBe(2);
  });

  it("sign-in sets an HttpOnly, SameSite=Strict, expiring session; revoking the token ends token and session", async () => {
    const { s, review, token } = await stackWithEvidence(start);
    const wrong = await fetch(`${s.base}/signin`, {
      method: "POST",
      body: new URLSearchParams({ token: "gat_wrong", next: "/evidence" }),
      redirect: "manual",
    });
    expect(wrong.status).toBe(401);

    const signin = await fetch(`${s.base}/signin`, {
      method: "POST",
      body: new URLSearchParams({ token, next: `/review?id=${review.id}` }),
      redirect: "manual",
    });
    expect(signin.status).toBe(303);
    expect(signin.headers.get("location")).toBe(`/review?id=${review.id}`);
    const setCookie = String(signin.headers.get("set-cookie"));
    expect(setCookie).toMatch(/^gate_session=kim\.\d+\.[\w-]+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=28800$/);
    const cookie = setCookie.split(";")[0] ?? "";
    expect((await fetch(`${s.base}/review?id=${review.id}`, { headers: { cookie } })).status).toBe(200);
    // A session cookie with its MAC changed is nobody's.
    expect((await fetch(`${s.base}/evidence`, { headers: { cookie: `${cookie.slice(0, -2)}xx` } })).status).toBe(401);
    // Another site is never a place to go next.
    const away = await fetch(`${s.base}/signin?${new URLSearchParams({ token, next: "//evil.example/x" })}`, {
      redirect: "manual",
    });
    expect(away.headers.get("location")).toBe("/evidence");

    expect(await s.server.gate.store.revokeAuditor("kim")).toBe(true);
    expect((await fetch(`${s.base}/evidence`, { headers: bearer(token) })).status).toBe(401);
    expect((await fetch(`${s.base}/evidence`, { headers: { cookie } })).status).toBe(401);
    const [kim] = await s.server.gate.store.auditors();
    expect(kim?.revokedAt).not.toBeNull();
    // A revoked name stays taken; another auditor's token still works.
    await expect(addAuditor(s.server.gate.store, "kim")).rejects.toThrow(/exists already/);
    const lee = await addAuditor(s.server.gate.store, "lee");
    expect((await fetch(`${s.base}/evidence`, { headers: bearer(lee) })).status).toBe(200);
    const actions = (await auditorEntries(s)).map((e) => `${e.actor} ${e.action}`);
    expect(actions).toEqual(["auditor:kim signin", "auditor:kim view", "auditor:kim signin", "auditor:lee view"]);
  });
});
