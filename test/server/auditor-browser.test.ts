import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { ensureChromium, launchChromium } from "../helpers/chromium.js";
import { stackWithEvidence } from "./auditor-helpers.js";
import { stacksClosedAfterEach } from "./helpers.js";
import { SIGN_IN_ENV, slackSignsIn } from "./slack-sign-in-helpers.js";

const start = stacksClosedAfterEach();
/** Where the screenshots go (git-ignored). */
const OUTPUT = path.join(PACKAGE_ROOT, "test-output", "auditor-browser");

// Installs Debian's Chromium on a machine without it (minutes, once).
beforeAll(() => ensureChromium(), 600_000);

let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
// Registered after the stacks' hook, so it runs first: the browser's kept-alive connections
// would hold the server's close.
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

describe("the auditor's pages in Chromium", () => {
  it("signs in with a token, shows the evidence table, narrows it with a filter, and shows a review's decisions", async () => {
    const { s, review, token } = await stackWithEvidence(start);
    browser = await launchChromium();
    const page = await browser.newPage();

    // Not signed in: the sign-in form, no table.
    const first = await page.goto(`${s.base}/evidence`);
    expect(first?.status()).toBe(401);
    expect(await page.locator("#evidence").count()).toBe(0);
    await page.fill('input[name="token"]', token);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${s.base}/evidence`);

    const rows = page.locator("#evidence tbody tr");
    expect(await rows.count()).toBe(2);
    expect(await page.locator("#evidence tbody tr.unreviewed").count()).toBe(1);
    fs.mkdirSync(OUTPUT, { recursive: true });
    const shot = path.join(OUTPUT, "evidence.png");
    await page.screenshot({ path: shot, fullPage: true });
    expect(fs.statSync(shot).size).toBeGreaterThan(1000);
    console.log(`screenshot of the evidence table: ${shot}`);

    // The filter narrows it.
    await page.fill('input[name="since"]', "2027-04-01");
    await page.click('form.filter button[type="submit"]');
    await page.waitForURL(/since=2027-04-01/);
    expect(await rows.count()).toBe(1);
    expect(await page.locator("#count").textContent()).toContain("1 change shown");
    await page.screenshot({ path: path.join(OUTPUT, "evidence-filtered.png"), fullPage: true });

    // A review's page, from the table of all changes: its decisions.
    await page.goto(`${s.base}/evidence`);
    await page.click(`a[href="/review?id=${review.id}"]`);
    await page.waitForURL(`${s.base}/review?id=${review.id}`);
    expect(await page.locator("#decisions").textContent()).toContain("approve by UAPPROVER");
    expect(await page.locator("#audit").textContent()).toContain("applied");
    await page.screenshot({ path: path.join(OUTPUT, "review.png"), fullPage: true });

    // Every view is in the audit log, under the auditor's name.
    const views = await s.server.gate.state.query(
      "SELECT action, review_id FROM gate_audit WHERE actor = 'auditor:kim' ORDER BY seq",
    );
    expect(views).toEqual([
      { action: "signin", review_id: "" },
      { action: "view", review_id: "" },
      { action: "view", review_id: "" },
      { action: "view", review_id: "" },
      { action: "view", review_id: review.id },
    ]);
  });

  it("signs in with Slack from the 401 page and lands on the page it asked for, the session cookie sent", async () => {
    const { s, review } = await stackWithEvidence(start, SIGN_IN_ENV);
    const slack = s.slack;
    if (!slack) throw new Error("no Slack fake");
    browser = await launchChromium();
    // Slack's authorize page, played here: the member consents and Slack sends the browser back.
    await browser.route("https://slack.com/openid/connect/authorize**", async (route) => {
      const asked = new URL(route.request().url()).searchParams;
      slackSignsIn(slack, asked.get("nonce") ?? "", "UKIM", "T1");
      const back = `${s.base}/signin/slack/callback?${new URLSearchParams({ code: "good-code", state: asked.get("state") ?? "" })}`;
      await route.fulfill({ status: 302, headers: { location: back } });
    });
    const page = await browser.newPage();
    const first = await page.goto(`${s.base}/review?id=${review.id}`);
    expect(first?.status()).toBe(401);
    await page.click("#signin-slack");
    // The callback's page moves on by itself, same-site, so the SameSite=Strict session goes along.
    await page.waitForURL(`${s.base}/review?id=${review.id}`);
    expect(await page.locator("#decisions").textContent()).toContain("approve by UAPPROVER");
    fs.mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: path.join(OUTPUT, "review-slack.png"), fullPage: true });
    const entries = await s.server.gate.state.query(
      "SELECT action, review_id FROM gate_audit WHERE actor = 'slack:UKIM' ORDER BY seq",
    );
    expect(entries).toEqual([
      { action: "signin", review_id: "" },
      { action: "view", review_id: review.id },
    ]);
  });
});
