import { describe, expect, it } from "vitest";
import {
  DEFAULT_VULNERABILITY_RULES,
  effectiveConfig,
  type VulnerabilityRules,
} from "../../../../src/gate-file/effective.js";
import { ConfigFileError, parseConfigText } from "../../../../src/gate-file/load.js";
import { mergeConfig } from "../../../../src/gate-file/merge.js";
import { applyConfig } from "../../../../src/gate-file/apply.js";
import { vulnerableDependenciesDetector } from "../../../../src/detectors/security/vulnerable-dependencies.js";
import { BUNDLED_POLICIES_DIR } from "../../../../src/package-paths.js";
import { loadPolicies } from "../../../../src/policy/load-policies.js";
import { buildPr, detectContext, headFiles } from "../../pr-builder.js";
import { changedFile } from "./lockfile-change.js";

const POLICIES = loadPolicies(BUNDLED_POLICIES_DIR);

const rules = (deny: VulnerabilityRules["deny"]): VulnerabilityRules => ({ ...DEFAULT_VULNERABILITY_RULES, deny });

/** The detector with no advisory source at all: a deny list needs no advisory data. */
async function detect(
  files: Record<string, { text: string; added: (line: string) => boolean }>,
  deny: VulnerabilityRules["deny"],
) {
  const changes = Object.entries(files).map(([path, f]) => changedFile(path, f.text, f.added));
  const ctx = {
    ...detectContext(buildPr({ files: changes.map((c) => c.spec) }), {
      head: headFiles(Object.assign({}, ...changes.map((c) => c.head))),
    }),
    vulnerabilityRules: rules(deny),
  };
  return vulnerableDependenciesDetector.detect(ctx);
}

const pkg = (deps: Record<string, string>, dev: Record<string, string> = {}) =>
  JSON.stringify({ name: "app", dependencies: deps, devDependencies: dev }, null, 2);

describe("vulnerabilities.deny_packages", () => {
  it("blocks a denied package by name, runtime or development, without any advisory data, at its line", async () => {
    const findings = await detect(
      { "package.json": { text: pkg({ "event-stream": "3.3.6" }, { "left-pad": "1.3.0" }), added: () => true } },
      [
        { package: "event-stream", reason: "a compromised release stole wallets" },
        { package: "left-pad", reason: "unmaintained" },
      ],
    );
    expect(findings.map((f) => [f.policy, f.blocking, f.line, f.package?.name])).toEqual([
      ["SEC-07", true, 4, "event-stream"],
      ["SEC-07", true, 7, "left-pad"],
    ]);
    expect(findings[0]?.message).toBe(
      "event-stream@3.3.6 (npm, runtime dependency) is denied by vulnerabilities.deny_packages: event-stream, because a compromised release stole wallets. Remove it or choose another package; an exception for this package clears it.",
    );
    expect(findings[1]?.message).toContain("(npm, dev dependency)");
  });

  it("name globs and version ranges: only versions the range admits are denied", async () => {
    const deny = [
      { package: "@evil-scope/*", reason: "a typosquatting scope" },
      { package: "colors@>=1.4.1 <1.4.3", reason: "a sabotaged release" },
    ];
    const denied = await detect(
      { "package.json": { text: pkg({ "@evil-scope/utils": "1.0.0", colors: "1.4.2" }), added: () => true } },
      deny,
    );
    expect(denied.map((f) => f.package?.name)).toEqual(["@evil-scope/utils", "colors"]);
    const fine = await detect(
      { "package.json": { text: pkg({ colors: "1.4.0", "@good/utils": "1.0.0" }), added: () => true } },
      deny,
    );
    expect(fine).toEqual([]);
  });

  it("an ecosystem narrows an entry; a PyPI range is read the PEP 440 way", async () => {
    const deny = [
      { package: "requests@<2.20", ecosystem: "pypi", reason: "leaks Authorization on redirects" },
      { package: "requests", ecosystem: "npm", reason: "deprecated" },
    ];
    const findings = await detect(
      { "requirements.txt": { text: "flask==3.0.0\nrequests==2.19.1\n", added: (l) => l.startsWith("requests") } },
      deny,
    );
    expect(findings.map((f) => [f.package?.name, f.package?.version, f.message.includes("pypi")])).toEqual([
      ["requests", "2.19.1", true],
    ]);
    const fixed = await detect({ "requirements.txt": { text: "requests==2.31.0\n", added: () => true } }, deny);
    expect(fixed).toEqual([]);
  });

  it("a range the ecosystem cannot read denies every version (never a pass because a version could not be judged)", async () => {
    const findings = await detect({ "package.json": { text: pkg({ "event-stream": "3.3.6" }), added: () => true } }, [
      { package: "event-stream@not a range", reason: "compromised" },
    ]);
    expect(findings.map((f) => f.blocking)).toEqual([true]);
  });

  it("unchanged lines are not judged: a deny entry names what the pull request adds or changes", async () => {
    const findings = await detect(
      {
        "package.json": {
          text: pkg({ "event-stream": "3.3.6", express: "4.19.2" }),
          added: (l) => l.includes("express"),
        },
      },
      [{ package: "event-stream", reason: "compromised" }],
    );
    expect(findings).toEqual([]);
  });

  it("is configured server-wide and per repository, both lists applying; a bad entry is refused at its line", () => {
    const server = parseConfigText(
      "version: 1\nvulnerabilities:\n  deny_packages:\n    - { package: event-stream, reason: compromised }\n",
      "server.yml",
    );
    const repo = parseConfigText(
      "version: 1\nvulnerabilities:\n  fail_on: low\n  deny_packages:\n    - { package: left-pad, ecosystem: npm, reason: unmaintained }\n",
      ".github/gate.yml",
    );
    const merged = effectiveConfig(mergeConfig(server, repo), POLICIES, { riskThreshold: 30, sources: [] });
    expect(merged.vulnerabilities?.runtime.fail_on).toBe("low");
    expect(merged.vulnerabilities?.deny?.map((d) => d.package)).toEqual(["event-stream", "left-pad"]);

    const problems = (text: string) => {
      try {
        parseConfigText(text, "gate.yml");
        return [];
      } catch (error) {
        if (error instanceof ConfigFileError) return error.problems.map((p) => `${p.line}:${p.key}`);
        throw error;
      }
    };
    expect(problems("version: 1\nvulnerabilities:\n  deny_packages:\n    - { package: left-pad }\n")).toEqual([
      "4:vulnerabilities.deny_packages.0.reason",
    ]);
    expect(
      problems(
        "version: 1\nvulnerabilities:\n  deny_packages:\n    - { package: x, reason: why not, ecosystem: NPM! }\n",
      ),
    ).toEqual(["4:vulnerabilities.deny_packages.0.ecosystem"]);
  });

  it("an exception for the package clears the deny finding until it expires", async () => {
    const [finding] = await detect({ "package.json": { text: pkg({ "left-pad": "1.3.0" }), added: () => true } }, [
      { package: "left-pad", reason: "unmaintained" },
    ]);
    if (!finding) throw new Error("expected a deny finding");
    const config = effectiveConfig(
      parseConfigText(
        "version: 1\nexceptions:\n  - { policy: SEC-07, package: left-pad@1.x, reason: vendored copy is patched, granted_by: alice, expires: 2026-12-31 }\n",
        "gate.yml",
      ),
      POLICIES,
      { riskThreshold: 30, sources: [] },
    );
    expect(applyConfig([finding], config, "2026-12-02")[0]).toMatchObject({
      blocking: false,
      exception: { status: "applied", granted_by: "alice" },
    });
    expect(applyConfig([finding], config, "2027-01-01")[0]).toMatchObject({
      blocking: true,
      exception: { status: "expired" },
    });
  });
});
