import { describe, expect, it } from "vitest";
import { applyConfig } from "../../src/gate-file/apply.js";
import { effectiveConfig } from "../../src/gate-file/effective.js";
import { parseConfigText } from "../../src/gate-file/load.js";
import type { Finding } from "../../src/domain/finding.js";
import { loadPolicies } from "../../src/policy/load-policies.js";
import { BUNDLED_POLICIES_DIR } from "../../src/package-paths.js";

const POLICIES = loadPolicies(BUNDLED_POLICIES_DIR);

function config(yaml: string, policies = POLICIES) {
  return effectiveConfig(parseConfigText(`version: 1\n${yaml}`, "gate.yml"), policies, {
    riskThreshold: 30,
    sources: ["gate.yml"],
  });
}

const lic02 = (version: string): Finding => ({
  specialty: "licensing",
  policy: "LIC-02",
  severity: "high",
  blocking: true,
  needs_more_context: false,
  file: "package.json",
  line: 12,
  message: `gpl-chart-lib@${version} is licensed GPL-3.0-only`,
  source: "detector",
  detector: "dependency-licenses",
  package: { name: "gpl-chart-lib", version },
});

const lic01: Finding = { ...lic02("^1.0.0"), policy: "LIC-01", severity: "medium", blocking: false, message: "note" };
const sec05: Finding = {
  specialty: "security",
  policy: "SEC-05",
  severity: "medium",
  blocking: false,
  needs_more_context: false,
  file: "src/vendor/md5.ts",
  line: 3,
  message: "MD5",
  source: "detector",
  detector: "weak-crypto",
};

const EXCEPTION =
  "exceptions:\n  - { policy: LIC-02, package: 'gpl-chart-lib@^1', reason: legal cleared 1.x (LEGAL-12), granted_by: dana, expires: 2027-06-30 }\n";

describe("applyConfig: the configuration over the detectors' findings", () => {
  it("a raised policy blocks; a lowered one does not; the front matter is the default", () => {
    expect(applyConfig([lic01], config(""), "2026-11-30")[0]?.blocking).toBe(false);
    expect(
      applyConfig([lic01], config("policies: { LIC-01: { blocking: true, severity: high } }"), "2026-11-30")[0],
    ).toMatchObject({ blocking: true, severity: "high" });
    expect(
      applyConfig([lic02("^2.0.0")], config("policies: { LIC-02: { blocking: false } }"), "2026-11-30")[0],
    ).toMatchObject({ blocking: false });
  });

  it("editing a policy file's front matter raises what its detectors find", () => {
    const raised = POLICIES.map((p) => (p.id === "SEC-05" ? { ...p, blocking: true, severity: "high" as const } : p));
    expect(applyConfig([sec05], config("", raised), "2026-11-30")[0]).toMatchObject({
      blocking: true,
      severity: "high",
    });
  });

  it("a policy with no file, or disabled, is not enforced", () => {
    const withoutLic02 = POLICIES.filter((p) => p.id !== "LIC-02");
    expect(applyConfig([lic02("^1.0.0")], config("", withoutLic02), "2026-11-30")).toEqual([]);
    expect(applyConfig([sec05], config("policies: { SEC-05: { enabled: false } }"), "2026-11-30")).toEqual([]);
  });

  it("an exception for pkg@^1 clears LIC-02 for 1.x, not for 2.0, and the finding names it", () => {
    const cfg = config(EXCEPTION);
    const [cleared] = applyConfig([lic02("^1.4.0")], cfg, "2026-11-30");
    expect(cleared).toMatchObject({
      blocking: false,
      severity: "low",
      exception: { policy: "LIC-02", package: "gpl-chart-lib@^1", granted_by: "dana", status: "applied" },
    });
    expect(cleared?.message).toMatch(/^Cleared by exception \(gpl-chart-lib@\^1, granted by dana, until 2027-06-30/);
    expect(applyConfig([lic02("1.9.3")], cfg, "2026-11-30")[0]?.blocking).toBe(false);
    for (const v of ["2.0.0", "^2.0.0", ">=1.0.0", "*"]) {
      const [kept] = applyConfig([lic02(v)], cfg, "2026-11-30");
      expect(kept?.blocking, v).toBe(true);
      expect(kept?.exception, v).toBeUndefined();
    }
    // Another policy of the same package is not covered.
    expect(applyConfig([{ ...lic01, blocking: true }], cfg, "2026-11-30")[0]?.blocking).toBe(true);
  });

  it("an expired exception no longer applies, and says so", () => {
    const cfg = config(EXCEPTION);
    expect(applyConfig([lic02("^1.4.0")], cfg, "2027-06-30")[0]?.blocking).toBe(false); // its last day
    const [kept] = applyConfig([lic02("^1.4.0")], cfg, "2027-07-01");
    expect(kept).toMatchObject({ blocking: true, exception: { status: "expired", expires: "2027-06-30" } });
    expect(kept?.message).toMatch(/has expired and no longer applies/);
  });

  it("a path exception covers the files its glob matches", () => {
    const cfg = config(
      "exceptions: [{ policy: SEC-05, path: 'src/vendor/**', reason: vendored checksum code, granted_by: sec-team, expires: 2030-01-01 }]",
    );
    expect(applyConfig([sec05], cfg, "2026-11-30")[0]?.exception?.status).toBe("applied");
    expect(applyConfig([{ ...sec05, file: "src/app/md5.ts" }], cfg, "2026-11-30")[0]?.exception).toBeUndefined();
  });
});
