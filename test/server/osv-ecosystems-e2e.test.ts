import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { reviewFixture, testGate } from "../helpers/gate.js";
import {
  checkRunsOn,
  latestReview,
  postWebhook,
  pullRequestEvent,
  serveFixture,
  stacksClosedAfterEach,
} from "./helpers.js";

const start = stacksClosedAfterEach();
const EVAL = path.join(BUNDLED_FIXTURES_DIR, "eval");

/** Each ecosystem's vulnerable fixture, the file and line of its finding, and the advisory OSV names; and its fixed twin. */
const CASES = [
  {
    risky: "sec-vuln-maven-log4j-core",
    clean: "clean-vuln-maven-log4j-core-fixed",
    path: "pom.xml",
    line: 21,
    advisory: "GHSA-jfh8-c2jp-5v3q",
  },
  {
    risky: "sec-vuln-nuget-newtonsoft-json",
    clean: "clean-vuln-nuget-newtonsoft-json-fixed",
    path: "src/Billing.Webhooks/Billing.Webhooks.csproj",
    line: 12,
    advisory: "GHSA-5crp-9r3c-p9vr",
  },
  {
    risky: "sec-vuln-composer-guzzle",
    clean: "clean-vuln-composer-guzzle-fixed",
    path: "composer.json",
    line: 8,
    advisory: "GHSA-q559-8m2m-g699",
  },
  {
    risky: "sec-vuln-gemfile-lock-nokogiri",
    clean: "clean-vuln-gemfile-lock-nokogiri-fixed",
    path: "Gemfile.lock",
    line: 5,
    advisory: "GHSA-crjr-9rc5-ghw8",
  },
] as const;

describe("SEC-07 for Maven, NuGet, Packagist and RubyGems on a live review (the OSV fake, the registries' fakes)", () => {
  for (const c of CASES) {
    it(`${c.risky}: waits for a person with SEC-07 naming ${c.advisory} at ${c.path}:${c.line}, as the fixture's osv.json gives; ${c.clean} passes`, async () => {
      const s = await start();
      const pr = serveFixture(s, c.risky, { fixturesDir: EVAL });
      await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)));
      await s.server.idle();
      const result = await s.server.gate.runner.result((await latestReview(s, pr)).id);
      expect(result.escalation?.reason).toBe("blocking_finding");
      expect(result.findings).toEqual([
        expect.objectContaining({
          policy: "SEC-07",
          blocking: true,
          file: c.path,
          line: c.line,
          message: expect.stringContaining(c.advisory),
        }),
      ]);
      expect(s.osv.requests).toContain(`GET /v1/vulns/${c.advisory}`);
      const [run] = checkRunsOn(s.gh, pr.headSha);
      expect(run?.fields.conclusion).toBe("action_required");
      const g = await testGate();
      try {
        const offline = await reviewFixture(g, c.risky, EVAL);
        expect(result.findings).toEqual(offline.findings);
      } finally {
        await g.close();
      }

      const fixed = serveFixture(s, c.clean, { fixturesDir: EVAL });
      await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", fixed)));
      await s.server.idle();
      const passed = await s.server.gate.runner.result((await latestReview(s, fixed)).id);
      expect(passed.escalation).toBeNull();
      expect(passed.findings).toEqual([]);
      expect(passed.route).toBe("approved");
    }, 60_000);
  }
});
