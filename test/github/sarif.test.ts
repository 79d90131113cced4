import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResultFinding, ReviewResult } from "../../src/domain/review-result.js";
import { buildSarif, FINGERPRINT_KEY, SARIF_SCHEMA } from "../../src/github/sarif.js";
import { loadPolicies } from "../../src/policy/load-policies.js";
import { BUNDLED_POLICIES_DIR } from "../../src/package-paths.js";
import { openedGates, reviewFixture, type TestGate } from "../helpers/gate.js";
import { githubIngestionErrors, SARIF_LEVELS, sarifSchemaErrors } from "../helpers/sarif-schema.js";
import { ZERO_USAGE } from "../../src/domain/usage.js";

const policies = loadPolicies(BUNDLED_POLICIES_DIR);
const gates = openedGates();
let gate: TestGate;
beforeAll(async () => {
  gate = await gates.open();
});
afterAll(() => gates.closeAll());

function finding(over: Partial<ResultFinding> = {}): ResultFinding {
  return {
    specialty: "security",
    policy: "SEC-01",
    severity: "critical",
    blocking: true,
    needs_more_context: false,
    file: "src/config.ts",
    line: 12,
    message: "AWS access key in code",
    fingerprint: "SEC-01:0123456789abcdef",
    ...over,
  };
}

function result(findings: ResultFinding[]): ReviewResult {
  return {
    pr: "acme/web#7",
    route: "human",
    status: "waiting_for_human",
    risk: null,
    findings,
    escalation: { reason: "blocking_finding", detail: "blocking: SEC-01" },
    budget: { cycles_used: 0, cycles_max: 2, tool_calls: 0, ...ZERO_USAGE },
    investigations: [],
    coverage: null,
    review_id: "r-0123456789ab",
  };
}

describe("the SARIF 2.1.0 log of a review", () => {
  it("conforms to the SARIF 2.1.0 schema and GitHub's ingestion rules, for every bundled fixture's review", {
    timeout: 120_000,
  }, async () => {
    let results = 0;
    for (const name of [
      "001_readme_typo",
      "002_new_dependency",
      "004_hardcoded_aws_key",
      "006_sql_injection",
      "013_logs_user_email",
    ]) {
      const log = buildSarif(await reviewFixture(gate, name), gate.policies, { version: "0.2.0" });
      // Through JSON, as the file is read.
      const parsed: unknown = JSON.parse(JSON.stringify(log));
      expect(sarifSchemaErrors(parsed), name).toEqual([]);
      expect(githubIngestionErrors(parsed), name).toEqual([]);
      results += log.runs[0]?.results.length ?? 0;
    }
    expect(results).toBeGreaterThan(2);
  });

  it("has the version, $schema, the tool, and one rule per policy of the corpus", () => {
    const log = buildSarif(result([finding()]), policies, { version: "1.2.3" });
    expect(log.version).toBe("2.1.0");
    expect(log.$schema).toBe(SARIF_SCHEMA);
    const driver = log.runs[0]?.tool.driver;
    expect(driver?.name).toBe("compliance-gate");
    expect(driver?.version).toBe("1.2.3");
    expect(driver?.rules.map((r) => r.id)).toEqual(policies.map((p) => p.id));
    const sec01 = driver?.rules.find((r) => r.id === "SEC-01");
    expect(sec01?.shortDescription.text).toBe("No credentials in the change");
    expect(sec01?.fullDescription.text).toMatch(/^A credential pushed to a branch is compromised/);
    expect(sec01?.help.markdown).toContain("## What it forbids");
    expect(sec01?.defaultConfiguration.level).toBe("error");
    expect(sec01?.properties["security-severity"]).toBe("9.5");
    const lic01 = driver?.rules.find((r) => r.id === "LIC-01");
    expect(lic01?.defaultConfiguration.level).toBe("warning");
    expect(lic01?.properties["security-severity"]).toBeUndefined();
  });

  it("gives each finding its rule, level, file and line, and its fingerprint in partialFingerprints", () => {
    const log = buildSarif(
      result([
        finding(),
        finding({
          policy: "LIC-01",
          specialty: "licensing",
          severity: "medium",
          blocking: false,
          file: "package.json",
          line: 19,
          fingerprint: "LIC-01:fedcba9876543210",
        }),
      ]),
      policies,
      { version: "0.2.0" },
    );
    const run = log.runs[0];
    const [sec, lic] = run?.results ?? [];
    expect(sec?.ruleId).toBe("SEC-01");
    expect(run?.tool.driver.rules[sec?.ruleIndex ?? -1]?.id).toBe("SEC-01");
    expect(sec?.level).toBe("error");
    expect(sec?.message.text).toBe("AWS access key in code");
    expect(sec?.locations).toEqual([
      { physicalLocation: { artifactLocation: { uri: "src/config.ts" }, region: { startLine: 12 } } },
    ]);
    expect(sec?.partialFingerprints).toEqual({
      [FINGERPRINT_KEY]: "SEC-01:0123456789abcdef",
      primaryLocationLineHash: "SEC-01:0123456789abcdef",
    });
    expect(lic?.ruleId).toBe("LIC-01");
    expect(run?.tool.driver.rules[lic?.ruleIndex ?? -1]?.id).toBe("LIC-01");
    expect(lic?.level).toBe("warning");
    expect(lic?.locations[0]?.physicalLocation.region.startLine).toBe(19);
  });

  it("keeps every result located (GitHub refuses a whole upload otherwise): a file without a line is line 1, no file goes to the run's properties", () => {
    const log = buildSarif(
      result([
        finding({ line: undefined }),
        finding({ file: undefined, line: undefined, message: "the PR as a whole" }),
      ]),
      policies,
      { version: "0.2.0" },
    );
    const run = log.runs[0];
    expect(run?.results).toHaveLength(1);
    expect(run?.results[0]?.locations[0]?.physicalLocation.region.startLine).toBe(1);
    expect(run?.properties.findings_without_location).toEqual([
      { policy: "SEC-01", severity: "critical", blocking: true, message: "the PR as a whole" },
    ]);
    expect(githubIngestionErrors(JSON.parse(JSON.stringify(log)))).toEqual([]);
  });

  it("names a policy no file describes in a rule of its own, and a finding an exception cleared as suppressed", () => {
    const exception = {
      policy: "LIC-01",
      package: "left-pad",
      reason: "legal approved",
      granted_by: "dana",
      expires: "2099-01-01",
      status: "applied" as const,
    };
    const log = buildSarif(
      result([
        finding({ policy: "ACME-01", specialty: "data", severity: "high" }),
        finding({ policy: "LIC-01", specialty: "licensing", blocking: false, exception }),
      ]),
      policies,
      { version: "0.2.0" },
    );
    const parsed: unknown = JSON.parse(JSON.stringify(log));
    expect(sarifSchemaErrors(parsed)).toEqual([]);
    expect(githubIngestionErrors(parsed)).toEqual([]);
    const run = log.runs[0];
    expect(run?.tool.driver.rules.at(-1)).toMatchObject({ id: "ACME-01", defaultConfiguration: { level: "error" } });
    expect(run?.results[1]?.suppressions).toEqual([
      {
        kind: "external",
        status: "accepted",
        justification: "legal approved (exception granted by dana, until 2099-01-01)",
      },
    ]);
  });
});

describe("the transcribed schema check can fail", () => {
  const good = (): Record<string, unknown> =>
    JSON.parse(JSON.stringify(buildSarif(result([finding()]), policies, { version: "0.2.0" })));
  const RESULT = ["runs", 0, "results", 0];
  const PHYSICAL = [...RESULT, "locations", 0, "physicalLocation"];
  const DRIVER = ["runs", 0, "tool", "driver"];

  /** Sets (or, for undefined, deletes) the value at a path of keys and indexes. */
  function spoil(log: unknown, at: (string | number)[], value: unknown): void {
    const parent = at.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], log);
    const key = at[at.length - 1] ?? "";
    if (value === undefined) delete (parent as Record<string, unknown>)[key];
    else (parent as Record<string, unknown>)[key] = value;
  }

  it.each([
    ["a level outside the enum", [...RESULT, "level"], "fatal", /level: "fatal" is not one of/],
    ["a line 0", [...PHYSICAL, "region", "startLine"], 0, /startLine: 0 is below 1/],
    ["a result without a message", [...RESULT, "message"], undefined, /missing required message/],
    ["a misspelt property", [...RESULT, "partialFingerprint"], {}, /property partialFingerprint is not in the schema/],
    ["another version", ["version"], "2.0.0", /version: "2.0.0" is not one of 2.1.0/],
    ["a driver without a name", [...DRIVER, "name"], undefined, /driver: missing required name/],
    ["a rule without an id", [...DRIVER, "rules", 0, "id"], undefined, /rules\[0\]: missing required id/],
    [
      "a location without an artifact",
      [...PHYSICAL, "artifactLocation"],
      undefined,
      /needs one of address \| artifactLocation/,
    ],
    [
      "a suppression of an unknown kind",
      [...RESULT, "suppressions"],
      [{ kind: "inCode" }],
      /kind: "inCode" is not one of/,
    ],
  ] as const)("finds %s", (_what, at, value, expected) => {
    const log = good();
    expect(sarifSchemaErrors(log)).toEqual([]);
    spoil(log, [...at], value);
    expect(sarifSchemaErrors(log).join("\n")).toMatch(expected);
  });

  it("GitHub's rules find a result with no location, a ruleId naming no rule, and no $schema", () => {
    const log = good();
    spoil(log, [...RESULT, "locations"], []);
    spoil(log, [...RESULT, "ruleId"], "NOPE-01");
    spoil(log, ["$schema"], undefined);
    expect(githubIngestionErrors(log)).toEqual([
      "$schema: missing",
      "runs[0].results[0].ruleId: names no rule",
      "runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri: missing",
      "runs[0].results[0].locations[0].physicalLocation.region.startLine: missing",
    ]);
    expect(SARIF_LEVELS).toEqual(["none", "note", "warning", "error"]);
  });
});
