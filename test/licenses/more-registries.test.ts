import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dependencyLicensesDetector } from "../../src/detectors/licensing/dependency-licenses.js";
import { createDepsDevResolver } from "../../src/licenses/deps-dev-resolver.js";
import {
  composerLicense,
  createPackagistResolver,
  expandMinified,
} from "../../src/ecosystems/composer/packagist-resolver.js";
import { createRubygemsResolver } from "../../src/ecosystems/rubygems/rubygems-resolver.js";
import { buildPr, detectContext, headFiles } from "../detectors/pr-builder.js";
import { FAST_RETRY, startFakeRegistry, type FakeRegistry } from "../fakes/registry.js";
import { expectFailsClosed, liveLicenses } from "./live-licenses.js";

let reg: FakeRegistry;
beforeAll(async () => {
  reg = await startFakeRegistry();
  reg.maven.set("org.acme:pdf-kit/versions/3.2.1", { licenses: ["AGPL-3.0-only"] });
  reg.maven.set("org.slf4j:slf4j-api", {
    versions: [{ versionKey: { version: "2.0.12" } }, { versionKey: { version: "2.0.13" }, isDefault: true }],
  });
  reg.maven.set("org.slf4j:slf4j-api/versions/2.0.13", { licenses: ["MIT"] });
  reg.nuget.set("Serilog/versions/4.0.1", { licenses: ["Apache-2.0"] });
  reg.nuget.set("BarcodeForge.Core", { versions: [{ versionKey: { version: "5.2.0" }, isDefault: true }] });
  reg.nuget.set("BarcodeForge.Core/versions/5.2.0", { licenses: ["GPL-3.0-only"] });
  reg.packagist.set("monolog/monolog.json", {
    minified: "composer/2.0",
    packages: {
      "monolog/monolog": [
        { version: "3.7.0", version_normalized: "3.7.0.0", license: ["MIT"] },
        { version: "2.9.3", version_normalized: "2.9.3.0" },
        { version: "1.0.0", version_normalized: "1.0.0.0", license: ["GPL-2.0-only"] },
      ],
    },
  });
  reg.packagist.set("acme/feeds.json", {
    packages: { "acme/feeds": [{ version: "v2.3.0", license: ["GPL-2.0-or-later"] }] },
  });
  reg.packagist.set("acme/dual.json", {
    packages: { "acme/dual": [{ version: "1.0.0", license: ["MIT", "GPL-3.0-only"] }] },
  });
  reg.packagist.set("acme/none.json", { packages: { "acme/none": [{ version: "1.0.0" }] } });
  reg.gemVersions.set("rack/versions/3.1.7.json", { licenses: ["MIT"] });
  reg.gems.set("rack.json", { name: "rack", version: "3.1.8", licenses: ["MIT"] });
  reg.gems.set("imagewand.json", { name: "imagewand", version: "0.12.1", licenses: ["GPL-3.0-only"] });
  reg.gems.set("mixed.json", { name: "mixed", licenses: ["MIT", "GPL-2.0-only"] });
  reg.gems.set("bare.json", { name: "bare", licenses: null });
});
afterAll(() => reg.close());
beforeEach(() => {
  reg.mode = "ok";
  reg.failNext = 0;
  reg.requests.length = 0;
});

describe("Maven and NuGet licences through deps.dev", () => {
  it("asks for the exact version the manifest names, with groupId:artifactId as one segment", async () => {
    const maven = createDepsDevResolver("maven", { baseUrl: reg.mavenUrl, retry: FAST_RETRY });
    expect(await maven.lookup("maven", "org.acme:pdf-kit", "3.2.1")).toEqual({
      status: "found",
      license: "AGPL-3.0-only",
    });
    expect(reg.requests).toEqual(["/v3/systems/maven/packages/org.acme%3Apdf-kit/versions/3.2.1"]);
  });

  it("asks for the default version when the manifest gives a range or an unresolved property", async () => {
    const maven = createDepsDevResolver("maven", { baseUrl: reg.mavenUrl, retry: FAST_RETRY });
    expect(await maven.lookup("maven", "org.slf4j:slf4j-api", "[2.0,3.0)")).toEqual({
      status: "found",
      license: "MIT",
    });
    expect(await maven.lookup("maven", "org.slf4j:slf4j-api", "${slf4j.version}")).toEqual({
      status: "found",
      license: "MIT",
    });
    expect(reg.requests).toEqual([
      "/v3/systems/maven/packages/org.slf4j%3Aslf4j-api",
      "/v3/systems/maven/packages/org.slf4j%3Aslf4j-api/versions/2.0.13",
      "/v3/systems/maven/packages/org.slf4j%3Aslf4j-api",
      "/v3/systems/maven/packages/org.slf4j%3Aslf4j-api/versions/2.0.13",
    ]);
  });

  it("reads NuGet packages on the nuget system, and never asks about another ecosystem or an odd name", async () => {
    const nuget = createDepsDevResolver("nuget", { baseUrl: reg.nugetUrl, retry: FAST_RETRY });
    expect(await nuget.lookup("nuget", "Serilog", "4.0.1")).toEqual({ status: "found", license: "Apache-2.0" });
    expect(await nuget.lookup("nuget", "BarcodeForge.Core", "[5.0,6.0)")).toEqual({
      status: "found",
      license: "GPL-3.0-only",
    });
    expect(await nuget.lookup("nuget", "Nobody.Knows", "1.0.0")).toEqual({ status: "unknown" });
    expect(await nuget.lookup("maven", "Serilog", "4.0.1")).toEqual({ status: "unknown" });
    expect(await nuget.lookup("nuget", "../etc/passwd")).toEqual({ status: "unknown" });
    expect(reg.requests.every((r) => r.startsWith("/v3/systems/nuget/packages/"))).toBe(true);
  });

  it("fails closed, naming the service, when it is down, slow or sends something else", async () => {
    const maven = createDepsDevResolver("maven", { baseUrl: reg.mavenUrl, timeoutMs: 150, retry: FAST_RETRY });
    await expectFailsClosed(
      reg,
      () => maven.lookup("maven", "org.acme:pdf-kit", "3.2.1"),
      `Maven package metadata ${reg.mavenUrl}`,
    );
    reg.maven.set("org.acme:odd/versions/1.0.0", { licenses: "MIT" });
    expect(await maven.lookup("maven", "org.acme:odd", "1.0.0")).toMatchObject({
      status: "failed",
      reason: "sent something that is not a version document",
    });
  });
});

describe("Composer licences on Packagist", () => {
  it("reads the version composer.json pins out of the minified v2 metadata, else the newest", async () => {
    const packagist = createPackagistResolver({ baseUrl: reg.packagistUrl, retry: FAST_RETRY });
    expect(await packagist.lookup("composer", "monolog/monolog", "2.9.3")).toEqual({ status: "found", license: "MIT" });
    expect(await packagist.lookup("composer", "monolog/monolog", "1.0.0")).toEqual({
      status: "found",
      license: "GPL-2.0-only",
    });
    expect(await packagist.lookup("composer", "Monolog/Monolog", "^3.6")).toEqual({ status: "found", license: "MIT" });
    expect(await packagist.lookup("composer", "acme/feeds", "2.3.0")).toEqual({
      status: "found",
      license: "GPL-2.0-or-later",
    });
    expect(reg.requests.slice(0, 3)).toEqual([
      "/p2/monolog/monolog.json",
      "/p2/monolog/monolog.json",
      "/p2/monolog/monolog.json",
    ]);
  });

  it("an array of licences is a choice (OR), as Composer documents it; none is unknown", async () => {
    const packagist = createPackagistResolver({ baseUrl: reg.packagistUrl, retry: FAST_RETRY });
    expect(await packagist.lookup("composer", "acme/dual", "1.0.0")).toEqual({
      status: "found",
      license: "MIT OR GPL-3.0-only",
    });
    expect(await packagist.lookup("composer", "acme/none")).toEqual({ status: "unknown" });
    expect(await packagist.lookup("composer", "acme/missing")).toEqual({ status: "unknown" });
    expect(await packagist.lookup("composer", "not-a-vendor-name")).toEqual({ status: "unknown" });
    expect(composerLicense("(LGPL-2.1-only or GPL-3.0-or-later)")).toBe("(LGPL-2.1-only OR GPL-3.0-or-later)");
    expect(composerLicense(["MIT AND BSD-3-Clause", "Apache-2.0"])).toBe("(MIT AND BSD-3-Clause) OR Apache-2.0");
    expect(expandMinified([{ a: 1, b: 2 }, { b: "__unset" }, { c: 3 }])).toEqual([
      { a: 1, b: 2 },
      { a: 1 },
      { a: 1, c: 3 },
    ]);
  });

  it("fails closed when Packagist is down or sends something else", async () => {
    const packagist = createPackagistResolver({ baseUrl: reg.packagistUrl, retry: FAST_RETRY });
    reg.mode = "garbage";
    expect(await packagist.lookup("composer", "acme/feeds")).toMatchObject({
      status: "failed",
      registry: `Packagist ${reg.packagistUrl}`,
    });
    reg.mode = "ok";
    reg.packagist.set("acme/odd.json", { packages: "none" });
    expect(await packagist.lookup("composer", "acme/odd")).toMatchObject({
      status: "failed",
      reason: "sent something that is not a Packagist metadata document",
    });
  });
});

describe("gem licences on RubyGems", () => {
  it("asks the v2 API for an exact version, the gem's newest for a requirement or a version it lacks", async () => {
    const gems = createRubygemsResolver({ baseUrl: reg.rubygemsUrl, retry: FAST_RETRY });
    expect(await gems.lookup("rubygems", "rack", "3.1.7")).toEqual({ status: "found", license: "MIT" });
    expect(await gems.lookup("rubygems", "rack", "~> 3.1")).toEqual({ status: "found", license: "MIT" });
    expect(await gems.lookup("rubygems", "rack", "9.9.9")).toEqual({ status: "found", license: "MIT" });
    expect(reg.requests).toEqual([
      "/api/v2/rubygems/rack/versions/3.1.7.json",
      "/api/v1/gems/rack.json",
      "/api/v2/rubygems/rack/versions/9.9.9.json",
      "/api/v1/gems/rack.json",
    ]);
  });

  it("several licences all apply (AND, fail closed); none, or no such gem, is unknown", async () => {
    const gems = createRubygemsResolver({ baseUrl: reg.rubygemsUrl, retry: FAST_RETRY });
    expect(await gems.lookup("rubygems", "mixed")).toEqual({ status: "found", license: "MIT AND GPL-2.0-only" });
    expect(await gems.lookup("rubygems", "bare")).toEqual({ status: "unknown" });
    expect(await gems.lookup("rubygems", "nothing-here")).toEqual({ status: "unknown" });
    expect(await gems.lookup("npm", "rack")).toEqual({ status: "unknown" });
  });

  it("fails closed, naming RubyGems, when it is down or slow", async () => {
    const gems = createRubygemsResolver({ baseUrl: reg.rubygemsUrl, timeoutMs: 150, retry: FAST_RETRY });
    await expectFailsClosed(reg, () => gems.lookup("rubygems", "rack", "3.1.7"), `RubyGems ${reg.rubygemsUrl}`);
  });
});

describe("live licences for the new ecosystems, through the detector", () => {
  const POM = `<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>billing</artifactId>
  <version>1.0.0</version>
  <dependencies>
    <dependency>
      <groupId>org.acme</groupId>
      <artifactId>pdf-kit</artifactId>
      <version>3.2.1</version>
    </dependency>
  </dependencies>
</project>`;
  const POM_PATCH = `@@ -6,2 +6,7 @@\n   <dependencies>\n+    <dependency>\n+      <groupId>org.acme</groupId>\n+      <artifactId>pdf-kit</artifactId>\n+      <version>3.2.1</version>\n+    </dependency>\n   </dependencies>`;
  const GEMFILE_PATCH =
    '@@ -1,2 +1,3 @@\n source "https://rubygems.org"\n+gem "imagewand", "~> 0.12"\n gem "rack", "3.1.7"';
  const COMPOSER_PATCH =
    '@@ -2,3 +2,4 @@\n     "require": {\n+        "acme/dual": "1.0.0",\n         "monolog/monolog": "^3.6"\n     }';

  const live = () => liveLicenses(reg);
  const pr = () =>
    buildPr({
      files: [
        { filename: "pom.xml", patch: POM_PATCH },
        { filename: "Gemfile", patch: GEMFILE_PATCH },
        { filename: "composer.json", patch: COMPOSER_PATCH },
      ],
    });
  const head = () => headFiles({ "pom.xml": POM });

  it("a copyleft Maven artifact and gem block (LIC-02); a dual MIT-or-GPL Composer package passes; answers are cached", async () => {
    const { store, licenses } = live();
    const findings = await dependencyLicensesDetector.detect(detectContext(pr(), { licenses, head: head() }));
    expect(findings.map((f) => [f.file, f.policy, f.line, f.blocking])).toEqual([
      ["pom.xml", "LIC-02", 7, true],
      ["Gemfile", "LIC-02", 2, true],
    ]);
    expect(findings[0]?.message).toMatch(
      /org\.acme:pdf-kit@3\.2\.1 \(maven, runtime dependency, added\) is licensed AGPL-3\.0-only/,
    );
    expect(await store.cachedLicense("maven:org.acme:pdf-kit@3.2.1")).toBe("AGPL-3.0-only");
    expect(await store.cachedLicense("composer:acme/dual@1.0.0")).toBe("MIT OR GPL-3.0-only");
  });

  it("registries that are down are failed lookups, never a pass, and nothing is cached", async () => {
    const { store, licenses } = live();
    reg.mode = "fail";
    const failed: string[] = [];
    const recording = {
      lookup: async (...args: Parameters<typeof licenses.lookup>) => {
        const answer = await licenses.lookup(...args);
        if (answer.status === "failed") failed.push(`${args[0]}:${args[1]}`);
        return answer;
      },
    };
    expect(await dependencyLicensesDetector.detect(detectContext(pr(), { licenses: recording, head: head() }))).toEqual(
      [],
    );
    expect(failed.sort()).toEqual(["composer:acme/dual", "maven:org.acme:pdf-kit", "rubygems:imagewand"]);
    expect(await store.cachedLicense("maven:org.acme:pdf-kit@3.2.1")).toBeUndefined();
  });
});
