import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import {
  CHANNEL,
  checkRunsOn,
  latestReview,
  openPr,
  record,
  serveFixture,
  stacksClosedAfterEach,
  type ServedPr,
  type Stack,
} from "./helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

const CONFIG = ".github/gate.yml";
/** What a PR's author would like: LIC-02 off, everything passes. */
const PERMISSIVE = "version: 1\npolicies:\n  LIC-02: { enabled: false }\nrisk: { threshold: 100 }\n";

function baseShaOf(fixture: string): string {
  const pr = JSON.parse(fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, fixture, "pr.json"), "utf8"));
  return String(pr.base.sha);
}

/** Opens the PR on the server and returns its review's result. */
async function review(s: Stack, pr: ServedPr) {
  return s.server.gate.runner.result((await openPr(s, pr)).id);
}

describe("a repository's own configuration file (.github/gate.yml)", { timeout: 60_000 }, () => {
  it("is read from the PR's base commit: a file on the head has no effect, and the PR editing it is escalated (SEC-06)", async () => {
    const s = await start();
    const pr = serveFixture(s, "002_new_dependency");
    // The head adds a permissive configuration; the base has none.
    const files = JSON.parse(
      fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, "002_new_dependency", "files.json"), "utf8"),
    );
    const patch = `@@ -0,0 +1,4 @@\n${PERMISSIVE.trimEnd()
      .split("\n")
      .map((l) => `+${l}`)
      .join("\n")}`;
    s.gh.setPull(pr.owner, pr.repo, pr.number, {
      pr: JSON.parse(fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, "002_new_dependency", "pr.json"), "utf8")),
      files: [...files, { filename: CONFIG, status: "added", additions: 4, deletions: 0, changes: 4, patch }],
    });
    s.gh.setContent(pr.owner, pr.repo, pr.headSha, CONFIG, PERMISSIVE); // never asked for
    const result = await review(s, pr);

    expect(result.route).toBe("human");
    expect(result.findings.find((f) => f.policy === "LIC-02")?.blocking).toBe(true);
    const sec06 = result.findings.find((f) => f.policy === "SEC-06");
    expect(sec06).toMatchObject({ blocking: true, file: CONFIG });
    expect(sec06?.message).toContain("LIC-02: { enabled: false }");
    // The configuration was asked for at the base commit only.
    const asked = s.gh.find("GET", /\/contents\/\.github(%2F|\/)gate\.yml$/);
    expect(asked.map((r) => r.query.ref)).toEqual([baseShaOf("002_new_dependency")]);
    expect(JSON.stringify(record(checkRunsOn(s.gh, pr.headSha)[0]?.fields.output))).toContain("SEC-06");
  });

  it("on the base commit, it applies to its repository only: its threshold and its channel", async () => {
    const s = await start({ slack: true });
    const dashboard = serveFixture(s, "002_new_dependency");
    s.gh.setContent(
      dashboard.owner,
      dashboard.repo,
      baseShaOf("002_new_dependency"),
      CONFIG,
      "version: 1\nslack: { channel: CDASHBOARD }\nrisk: { threshold: 3 }\n",
    );
    const typo = serveFixture(s, "001_readme_typo"); // acme/web: no file of its own
    const reports = serveFixture(s, "011_unknown_license"); // acme/reports-api: no file of its own

    const dashboardResult = await review(s, dashboard);
    expect(dashboardResult.route).toBe("human");
    const reportsResult = await review(s, reports);
    expect(reportsResult.route).toBe("human");
    const channels =
      s.slack?.callsTo("chat.postMessage").map((c) => [String(c.body.channel), String(c.body.text)] as const) ?? [];
    expect(channels.find(([, text]) => text.includes("#214"))?.[0]).toBe("CDASHBOARD");
    expect(channels.find(([, text]) => text.includes("#88"))?.[0]).toBe(CHANNEL);

    // acme/web keeps the server's threshold: a README typo still passes with no specialist.
    expect((await review(s, typo)).route).toBe("auto_approved");
    const config = await s.server.gate.reviewConfig((await latestReview(s, dashboard)).id);
    expect(config?.risk.threshold).toBe(3);
    expect(config?.sources.at(-1)).toMatch(/^acme\/web-dashboard:\.github\/gate\.yml@559d8bc68cec/);
  });

  it("an invalid file on the base commit is not used: the review goes to a person, naming the line", async () => {
    const s = await start();
    const pr = serveFixture(s, "001_readme_typo");
    s.gh.setContent(pr.owner, pr.repo, baseShaOf("001_readme_typo"), CONFIG, "version: 1\nrisk:\n  threshold: lots\n");
    const result = await review(s, pr);
    expect(result.route).toBe("human");
    expect(result.escalation?.detail).toMatch(/gate\.yml@111111111111:3:14: risk\.threshold/);
  });
});
