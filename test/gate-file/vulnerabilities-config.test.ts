import { describe, expect, it } from "vitest";
import { applyConfig } from "../../src/gate-file/apply.js";
import { DEFAULT_VULNERABILITY_RULES, effectiveConfig } from "../../src/gate-file/effective.js";
import { ConfigFileError, loadConfigFile, parseConfigText } from "../../src/gate-file/load.js";
import { mergeConfig } from "../../src/gate-file/merge.js";
import type { Finding } from "../../src/domain/finding.js";
import { BUNDLED_CONFIG_FILE, BUNDLED_POLICIES_DIR } from "../../src/package-paths.js";
import { loadPolicies } from "../../src/policy/load-policies.js";

const POLICIES = loadPolicies(BUNDLED_POLICIES_DIR);
const effective = (yaml: string) =>
  effectiveConfig(parseConfigText(`version: 1\n${yaml}`, "gate.yml"), POLICIES, { riskThreshold: 30, sources: [] });

function problems(text: string): string[] {
  try {
    parseConfigText(text, "gate.yml");
  } catch (error) {
    if (error instanceof ConfigFileError) return error.problems.map((p) => `${p.line}:${p.key}`);
    throw error;
  }
  return [];
}

const note: Finding = {
  specialty: "security",
  policy: "SEC-07",
  severity: "low",
  blocking: false,
  needs_more_context: false,
  file: "package.json",
  line: 4,
  message: "tiny-helper@1.0.0 is affected by an advisory",
  source: "detector",
  detector: "vulnerable-dependencies",
  package: { name: "tiny-helper", version: "1.0.0" },
  advisories: [{ id: "GHSA-test-tiny-0003", aliases: [] }],
};

describe("the vulnerabilities: configuration (SEC-07)", () => {
  it("defaults to high for runtime dependencies and never for development ones; the bundled file says the same", () => {
    expect(effective("").vulnerabilities).toEqual(DEFAULT_VULNERABILITY_RULES);
    const bundled = effectiveConfig(loadConfigFile(BUNDLED_CONFIG_FILE), POLICIES, { riskThreshold: 30, sources: [] });
    expect(bundled.vulnerabilities).toEqual({ runtime: { fail_on: "high" }, development: { fail_on: "never" } });
  });

  it("reads fail_on server-wide, and a repository's file over it", () => {
    const server = parseConfigText(
      "version: 1\nvulnerabilities: { fail_on: moderate, development: { fail_on: critical } }\n",
      "server.yml",
    );
    const repo = parseConfigText("version: 1\nvulnerabilities: { fail_on: low }\n", ".github/gate.yml");
    const merged = effectiveConfig(mergeConfig(server, repo), POLICIES, { riskThreshold: 30, sources: [] });
    expect(merged.vulnerabilities).toEqual({ runtime: { fail_on: "low" }, development: { fail_on: "critical" } });
  });

  it("refuses an unknown level or key, naming the line", () => {
    expect(problems("version: 1\nvulnerabilities:\n  fail_on: severe\n")).toEqual(["3:vulnerabilities.fail_on"]);
    expect(problems("version: 1\nvulnerabilities:\n  fail_on: high\n  ignore: [lodash]\n")).toEqual([
      "4:vulnerabilities.ignore",
    ]);
    expect(problems("version: 1\nvulnerabilities: { fail_on: never }\n")).toEqual(["2:vulnerabilities.fail_on"]);
  });

  it("a graded SEC-07 note is not raised by the policy file's defaults (blocking, high); an explicit switch still applies", () => {
    expect(applyConfig([note], effective(""), "2026-12-01")[0]).toMatchObject({ blocking: false, severity: "low" });
    expect(applyConfig([note], effective("policies: { SEC-07: { blocking: true } }"), "2026-12-01")[0]?.blocking).toBe(
      true,
    );
    expect(applyConfig([note], effective("policies: { SEC-07: { enabled: false } }"), "2026-12-01")).toEqual([]);
  });
});
