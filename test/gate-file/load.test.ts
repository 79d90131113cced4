import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_ALLOWED_LICENSES, effectiveConfig } from "../../src/gate-file/effective.js";
import { ConfigFileError, loadConfigFile, parseConfigText } from "../../src/gate-file/load.js";
import { mergeConfig } from "../../src/gate-file/merge.js";
import { loadPolicies } from "../../src/policy/load-policies.js";
import { BUNDLED_CONFIG_FILE, BUNDLED_POLICIES_DIR, PACKAGE_ROOT } from "../../src/package-paths.js";

/** The problems a text gives, as `line:key` pairs. */
function problems(text: string): string[] {
  try {
    parseConfigText(text, "gate.yml");
  } catch (error) {
    if (error instanceof ConfigFileError) return error.problems.map((p) => `${p.line}:${p.key}`);
    throw error;
  }
  throw new Error("the text was accepted");
}

describe("the configuration file", () => {
  it("the bundled default is valid, ships in the package and allows exactly the built-in list", () => {
    const file = loadConfigFile(BUNDLED_CONFIG_FILE);
    expect(file.licenses?.allow).toEqual([...DEFAULT_ALLOWED_LICENSES]);
    expect(file.licenses?.runtime?.unknown).toBe("block");
    const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { files: string[] };
    expect(pkg.files).toContain(path.relative(PACKAGE_ROOT, path.dirname(BUNDLED_CONFIG_FILE)));
  });

  it("names the line and key of every problem, unknown keys included", () => {
    const text = [
      "version: 1", // 1
      "licenses:", // 2
      "  allow: [MIT, 'not a licence']", // 3
      "  denny: [GPL-3.0-only]", // 4
      "policies:", // 5
      "  LIC-01: { blocking: yes }", // 6
      "exceptions:", // 7
      "  - policy: LIC-02", // 8
      "    package: left-pad@^1", // 9
      "    reason: legal cleared it", // 10
      "    granted_by: dana", // 11
      "    expires: 2026-02-30", // 12
      "risk: { threshold: 101 }", // 13
    ].join("\n");
    expect(problems(text).sort()).toEqual(
      [
        "3:licenses.allow.1",
        "4:licenses.denny",
        "6:policies.LIC-01.blocking",
        "12:exceptions.0.expires",
        "13:risk.threshold",
      ].sort(),
    );
  });

  it("refuses a file that is not YAML, a wrong version, and an exception naming both a package and a path", () => {
    expect(problems("version: 1\nlicenses: [MIT,\n")).toEqual([expect.stringMatching(/^\d+:\(yaml\)$/)]);
    expect(problems("version: 2\n")).toEqual(["1:version"]);
    expect(
      problems(
        "version: 1\nexceptions:\n  - { policy: LIC-02, package: a, path: 'src/**', reason: why not, granted_by: x, expires: 2030-01-01 }\n",
      ),
    ).toEqual(["3:exceptions.0"]);
  });

  it("a message is file:line:col: key: problem", () => {
    expect(() => parseConfigText("version: 1\nslack: { channel: general }\n", "repo/.github/gate.yml")).toThrow(
      /repo\/\.github\/gate\.yml:2:19: slack\.channel: must be a Slack channel id/,
    );
  });

  it("a file that cannot be read is refused, naming it", () => {
    expect(() => loadConfigFile("/nonexistent/gate.yml")).toThrow(/\/nonexistent\/gate\.yml.*cannot be read/);
  });

  it("a repository's file merges over the server's: maps by key, lists replace, exceptions add up", () => {
    const server = parseConfigText(
      "version: 1\nlicenses: { deny: [AGPL-3.0-only] }\npolicies: { LIC-01: { severity: high } }\n" +
        "exceptions: [{ policy: LIC-03, path: 'vendor/**', reason: vendored, granted_by: ops, expires: 2030-01-01 }]\n",
      "server.yml",
    );
    const repo = parseConfigText(
      "version: 1\nlicenses: { deny: [SSPL-1.0] }\npolicies: { LIC-01: { blocking: true } }\nrisk: { threshold: 10 }\n" +
        "exceptions: [{ policy: LIC-02, package: a@^1, reason: cleared, granted_by: dana, expires: 2030-01-01 }]\n",
      "repo.yml",
    );
    const merged = mergeConfig(server, repo);
    expect(merged.licenses?.deny).toEqual(["SSPL-1.0"]);
    expect(merged.policies?.["LIC-01"]).toEqual({ severity: "high", blocking: true });
    expect(merged.risk?.threshold).toBe(10);
    expect(merged.exceptions?.map((e) => e.policy)).toEqual(["LIC-03", "LIC-02"]);
  });

  it("the effective configuration takes each policy's file as its default, and notes ids with no file", () => {
    const policies = loadPolicies(BUNDLED_POLICIES_DIR);
    const file = parseConfigText(
      "version: 1\npolicies: { LIC-01: { blocking: true }, SEC-05: { enabled: false }, XYZ-01: { blocking: true } }\n",
      "gate.yml",
    );
    const config = effectiveConfig(file, policies, { riskThreshold: 30, sources: ["gate.yml"] });
    expect(config.policies["LIC-01"]).toMatchObject({
      blocking: true,
      severity: "medium",
      configured: { blocking: true },
    });
    expect(config.policies["LIC-02"]).toMatchObject({
      blocking: true,
      severity: "high",
      enabled: true,
      configured: {},
    });
    expect(config.policies["SEC-05"]?.enabled).toBe(false);
    expect(config.unknownPolicies).toEqual(["XYZ-01"]);
    expect(config.risk.threshold).toBe(30);
    expect(config.licenses.runtime).toMatchObject({ unknown: "block", not_allowed: "warn" });
    expect(config.licenses.development).toMatchObject({ unknown: "warn", not_allowed: "warn" });
  });
});
