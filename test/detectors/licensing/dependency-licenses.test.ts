import { describe, expect, it } from "vitest";
import { dependencyLicensesDetector } from "../../../src/detectors/licensing/dependency-licenses.js";
import type { LicenseResolver } from "../../../src/domain/license-resolver.js";
import { createOfflineResolver } from "../../../src/licenses/offline-resolver.js";
import { buildPr, detectContext, headFiles, type FileSpec } from "../pr-builder.js";
import { TEST_REGISTRY } from "./test-registry.js";

function depsHunk(lines: string[], section = "dependencies"): string {
  return [
    `@@ -8,3 +8,${3 + lines.length} @@`,
    `   "${section}": {`,
    ...lines.map((l) => `+    ${l},`),
    '     "zod": "^3.23.8"',
  ].join("\n");
}

async function run(files: FileSpec[], options: { head?: Record<string, string>; licenses?: LicenseResolver } = {}) {
  const pr = buildPr({ files });
  const ctx = detectContext(pr, {
    head: headFiles(options.head ?? {}),
    licenses: options.licenses ?? createOfflineResolver(TEST_REGISTRY),
  });
  return dependencyLicensesDetector.detect(ctx);
}

describe("dependencyLicensesDetector", () => {
  it("raises a blocking LIC-02 for a GPL runtime dependency, on the added line", async () => {
    const findings = await run([{ filename: "package.json", patch: depsHunk(['"gpl-chart-lib": "^2.1.0"']) }]);
    expect(findings).toEqual([
      expect.objectContaining({
        policy: "LIC-02",
        blocking: true,
        severity: "high",
        file: "package.json",
        line: 9,
        specialty: "licensing",
        source: "detector",
        detector: "dependency-licenses",
      }),
    ]);
    expect(findings[0]?.message).toMatch(/gpl-chart-lib@\^2\.1\.0.*runtime.*GPL-3\.0-only/);
  });

  it("raises LIC-02 when every choice carries copyleft (AND), and for deprecated ids", async () => {
    const findings = await run([
      { filename: "package.json", patch: depsHunk(['"mixed-kit": "1.0.0"', '"old-gpl": "3.1.0"']) },
    ]);
    expect(findings.map((f) => [f.policy, f.line])).toEqual([
      ["LIC-02", 9],
      ["LIC-02", 10],
    ]);
    expect(findings[1]?.message).toContain("GPL-2.0-or-later");
  });

  it("raises nothing for MIT OR GPL-3.0-only, nor for an allow-listed licence", async () => {
    const findings = await run([
      { filename: "package.json", patch: depsHunk(['"dual-grid": "^7.2.0"', '"express": "^4.19.2"']) },
    ]);
    expect(findings).toEqual([]);
  });

  it("raises only a non-blocking LIC-01 for a GPL dev dependency", async () => {
    const findings = await run([
      { filename: "package.json", patch: depsHunk(['"gpl-chart-lib": "^2.1.0"'], "devDependencies") },
    ]);
    expect(findings).toEqual([expect.objectContaining({ policy: "LIC-01", blocking: false, severity: "medium" })]);
    expect(findings[0]?.message).toMatch(/dev dependency.*not on the allow-list/);
  });

  it("uses the head file to tell a dev dependency when the hunk does not show its section", async () => {
    const patch = [
      "@@ -30,2 +30,3 @@",
      '     "eslint": "^9.8.0",',
      '+    "gpl-chart-lib": "^2.1.0",',
      '     "vitest": "^2.0.5"',
    ].join("\n");
    const head = JSON.stringify({
      dependencies: { zod: "3" },
      devDependencies: { eslint: "9", "gpl-chart-lib": "^2.1.0", vitest: "2" },
    });
    expect(
      (await run([{ filename: "package.json", patch }], { head: { "package.json": head } })).map((f) => f.policy),
    ).toEqual(["LIC-01"]);
    // Without the head file the section cannot be told: runtime, so LIC-02.
    expect((await run([{ filename: "package.json", patch }])).map((f) => f.policy)).toEqual(["LIC-02"]);
  });

  it("raises LIC-01 for an unknown, unparseable or LGPL licence", async () => {
    const findings = await run([
      {
        filename: "package.json",
        patch: depsHunk(['"no-such-pkg": "1.0.0"', '"weird": "2.0.0"', '"lgpl-widget": "1.0.0"']),
      },
    ]);
    expect(findings.map((f) => f.policy)).toEqual(["LIC-01", "LIC-01", "LIC-01"]);
    expect(findings[0]?.message).toContain("no known licence");
    expect(findings[1]?.message).toContain("not an SPDX expression");
    expect(findings[2]?.message).toContain("LGPL-2.1-only");
  });

  it("raises nothing for a version-only bump of an allow-listed dependency", async () => {
    const patch = [
      "@@ -9,3 +9,3 @@",
      '   "dependencies": {',
      '-    "express": "^4.19.2",',
      '+    "express": "^4.21.1",',
    ].join("\n");
    expect(await run([{ filename: "package.json", patch }])).toEqual([]);
  });

  it("downgrades a bump of an existing GPL runtime dependency to LIC-01, but not a move into runtime", async () => {
    const bump = [
      "@@ -9,3 +9,3 @@",
      '   "dependencies": {',
      '-    "gpl-chart-lib": "^2.0.0",',
      '+    "gpl-chart-lib": "^2.1.0",',
    ].join("\n");
    expect((await run([{ filename: "package.json", patch: bump }])).map((f) => f.policy)).toEqual(["LIC-01"]);
    // Only the registry's answer for the old version can downgrade it: a failed lookup leaves the block.
    const oldVersionDown: LicenseResolver = {
      lookup: async (_e, _n, version) =>
        version === "^2.0.0"
          ? { status: "failed", registry: "npm registry x", reason: "answered 502 (3 attempts)" }
          : { status: "found", license: "GPL-3.0-only" },
    };
    expect(
      (await run([{ filename: "package.json", patch: bump }], { licenses: oldVersionDown })).map((f) => f.policy),
    ).toEqual(["LIC-02"]);
    const move = [
      "@@ -9,6 +9,6 @@",
      '   "dependencies": {',
      '+    "gpl-chart-lib": "^2.1.0",',
      '     "zod": "^3.23.8"',
      "   },",
      '   "devDependencies": {',
      '-    "gpl-chart-lib": "^2.1.0",',
    ].join("\n");
    expect((await run([{ filename: "package.json", patch: move }])).map((f) => f.policy)).toEqual(["LIC-02"]);
  });

  it("reads requirements, go.mod and Cargo.toml in one pull request", async () => {
    const findings = await run([
      { filename: "requirements.txt", patch: "@@ -1,1 +1,3 @@\n flask==3.0.3\n+requests==2.32.3\n+unknownpkg==0.1" },
      { filename: "go.mod", patch: "@@ -5,2 +5,3 @@\n require (\n+\tgithub.com/acme/gplkit v0.3.1 // indirect\n )" },
      { filename: "Cargo.toml", patch: '@@ -5,2 +5,4 @@\n [dependencies]\n+copyleft-core = "2.0"\n+serde = "1.0"' },
      { filename: "requirements-dev.txt", patch: "@@ -1,1 +1,2 @@\n pytest==8.2.0\n+unknowndev==1.0" },
    ]);
    expect(findings.map((f) => [f.file, f.policy, f.line])).toEqual([
      ["requirements.txt", "LIC-01", 3],
      ["go.mod", "LIC-02", 6],
      ["Cargo.toml", "LIC-02", 6],
      ["requirements-dev.txt", "LIC-01", 2],
    ]);
  });

  it("a failed lookup is not an unknown licence: no LIC-01 (the review goes to a person for it), and skips removed manifests", async () => {
    const failed: LicenseResolver = {
      lookup: async () => ({ status: "failed", registry: "npm registry x", reason: "answered 503 (3 attempts)" }),
    };
    const throwing: LicenseResolver = { lookup: async () => Promise.reject(new Error("registry down")) };
    for (const licenses of [failed, throwing]) {
      const findings = await run([{ filename: "package.json", patch: depsHunk(['"express": "^4.19.2"']) }], {
        licenses,
      });
      expect(findings).toEqual([]);
    }
    const removed = await run([
      {
        filename: "package.json",
        status: "removed",
        patch: '@@ -1,2 +0,0 @@\n-{\n-  "dependencies": { "gpl-chart-lib": "1" }',
      },
    ]);
    expect(removed).toEqual([]);
  });

  it("does not throw on a manifest without a patch, or on garbage", async () => {
    expect(
      await run([{ filename: "package.json" }, { filename: "Cargo.toml", patch: "@@ garbage\n+[[[\n+= = =" }]),
    ).toEqual([]);
  });
});
