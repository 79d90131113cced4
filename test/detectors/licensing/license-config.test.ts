import { describe, expect, it } from "vitest";
import { effectiveConfig, type LicenseRules } from "../../../src/gate-file/effective.js";
import { parseConfigText } from "../../../src/gate-file/load.js";
import { dependencyLicensesDetector } from "../../../src/detectors/licensing/dependency-licenses.js";
import { createOfflineResolver } from "../../../src/licenses/offline-resolver.js";
import { buildPr, detectContext, headFiles } from "../pr-builder.js";
import { TEST_REGISTRY } from "./test-registry.js";

/** The licence rules a configuration text gives. */
function rules(yaml: string): LicenseRules {
  return effectiveConfig(parseConfigText(`version: 1\n${yaml}`, "gate.yml"), [], { riskThreshold: 30, sources: [] })
    .licenses;
}

/**
 * What the detector says of one added `package.json` dependency line under these rules: each finding
 * as "LIC-01 blocks" or "LIC-01 warns", or "passes" when there is none.
 */
async function judge(dep: string, yaml: string, section: "dependencies" | "devDependencies") {
  const patch = [`@@ -8,3 +8,4 @@`, `   "${section}": {`, `+    ${dep},`, '     "zod": "^3.23.8"'].join("\n");
  const ctx = detectContext(buildPr({ files: [{ filename: "package.json", patch }] }), {
    head: headFiles({}),
    licenses: createOfflineResolver(TEST_REGISTRY),
    licenseRules: rules(yaml),
  });
  const findings = await dependencyLicensesDetector.detect(ctx);
  return findings.map((f) => `${f.policy} ${f.blocking ? "blocks" : "warns"}`).join(", ") || "passes";
}

const DEPS = "dependencies";
const DEV = "devDependencies";
const MPL = '"mpl-parser": "^1.0.0"';
const LGPL = '"lgpl-widget": "^1.0.0"';
const UNKNOWN = '"private-thing": "^1.0.0"';
const ALLOW_GPL = "licenses:\n  allow: [MIT, GPL-3.0-only]\n";
const DENY_LGPL = "licenses:\n  deny: [LGPL-*]\n";
const DENY_LGPL_IN_DEV = "licenses:\n  development: { deny: [LGPL-2.1-only] }\n";
const NOT_ALLOWED_BLOCKS = "licenses: { runtime: { not_allowed: block } }";
const OWN = 'licenses: { own_packages: ["@acme/*", "acme-*"] }';

/** [what it shows, the configuration's licence rules, the added dependency, its section, the verdict] */
const CASES: [string, string, string, typeof DEPS | typeof DEV, string][] = [
  ["MPL-2.0 is not allowed by default", "licenses: {}", MPL, DEPS, "LIC-01 warns"],
  ["a team allows MPL-2.0 its lawyers cleared", "licenses:\n  allow: [MIT, MPL-2.0]\n", MPL, DEPS, "passes"],
  ["a copyleft licence allowed by name clears LIC-02 too", ALLOW_GPL, '"gpl-chart-lib": "^2.0.0"', DEPS, "passes"],
  ["an allowed prefix works", "licenses:\n  allow: [MIT, EUPL-*]\n", '"eupl-thing": "^1.0.0"', DEPS, "passes"],
  ["a denied licence blocks a runtime dependency", DENY_LGPL, LGPL, DEPS, "LIC-01 blocks"],
  ["a denied licence blocks a development dependency", DENY_LGPL, LGPL, DEV, "LIC-01 blocks"],
  ["a development-only deny blocks development dependencies", DENY_LGPL_IN_DEV, LGPL, DEV, "LIC-01 blocks"],
  ["a development-only deny leaves runtime ones to other rules", DENY_LGPL_IN_DEV, LGPL, DEPS, "LIC-01 warns"],
  ["by default an unknown runtime licence goes to a person", "", UNKNOWN, DEPS, "LIC-01 blocks"],
  ["by default an unknown development licence warns", "", UNKNOWN, DEV, "LIC-01 warns"],
  ["runtime unknown: warn", "licenses: { runtime: { unknown: warn } }", UNKNOWN, DEPS, "LIC-01 warns"],
  ["development unknown: block", "licenses: { development: { unknown: block } }", UNKNOWN, DEV, "LIC-01 blocks"],
  ["runtime unknown: allow", "licenses: { runtime: { unknown: allow } }", UNKNOWN, DEPS, "passes"],
  ["runtime not_allowed: block blocks a runtime dependency", NOT_ALLOWED_BLOCKS, LGPL, DEPS, "LIC-01 blocks"],
  ["runtime not_allowed: block leaves development ones warned", NOT_ALLOWED_BLOCKS, LGPL, DEV, "LIC-01 warns"],
  ["a team's own scope is not checked", OWN, '"@acme/ui": "^1.0.0"', DEPS, "passes"],
  ["a team's own prefix is not checked", OWN, '"acme-billing": "^1.0.0"', DEPS, "passes"],
  ["a scope that only starts like an own one is checked", OWN, '"@acmecorp/ui": "^1.0.0"', DEPS, "LIC-01 blocks"],
];

describe("licence rules from the configuration", () => {
  it.each(CASES)("%s", async (_what, yaml, dep, section, verdict) => {
    expect(await judge(dep, yaml, section)).toBe(verdict);
  });
});
