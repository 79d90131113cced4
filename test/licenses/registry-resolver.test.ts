import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dependencyLicensesDetector } from "../../src/detectors/licensing/dependency-licenses.js";
import { createCratesResolver } from "../../src/ecosystems/cargo/crates-resolver.js";
import { createGoResolver, goLicenseExpression } from "../../src/ecosystems/go/go-resolver.js";
import { buildPr, detectContext } from "../detectors/pr-builder.js";
import { FAST_RETRY, startFakeRegistry, type FakeRegistry } from "../fakes/registry.js";
import { expectFailsClosed, liveLicenses } from "./live-licenses.js";
import { reviewFixture, tempDir, testGate } from "../helpers/gate.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";

const GO_MOD =
  "@@ -3,4 +3,5 @@ go 1.22\n require (\n \tgithub.com/pkg/errors v0.9.1\n+\tgithub.com/acme/gplkit v1.4.0\n )";
const CARGO = '@@ -5,2 +5,3 @@\n [dependencies]\n+copyleft-core = "2.0.1"\n serde = "1.0"';

let reg: FakeRegistry;
beforeAll(async () => {
  reg = await startFakeRegistry();
  reg.crates.set("copyleft-core/2.0.1", { version: { num: "2.0.1", license: "GPL-3.0-or-later" } });
  reg.crates.set("copyleft-core", {
    crate: { max_stable_version: "2.0.1" },
    versions: [{ num: "2.0.1", license: "GPL-3.0-or-later" }],
  });
  reg.crates.set("serde", {
    crate: { max_stable_version: "1.0.197", newest_version: "1.1.0-beta.1" },
    versions: [
      { num: "1.1.0-beta.1", license: "MIT" },
      { num: "1.0.197", license: "MIT OR Apache-2.0" },
    ],
  });
  reg.crates.set("no-licence", { crate: { max_stable_version: "0.1.0" }, versions: [{ num: "0.1.0", license: null }] });
  reg.go.set("github.com/acme/gplkit/versions/v1.4.0", { licenses: ["AGPL-3.0-only"] });
  reg.go.set("github.com/pkg/errors", {
    versions: [{ versionKey: { version: "v0.8.0" } }, { versionKey: { version: "v0.9.1" }, isDefault: true }],
  });
  reg.go.set("github.com/pkg/errors/versions/v0.9.1", { licenses: ["BSD-2-Clause"] });
  reg.go.set("github.com/acme/mixed/versions/v1.0.0", { licenses: ["MIT", "non-standard", "GPL-2.0-only"] });
  reg.go.set("github.com/acme/bare/versions/v1.0.0", { licenses: [] });
});
afterAll(() => reg.close());
beforeEach(() => {
  reg.mode = "ok";
  reg.failNext = 0;
  reg.requests.length = 0;
  reg.userAgents.length = 0;
});

describe("crates.io licence resolver", () => {
  it("asks for the exact version a manifest pins, else the newest stable version", async () => {
    const crates = createCratesResolver({ baseUrl: reg.cratesUrl, retry: FAST_RETRY });
    expect(await crates.lookup("cargo", "copyleft-core", "2.0.1")).toEqual({
      status: "found",
      license: "GPL-3.0-or-later",
    });
    expect(await crates.lookup("cargo", "serde", "1.0")).toEqual({ status: "found", license: "MIT OR Apache-2.0" });
    expect(await crates.lookup("cargo", "serde", "=1.0.300")).toEqual({
      status: "found",
      license: "MIT OR Apache-2.0",
    });
    expect(reg.requests).toEqual([
      "/api/v1/crates/copyleft-core/2.0.1",
      "/api/v1/crates/serde",
      "/api/v1/crates/serde/1.0.300",
      "/api/v1/crates/serde",
    ]);
    // crates.io refuses requests without a user agent that says who asks.
    expect(reg.userAgents.every((ua) => ua.startsWith("pr-compliance-gate"))).toBe(true);
  });

  it("is unknown when the registry answers with no crate or no licence; never asks about odd names", async () => {
    const crates = createCratesResolver({ baseUrl: reg.cratesUrl, retry: FAST_RETRY });
    expect(await crates.lookup("cargo", "nope")).toEqual({ status: "unknown" });
    expect(await crates.lookup("cargo", "no-licence")).toEqual({ status: "unknown" });
    expect(await crates.lookup("cargo", "../etc")).toEqual({ status: "unknown" });
    expect(await crates.lookup("npm", "serde")).toEqual({ status: "unknown" });
    expect(reg.requests).toEqual(["/api/v1/crates/nope", "/api/v1/crates/no-licence"]);
  });

  it("is a failed lookup, naming crates.io and the error, when it is down, slow or sends garbage", async () => {
    const crates = createCratesResolver({ baseUrl: reg.cratesUrl, timeoutMs: 150, retry: FAST_RETRY });
    const registry = `crates.io ${reg.cratesUrl}`;
    reg.mode = "fail";
    expect(await crates.lookup("cargo", "copyleft-core", "2.0.1")).toEqual({
      status: "failed",
      registry,
      reason: "answered 503 (3 attempts)",
    });
    reg.mode = "hang";
    expect(await crates.lookup("cargo", "copyleft-core")).toEqual({
      status: "failed",
      registry,
      reason: "timed out after 150 ms (3 attempts)",
    });
    reg.mode = "garbage";
    expect((await crates.lookup("cargo", "copyleft-core")).status).toBe("failed");
    reg.mode = "ok";
    reg.crates.set("odd", { unexpected: true });
    expect(await crates.lookup("cargo", "odd")).toEqual({
      status: "failed",
      registry,
      reason: "sent something that is not a crate document",
    });
  });
});

describe("Go module licence resolver (deps.dev API)", () => {
  it("asks for the version go.mod names, with the module path encoded as one segment", async () => {
    const go = createGoResolver({ baseUrl: reg.goUrl, retry: FAST_RETRY });
    expect(await go.lookup("go", "github.com/acme/gplkit", "v1.4.0")).toEqual({
      status: "found",
      license: "AGPL-3.0-only",
    });
    expect(reg.requests).toEqual(["/v3/systems/go/packages/github.com%2Facme%2Fgplkit/versions/v1.4.0"]);
  });

  it("falls back to the module's default version when the version is unknown or not given", async () => {
    const go = createGoResolver({ baseUrl: reg.goUrl, retry: FAST_RETRY });
    expect(await go.lookup("go", "github.com/pkg/errors", "v0.9.2")).toEqual({
      status: "found",
      license: "BSD-2-Clause",
    });
    expect(await go.lookup("go", "github.com/pkg/errors")).toEqual({ status: "found", license: "BSD-2-Clause" });
    expect(reg.requests.filter((r) => r.endsWith("/versions/v0.9.1"))).toHaveLength(2);
  });

  it("every licence it found applies (AND); one it could not name is kept, so a copyleft one beside it still counts", async () => {
    const go = createGoResolver({ baseUrl: reg.goUrl, retry: FAST_RETRY });
    expect(await go.lookup("go", "github.com/acme/mixed", "v1.0.0")).toEqual({
      status: "found",
      license: "MIT AND LicenseRef-deps.dev-non-standard AND GPL-2.0-only",
    });
    expect(goLicenseExpression(["MIT OR Apache-2.0", "BSD-3-Clause"])).toBe("(MIT OR Apache-2.0) AND BSD-3-Clause");
    expect(goLicenseExpression(["Apache-2.0"])).toBe("Apache-2.0");
    expect(await go.lookup("go", "github.com/acme/bare", "v1.0.0")).toEqual({ status: "unknown" });
    expect(await go.lookup("go", "github.com/nobody/nothing", "v1.0.0")).toEqual({ status: "unknown" });
    expect(await go.lookup("go", "github.com/../../etc", "v1.0.0")).toEqual({ status: "unknown" });
  });

  it("is a failed lookup when the service is down or slow", async () => {
    const go = createGoResolver({ baseUrl: reg.goUrl, timeoutMs: 150, retry: FAST_RETRY });
    await expectFailsClosed(
      reg,
      () => go.lookup("go", "github.com/acme/gplkit", "v1.4.0"),
      `Go module metadata ${reg.goUrl}`,
    );
  });
});

describe("live licences for every ecosystem", () => {
  const live = () => liveLicenses(reg);
  const pr = () =>
    buildPr({
      files: [
        { filename: "go.mod", patch: GO_MOD },
        { filename: "Cargo.toml", patch: CARGO },
      ],
    });

  it("a GPL Go module and a GPL Cargo crate block (LIC-02) like an npm one", async () => {
    const { store, licenses } = live();
    const findings = await dependencyLicensesDetector.detect(detectContext(pr(), { licenses }));
    expect(findings.map((f) => [f.file, f.policy, f.line, f.blocking])).toEqual([
      ["go.mod", "LIC-02", 5, true],
      ["Cargo.toml", "LIC-02", 6, true],
    ]);
    expect(findings[0]?.message).toMatch(
      /github\.com\/acme\/gplkit@v1\.4\.0 \(go, runtime dependency, added\) is licensed AGPL-3\.0-only/,
    );
    expect(await store.cachedLicense("cargo:copyleft-core@2.0.1")).toBe("GPL-3.0-or-later");
  });

  it("a registry that is down, slow or answering 5xx never turns them into a pass: each lookup fails, and nothing is cached", async () => {
    for (const mode of ["fail", "hang", "garbage"] as const) {
      const { store, licenses } = live();
      reg.mode = mode;
      expect((await licenses.lookup("go", "github.com/acme/gplkit", "v1.4.0")).status).toBe("failed");
      expect((await licenses.lookup("cargo", "copyleft-core", "2.0.1")).status).toBe("failed");
      // The detector says nothing it does not know ("unknown" would be a LIC-01 that may pass).
      expect(await dependencyLicensesDetector.detect(detectContext(pr(), { licenses }))).toEqual([]);
      expect(await store.cachedLicense("cargo:copyleft-core@2.0.1")).toBeUndefined();
    }
  });
});

describe("a fixture whose registry cannot be read", () => {
  it("goes to a person (lookup_failed), not to an unknown licence", async () => {
    const dir = tempDir("gate-lookup-");
    const gate = await testGate({}, {}, dir);
    try {
      const fixtures = path.join(dir, "fixtures");
      fs.cpSync(path.join(BUNDLED_FIXTURES_DIR, "002_new_dependency"), path.join(fixtures, "002_new_dependency"), {
        recursive: true,
      });
      fs.writeFileSync(path.join(fixtures, "002_new_dependency", "registry.json"), "{ not json");
      const r = await reviewFixture(gate, "002_new_dependency", fixtures);
      expect(r.route).toBe("human");
      expect(r.escalation?.reason).toBe("lookup_failed");
      expect(r.escalation?.detail).toMatch(
        /gpl-chart-lib@\^2\.1\.0 \(npm\): the fixture's registry\.json .*registry\.json is not JSON/,
      );
      expect(r.findings.filter((f) => f.policy.startsWith("LIC-"))).toEqual([]);
    } finally {
      await gate.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
