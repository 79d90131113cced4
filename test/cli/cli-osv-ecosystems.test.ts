import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";

const ResultSchema = z.object({
  route: z.string(),
  escalation: z.object({ reason: z.string() }).nullable(),
  findings: z.array(
    z.object({ policy: z.string(), file: z.string().optional(), line: z.number().optional(), message: z.string() }),
  ),
});

/** A vulnerable dependency per ecosystem, the advisory its osv.json holds for it, and its fixed twin. */
const CASES = [
  ["sec-vuln-maven-log4j-core", "clean-vuln-maven-log4j-core-fixed", "pom.xml", "GHSA-jfh8-c2jp-5v3q (CVE-2021-44228)"],
  [
    "sec-vuln-nuget-newtonsoft-json",
    "clean-vuln-nuget-newtonsoft-json-fixed",
    "src/Billing.Webhooks/Billing.Webhooks.csproj",
    "GHSA-5crp-9r3c-p9vr (CVE-2024-21907)",
  ],
  [
    "sec-vuln-composer-guzzle",
    "clean-vuln-composer-guzzle-fixed",
    "composer.json",
    "GHSA-q559-8m2m-g699 (CVE-2022-31091)",
  ],
  [
    "sec-vuln-gemfile-lock-nokogiri",
    "clean-vuln-gemfile-lock-nokogiri-fixed",
    "Gemfile.lock",
    "GHSA-crjr-9rc5-ghw8 (CVE-2022-24836)",
  ],
] as const;

const dir = tempDir("gate-cli-osv-eco-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function review(fixture: string) {
  const run = await runGateCli(["review", path.join(BUNDLED_FIXTURES_DIR, "eval", fixture), "--json"], {
    env: {
      PATH: process.env.PATH ?? "",
      GATE_DATA_DIR: dir,
      GATE_DB: path.join(dir, `${fixture}.db`),
      GATE_LOG_LEVEL: "silent",
    },
    cwd: dir,
  });
  return ResultSchema.parse(JSON.parse(run.stdout));
}

describe("gate review of the SEC-07 fixtures for Maven, NuGet, Packagist and RubyGems (the fixture's osv.json, offline)", () => {
  for (const [risky, clean, file, advisory] of CASES) {
    it(`${risky} goes to a person with SEC-07 naming ${advisory}; ${clean} is approved`, async () => {
      const [bad, good] = await Promise.all([review(risky), review(clean)]);
      expect(bad.route).toBe("human");
      expect(bad.escalation?.reason).toBe("blocking_finding");
      expect(bad.findings).toEqual([
        expect.objectContaining({ policy: "SEC-07", file, message: expect.stringContaining(advisory) }),
      ]);
      expect(good.route).toBe("approved");
      expect(good.findings).toEqual([]);
    }, 60_000);
  }

  it("guzzle 7.4.4 is not flagged for GHSA-f2wf-25xc-69c9, which 7.4.4 fixed (Composer's order, not a name match)", async () => {
    const bad = await review("sec-vuln-composer-guzzle");
    expect(bad.findings[0]?.message).toContain("GHSA-25mq-v84q-4j7r");
    expect(bad.findings[0]?.message).not.toContain("GHSA-f2wf-25xc-69c9");
    expect(bad.findings[0]?.message).toContain("Upgrade to 7.4.5");
  }, 60_000);
});
