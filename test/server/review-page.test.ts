import { describe, expect, it } from "vitest";
import { checkRunsOn, openPr, serveFixture, stacksClosedAfterEach } from "./helpers.js";

const start = stacksClosedAfterEach();

describe("the check run's details link, always set", () => {
  it("without Slack or GATE_PUBLIC_URL: the pull request's checks tab; no review page is served", async () => {
    const s = await start();
    const pr = serveFixture(s, "002_new_dependency");
    await openPr(s, pr);
    const runs = checkRunsOn(s.gh, pr.headSha);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.fields.details_url).toBe(`${pr.url}/checks`);
    expect((await fetch(`${s.base}/review?id=r-000000000000`)).status).toBe(404);
  });

  it("with GATE_PUBLIC_URL: the review's page on this server, which shows its status as text", async () => {
    const s = await start({ env: { GATE_PUBLIC_URL: "https://gate.example.com/" } });
    const pr = serveFixture(s, "002_new_dependency");
    const review = await openPr(s, pr);
    const link = checkRunsOn(s.gh, pr.headSha)[0]?.fields.details_url;
    expect(link).toBe(`https://gate.example.com/review?id=${review.id}`);

    const page = await fetch(`${s.base}${new URL(String(link)).pathname}${new URL(String(link)).search}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await page.text();
    expect(text).toContain(`${pr.owner}/${pr.repo}#${pr.number}`);
    expect(text).toContain(review.id);
    expect(text).toContain("waiting for a person");
    expect(text).toContain("LIC-02");

    expect((await fetch(`${s.base}/review?id=r-ffffffffffff`)).status).toBe(404);
    expect((await fetch(`${s.base}/review?id=../../etc/passwd`)).status).toBe(400);
    expect((await fetch(`${s.base}/review`)).status).toBe(400);
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
