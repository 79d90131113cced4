import { describe, expect, it } from "vitest";
import { addAuditor } from "../../src/review/auditor-tokens.js";
import { checkRunsOn, openPr, serveFixture, stacksClosedAfterEach } from "./helpers.js";

const start = stacksClosedAfterEach();

describe("the check run's details link, always set", () => {
  it("without Slack or GATE_PUBLIC_URL: the pull request's checks tab; the review page needs sign-in", async () => {
    const s = await start();
    const pr = serveFixture(s, "002_new_dependency");
    await openPr(s, pr);
    const runs = checkRunsOn(s.gh, pr.headSha);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.fields.details_url).toBe(`${pr.url}/checks`);
    expect((await fetch(`${s.base}/review?id=r-000000000000`)).status).toBe(401);
  });

  it("with GATE_PUBLIC_URL: the review's page on this server: 401 and how to sign in, then its status for an auditor", async () => {
    const s = await start({ env: { GATE_PUBLIC_URL: "https://gate.example.com/" } });
    const pr = serveFixture(s, "002_new_dependency");
    const review = await openPr(s, pr);
    const link = checkRunsOn(s.gh, pr.headSha)[0]?.fields.details_url;
    expect(link).toBe(`https://gate.example.com/review?id=${review.id}`);

    // The link without sign-in: 401, a page that says how to sign in, and nothing of the review.
    const path = `${new URL(String(link)).pathname}${new URL(String(link)).search}`;
    const refused = await fetch(`${s.base}${path}`);
    expect(refused.status).toBe(401);
    const form = await refused.text();
    expect(form).toContain("gate auditor add");
    expect(form).toContain(`action="/signin"`);
    expect(form).not.toContain("LIC-02");
    expect(form).not.toContain("waiting for a person");
    for (const p of ["/review?id=r-ffffffffffff", "/review?id=../../etc/passwd", "/review"]) {
      expect((await fetch(`${s.base}${p}`)).status).toBe(401);
    }

    // Signed in (an auditor's token): the review's status, as `gate status` prints it, in HTML.
    const auth = { authorization: `Bearer ${await addAuditor(s.server.gate.store, "kim")}` };
    const page = await fetch(`${s.base}${path}`, { headers: auth });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const text = await page.text();
    expect(text).toContain(`${pr.owner}/${pr.repo}#${pr.number}`);
    expect(text).toContain(review.id);
    expect(text).toContain("waiting for a person");
    expect(text).toContain("LIC-02");

    // Behind an https GATE_PUBLIC_URL the session cookie is Secure; signed in, the link opens the page.
    const signin = await fetch(`${s.base}/signin`, {
      method: "POST",
      body: new URLSearchParams({ token: auth.authorization.slice("Bearer ".length), next: path }),
      redirect: "manual",
    });
    expect(signin.status).toBe(303);
    expect(signin.headers.get("location")).toBe(path);
    const setCookie = String(signin.headers.get("set-cookie"));
    expect(setCookie).toMatch(/; HttpOnly; SameSite=Strict; Path=\/; Max-Age=28800; Secure$/);
    const cookie = setCookie.split(";")[0] ?? "";
    expect(await (await fetch(`${s.base}${path}`, { headers: { cookie } })).text()).toContain("LIC-02");

    expect((await fetch(`${s.base}/review?id=r-ffffffffffff`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${s.base}/review?id=../../etc/passwd`, { headers: auth })).status).toBe(400);
    expect((await fetch(`${s.base}/review`, { headers: auth })).status).toBe(400);
  });

  it("in token mode the commit status carries the same link (target_url)", async () => {
    const s = await start({ mode: "token" });
    const pr = serveFixture(s, "001_readme_typo");
    await openPr(s, pr);
    const statuses = s.gh.statuses.filter((x) => x.sha === pr.headSha);
    expect(statuses.length).toBeGreaterThan(0);
    for (const st of statuses) expect((st.body as { target_url?: string }).target_url).toBe(`${pr.url}/checks`);
  });
});
