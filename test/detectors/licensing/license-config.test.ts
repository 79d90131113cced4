import { describe, expect, it } from "vitest";
import { effectiveConfig, type LicenseRules } from "../../../src/config/effective.js";
import { parseConfigText } from "../../../src/config/load.js";
import { dependencyLicensesDetector } from "../../../src/detectors/licensing/dependency-licenses.js";
import { createOfflineResolver } from "../../../src/licenses/offline-resolver.js";
import { buildPr, detectContext, headFiles } from "../pr-builder.js";

const REGISTRY = {
  "npm:gpl-chart-lib": { license: "GPL-3.0-only" },
  "npm:lgpl-widget": { license: "LGPL-2.1-only" },
  "npm:mpl-parser": { license: "MPL-2.0" },
  "npm:express": { license: "MIT" },
  "npm:eupl-thing": { license: "EUPL-1.2" },
};

/** The licence rules a configuration text gives. */
function rules(yaml: string): LicenseRules {
  return effectiveConfig(parseConfigText(`version: 1\n${yaml}`, "gate.yml"), [], { riskThreshold: 30, sources: [] })
    .licenses;
}

/** The findings for one added dependency line in `dependencies` (or `devDependencies`). */
async function judge(dep: string, licenseRules: LicenseRules, section = "dependencies") {
  const patch = [`@@ -8,3 +8,4 @@`, `   "${section}": {`, `+    ${dep},`, '     "zod": "^3.23.8"'].join("\n");
  const ctx = detectContext(buildPr({ files: [{ filename: "package.json", patch }] }), {
    head: headFiles({}),
    licenses: createOfflineResolver(REGISTRY),
    licenseRules,
  });
  return (await dependencyLicensesDetector.detect(ctx)).map((f) => ({ policy: f.policy, blocking: f.blocking }));
}

describe("licence rules from the configuration", () => {
  it("an allowed licence passes: a team allows MPL-2.0 its lawyers cleared", async () => {
    expect(await judge('"mpl-parser": "^1.0.0"', rules("licenses: {}"))).toEqual([
      { policy: "LIC-01", blocking: false },
    ]);
    expect(await judge('"mpl-parser": "^1.0.0"', rules("licenses:\n  allow: [MIT, MPL-2.0]\n"))).toEqual([]);
  });

  it("a licence allowed by name clears LIC-02 too (a cleared copyleft licence); a prefix works", async () => {
    expect(await judge('"gpl-chart-lib": "^2.0.0"', rules("licenses:\n  allow: [MIT, GPL-3.0-only]\n"))).toEqual([]);
    expect(await judge('"eupl-thing": "^1.0.0"', rules("licenses:\n  allow: [MIT, EUPL-*]\n"))).toEqual([]);
  });

  it("a denied licence blocks (LIC-01), in runtime and development dependencies alike", async () => {
    const deny = rules("licenses:\n  deny: [LGPL-*]\n");
    expect(await judge('"lgpl-widget": "^1.0.0"', deny)).toEqual([{ policy: "LIC-01", blocking: true }]);
    expect(await judge('"lgpl-widget": "^1.0.0"', deny, "devDependencies")).toEqual([
      { policy: "LIC-01", blocking: true },
    ]);
    // A deny for development dependencies only leaves runtime ones to the other rules.
    const devOnly = rules("licenses:\n  development: { deny: [LGPL-2.1-only] }\n");
    expect(await judge('"lgpl-widget": "^1.0.0"', devOnly, "devDependencies")).toEqual([
      { policy: "LIC-01", blocking: true },
    ]);
    expect(await judge('"lgpl-widget": "^1.0.0"', devOnly)).toEqual([{ policy: "LIC-01", blocking: false }]);
  });

  it("an unknown licence (or a package the registry does not know) blocks when configured to, per kind", async () => {
    // The shipped default: a new runtime dependency nobody can name a licence for goes to a person.
    expect(await judge('"private-thing": "^1.0.0"', rules(""))).toEqual([{ policy: "LIC-01", blocking: true }]);
    expect(await judge('"private-thing": "^1.0.0"', rules(""), "devDependencies")).toEqual([
      { policy: "LIC-01", blocking: false },
    ]);
    expect(await judge('"private-thing": "^1.0.0"', rules("licenses: { runtime: { unknown: warn } }"))).toEqual([
      { policy: "LIC-01", blocking: false },
    ]);
    const strictDev = rules("licenses: { development: { unknown: block } }");
    expect(await judge('"private-thing": "^1.0.0"', strictDev, "devDependencies")).toEqual([
      { policy: "LIC-01", blocking: true },
    ]);
    expect(await judge('"private-thing": "^1.0.0"', rules("licenses: { runtime: { unknown: allow } }"))).toEqual([]);
  });

  it("a licence neither allowed nor denied does what not_allowed says", async () => {
    const block = rules("licenses: { runtime: { not_allowed: block } }");
    expect(await judge('"lgpl-widget": "^1.0.0"', block)).toEqual([{ policy: "LIC-01", blocking: true }]);
    expect(await judge('"lgpl-widget": "^1.0.0"', block, "devDependencies")).toEqual([
      { policy: "LIC-01", blocking: false },
    ]);
  });

  it("a team's own scopes and prefixes are not checked at all", async () => {
    const own = rules('licenses: { own_packages: ["@acme/*", "acme-*"] }');
    expect(await judge('"@acme/ui": "^1.0.0"', own)).toEqual([]);
    expect(await judge('"acme-billing": "^1.0.0"', own)).toEqual([]);
    expect(await judge('"@acmecorp/ui": "^1.0.0"', own)).toEqual([{ policy: "LIC-01", blocking: true }]);
  });
});
