import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { osvApiRecords } from "../../../../src/advisories/osv-api-records.js";
import { advisorySourceOver } from "../../../../src/advisories/record-source.js";
import { recordingAdvisoryFailures } from "../../../../src/advisories/recording-failures.js";
import type { VulnerabilityRules } from "../../../../src/gate-file/effective.js";
import { vulnerableDependenciesDetector } from "../../../../src/detectors/security/vulnerable-dependencies.js";
import type { LookupFailure } from "../../../../src/domain/license-resolver.js";
import { FAST_RETRY } from "../../../fakes/registry.js";
import { startFakeOsv, type FakeOsv } from "../../../fakes/osv-api.js";
import { ALL_RECORDS } from "../../../advisories/test-records.js";
import { buildPr, detectContext, headFiles, type FileSpec } from "../../pr-builder.js";
import { changedFile } from "./lockfile-change.js";

let osv: FakeOsv;
beforeAll(async () => {
  osv = await startFakeOsv();
  osv.add(...ALL_RECORDS);
});
afterAll(() => osv.close());
beforeEach(() => {
  osv.mode = "ok";
  osv.requests.length = 0;
});

/** Runs the detector over the live client talking to the loopback fake; failures as the detect node records them. */
async function detect(changes: { spec: FileSpec; head: Record<string, string> }[], rules?: VulnerabilityRules) {
  const failures: LookupFailure[] = [];
  const live = advisorySourceOver(osvApiRecords({ baseUrl: osv.url, timeoutMs: 300, retry: FAST_RETRY }));
  const ctx = {
    ...detectContext(buildPr({ files: changes.map((c) => c.spec) }), {
      head: headFiles(Object.assign({}, ...changes.map((c) => c.head))),
    }),
    advisories: recordingAdvisoryFailures(live, failures),
    ...(rules ? { vulnerabilityRules: rules } : {}),
  };
  return { findings: await vulnerableDependenciesDetector.detect(ctx), failures };
}

const pkg = (deps: Record<string, string>, dev: Record<string, string> = {}) =>
  JSON.stringify({ name: "app", dependencies: deps, devDependencies: dev }, null, 2);

describe("SEC-07 against OSV (loopback fake, real HTTP client)", () => {
  it("an added vulnerable npm dependency: blocking, naming the advisory, its aliases, the range and the fix, on its line", async () => {
    const { findings } = await detect([
      changedFile("package.json", pkg({ lodash: "4.17.20" }), (l) => l.includes("lodash")),
    ]);
    expect(findings).toEqual([
      expect.objectContaining({
        policy: "SEC-07",
        specialty: "security",
        severity: "high",
        blocking: true,
        file: "package.json",
        line: 4,
        package: { name: "lodash", version: "4.17.20" },
        advisories: [{ id: "GHSA-test-lodash-0001", aliases: ["CVE-2099-0001"] }],
      }),
    ]);
    expect(findings[0]?.message).toBe(
      "lodash@4.17.20 (npm, runtime dependency) is affected by an advisory: GHSA-test-lodash-0001 (CVE-2099-0001), high (GitHub's rating): Command injection through a template helper in lodash; affected <4.17.21, fixed in 4.17.21. Upgrade to 4.17.21.",
    );
  });

  it("a range without a lockfile is judged by the lowest version it admits, and says so", async () => {
    const { findings } = await detect([
      changedFile("package.json", pkg({ lodash: "^4.17.0" }), (l) => l.includes("lodash")),
    ]);
    expect(findings[0]?.message).toMatch(
      /^lodash@4\.17\.0 \(npm, runtime dependency, judged by 4\.17\.0, the lowest version \^4\.17\.0 admits\)/,
    );
  });

  it("a transitive one from package-lock.json, yarn.lock and pnpm-lock.yaml names the direct dependency that brought it in", async () => {
    const lock = JSON.stringify(
      {
        lockfileVersion: 3,
        packages: {
          "": { dependencies: { mkdirp: "^0.5.5" } },
          "node_modules/mkdirp": { version: "0.5.5", dependencies: { minimist: "^1.2.5" } },
          "node_modules/minimist": { version: "1.2.5" },
        },
      },
      null,
      2,
    );
    const yarn =
      '# yarn lockfile v1\n\nminimist@^1.2.5:\n  version "1.2.5"\n\nmkdirp@^0.5.5:\n  version "0.5.5"\n  dependencies:\n    minimist "^1.2.5"\n';
    const pnpm =
      "lockfileVersion: '9.0'\n\nimporters:\n  .:\n    dependencies:\n      mkdirp:\n        specifier: ^0.5.5\n        version: 0.5.5\n\npackages:\n\n  minimist@1.2.5:\n    resolution: {integrity: x}\n\n  mkdirp@0.5.5:\n    resolution: {integrity: y}\n\nsnapshots:\n\n  mkdirp@0.5.5:\n    dependencies:\n      minimist: 1.2.5\n";
    for (const change of [
      changedFile("package-lock.json", lock, (l) => l.includes("1.2.5")),
      {
        ...changedFile("yarn.lock", yarn, (l) => l.includes("1.2.5")),
        head: { "yarn.lock": yarn, "package.json": pkg({ mkdirp: "^0.5.5" }) },
      },
      changedFile("pnpm-lock.yaml", pnpm, (l) => l.startsWith("  minimist@")),
    ]) {
      const { findings } = await detect([change]);
      expect(findings, change.spec.filename).toEqual([
        expect.objectContaining({ policy: "SEC-07", severity: "critical", blocking: true, file: change.spec.filename }),
      ]);
      expect(findings[0]?.message).toMatch(
        /^minimist@1\.2\.5 \(npm, runtime dependency, brought in by mkdirp\) is affected by an advisory: GHSA-test-minimist-0002.*Upgrade to 1\.2\.6, or upgrade mkdirp\.$/,
      );
    }
  });

  it("a PyPI pin, a Go module and a Cargo crate each raise SEC-07 with the advisory id and fixed version", async () => {
    const cargo =
      '[[package]]\nname = "smallvec"\nversion = "1.6.0"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n';
    const { findings } = await detect(
      [
        changedFile("requirements.txt", "PyYAML==5.3.1\n", () => true),
        changedFile("go.mod", "module x\n\nrequire golang.org/x/net v0.16.0\n", (l) => l.startsWith("require")),
        changedFile("Cargo.lock", cargo, () => true),
      ],
      { runtime: { fail_on: "moderate" }, development: { fail_on: "never" } },
    );
    expect(
      findings.map((f) => [
        f.file,
        f.blocking,
        f.advisories?.[0]?.id,
        /Upgrade to ([^ .,]+(?:\.[0-9]+)*)/.exec(f.message)?.[1],
      ]),
    ).toEqual([
      ["requirements.txt", true, "PYSEC-2099-10", "5.4"],
      ["go.mod", true, "GO-2099-0020", "0.17.0"],
      ["Cargo.lock", true, "RUSTSEC-2099-0030", "1.6.1"],
    ]);
    expect(findings[1]?.message).toContain("high (no severity given, counted as high)");
  });

  it("an unaffected version, a fixing bump and a dev-only dependency do not block", async () => {
    const bump = {
      spec: {
        filename: "package.json",
        patch: '@@ -3,3 +3,3 @@\n   "dependencies": {\n-    "lodash": "4.17.20"\n+    "lodash": "4.17.21"\n   },',
      },
      head: { "package.json": pkg({ lodash: "4.17.21" }) },
    };
    expect((await detect([bump])).findings).toEqual([]);
    const clean = await detect([
      changedFile("package.json", pkg({ minimist: "1.2.6" }), (l) => l.includes("minimist")),
    ]);
    expect(clean.findings).toEqual([]);
    const dev = await detect([
      changedFile("package.json", pkg({}, { lodash: "4.17.20" }), (l) => l.includes("lodash")),
    ]);
    expect(dev.findings).toEqual([expect.objectContaining({ policy: "SEC-07", blocking: false, severity: "high" })]);
    expect(dev.findings[0]?.message).toMatch(
      /dev dependency.*A note, not a block: vulnerabilities\.development\.fail_on is never\.$/,
    );
  });

  it("below fail_on is a note; a lower fail_on blocks it; a dev threshold can block too", async () => {
    const tiny = changedFile("package.json", pkg({ "tiny-helper": "1.0.0" }), (l) => l.includes("tiny"));
    const low = await detect([tiny]);
    expect(low.findings).toEqual([expect.objectContaining({ blocking: false, severity: "low" })]);
    expect(low.findings[0]?.message).toMatch(/below vulnerabilities\.fail_on \(high\)\.$/);
    expect(
      (await detect([tiny], { runtime: { fail_on: "low" }, development: { fail_on: "never" } })).findings[0]?.blocking,
    ).toBe(true);
    const dev = changedFile("package.json", pkg({}, { lodash: "4.17.20" }), (l) => l.includes("lodash"));
    expect(
      (await detect([dev], { runtime: { fail_on: "high" }, development: { fail_on: "high" } })).findings[0]?.blocking,
    ).toBe(true);
  });

  it("OSV answering 500 or hanging: no finding, and the failure is recorded naming OSV and the error", async () => {
    for (const mode of ["fail", "hang"] as const) {
      osv.mode = mode;
      const { findings, failures } = await detect([
        changedFile("package.json", pkg({ lodash: "4.17.20" }), (l) => l.includes("lodash")),
      ]);
      expect(findings).toEqual([]);
      expect(failures).toEqual([
        {
          ecosystem: "npm",
          name: "lodash",
          version: "4.17.20",
          lookup: "advisories",
          registry: `OSV ${osv.url}`,
          reason:
            mode === "fail" ? "querybatch answered 500 (3 attempts)" : "querybatch timed out after 300 ms (3 attempts)",
        },
      ]);
    }
  });

  it("asks nothing for a PR that changes no manifest or lockfile", async () => {
    const { findings } = await detect([{ spec: { filename: "src/a.ts", patch: "@@ -1 +1 @@\n-a\n+b" }, head: {} }]);
    expect(findings).toEqual([]);
    expect(osv.requests).toEqual([]);
  });
});
