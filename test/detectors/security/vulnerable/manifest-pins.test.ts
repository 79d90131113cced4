import { describe, expect, it } from "vitest";
import { osvApiRecords } from "../../../../src/advisories/osv-api-records.js";
import { advisorySourceOver } from "../../../../src/advisories/record-source.js";
import { pinnedDependencies } from "../../../../src/ecosystems/pinned-dependencies.js";
import { pinnedVersion } from "../../../../src/ecosystems/common/manifest-pins.js";
import { vulnerableDependenciesDetector } from "../../../../src/detectors/security/vulnerable-dependencies.js";
import { record } from "../../../advisories/test-records.js";
import { startFakeOsv } from "../../../fakes/osv-api.js";
import { buildPr, detectContext, headFiles } from "../../pr-builder.js";
import { changedFile } from "./lockfile-change.js";

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>orders</artifactId>
  <version>1.0.0</version>
  <properties>
    <log4j.version>2.14.1</log4j.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.apache.logging.log4j</groupId>
      <artifactId>log4j-core</artifactId>
      <version>\${log4j.version}</version>
    </dependency>
    <dependency>
      <groupId>com.google.guava</groupId>
      <artifactId>guava</artifactId>
      <version>[30.0-jre,)</version>
    </dependency>
    <dependency>
      <groupId>org.example</groupId>
      <artifactId>from-parent</artifactId>
      <version>\${parent.only.version}</version>
    </dependency>
    <dependency>
      <groupId>junit</groupId>
      <artifactId>junit</artifactId>
      <version>4.12</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
`;

const CSPROJ = `<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" Version="12.0.1" />
    <PackageReference Include="Serilog" Version="[3.0,4.0)" />
    <PackageReference Include="StyleCop.Analyzers" Version="1.1.118" PrivateAssets="all" />
  </ItemGroup>
</Project>
`;

const PACKAGES_CONFIG = `<?xml version="1.0" encoding="utf-8"?>
<packages>
  <package id="Newtonsoft.Json" version="12.0.1" targetFramework="net48" />
</packages>
`;

const CENTRAL = `<Project>
  <ItemGroup>
    <PackageVersion Include="Newtonsoft.Json" Version="[12.0.1]" />
  </ItemGroup>
</Project>
`;

const COMPOSER_JSON = JSON.stringify(
  {
    name: "acme/shop",
    require: { php: ">=8.1", "guzzlehttp/guzzle": "7.4.4", "monolog/monolog": "^3.6" },
    "require-dev": { "phpunit/phpunit": "v9.5.10" },
  },
  null,
  4,
);

const GRADLE = `plugins { id("java") }
dependencies {
    implementation("org.apache.logging.log4j:log4j-core:2.14.1")
    implementation("com.squareup.okhttp3:okhttp:4.+")
    testImplementation group: 'junit', name: 'junit', version: '4.12'
}
`;

const CATALOG = `[versions]
okhttp = "4.12.0"

[libraries]
log4j-core = { module = "org.apache.logging.log4j:log4j-core", version = "2.14.1" }
okhttp = { module = "com.squareup.okhttp3:okhttp", version.ref = "okhttp" }
`;

type Change = { spec: { filename: string; patch?: string }; head: Record<string, string> };

async function pins(...changes: Change[]) {
  const pr = buildPr({ files: changes.map((c) => c.spec) });
  return pinnedDependencies(pr.files, headFiles(Object.assign({}, ...changes.map((c) => c.head))));
}

const all = () => true;

describe("manifest pins for SEC-07 (read by the licence detector's own parsers)", () => {
  it("pom.xml: a pinned <version>, ${property} filled from the pom's <properties>; ranges and undefined properties are no version", async () => {
    const { pinned, unread } = await pins(changedFile("pom.xml", POM, all));
    expect(unread).toEqual([]);
    expect(pinned.map((p) => [p.ecosystem, p.name, p.version, p.line, p.scope, p.from])).toEqual([
      ["maven", "org.apache.logging.log4j:log4j-core", "2.14.1", 11, "runtime", "pin"],
      ["maven", "junit:junit", "4.12", 26, "dev", "pin"],
    ]);
  });

  it("pom.xml: only the dependencies the change adds or moves (a property's change moves the one that uses it)", async () => {
    const { pinned } = await pins(changedFile("pom.xml", POM, (l) => l.includes("<log4j.version>")));
    expect(pinned.map((p) => [p.name, p.version])).toEqual([["org.apache.logging.log4j:log4j-core", "2.14.1"]]);
  });

  it("a pom.xml that does not parse is unread: a person checks it", async () => {
    const { unread } = await pins(changedFile("pom.xml", "<project><dependencies>", all));
    expect(unread).toEqual([{ file: "pom.xml", why: expect.stringContaining("does not parse") }]);
  });

  it("Gradle scripts and version catalogs: g:a:v and map notation pinned; 4.+ and version.ref are not read as versions", async () => {
    const { pinned } = await pins(
      changedFile("build.gradle.kts", GRADLE, all),
      changedFile("gradle/libs.versions.toml", CATALOG, all),
    );
    expect(pinned.map((p) => [p.file, p.name, p.version, p.scope])).toEqual([
      ["build.gradle.kts", "org.apache.logging.log4j:log4j-core", "2.14.1", "runtime"],
      ["build.gradle.kts", "junit:junit", "4.12", "dev"],
      ["gradle/libs.versions.toml", "org.apache.logging.log4j:log4j-core", "2.14.1", "runtime"],
    ]);
  });

  it("NuGet: .csproj PackageReference, packages.config and Directory.Packages.props ([12.0.1] is exact); a range is no version", async () => {
    const { pinned } = await pins(
      changedFile("src/App/App.csproj", CSPROJ, all),
      changedFile("legacy/packages.config", PACKAGES_CONFIG, all),
      changedFile("Directory.Packages.props", CENTRAL, all),
    );
    expect(pinned.map((p) => [p.file, p.ecosystem, p.name, p.version, p.scope])).toEqual([
      ["src/App/App.csproj", "nuget", "Newtonsoft.Json", "12.0.1", "runtime"],
      ["src/App/App.csproj", "nuget", "StyleCop.Analyzers", "1.1.118", "dev"],
      ["legacy/packages.config", "nuget", "Newtonsoft.Json", "12.0.1", "runtime"],
      ["Directory.Packages.props", "nuget", "Newtonsoft.Json", "12.0.1", "runtime"],
    ]);
  });

  it("composer.json: exact versions (a v dropped), not constraints nor platform entries; the composer.lock beside it wins", async () => {
    const { pinned } = await pins(changedFile("composer.json", COMPOSER_JSON, all));
    expect(pinned.map((p) => [p.name, p.version, p.scope])).toEqual([
      ["guzzlehttp/guzzle", "7.4.4", "runtime"],
      ["phpunit/phpunit", "9.5.10", "dev"],
    ]);
    const lock = JSON.stringify({ packages: [{ name: "guzzlehttp/guzzle", version: "7.4.5" }] }, null, 4);
    const both = await pins(changedFile("composer.json", COMPOSER_JSON, all), changedFile("composer.lock", lock, all));
    expect(both.pinned.map((p) => [p.file, p.name, p.version, p.from])).toEqual([
      ["composer.lock", "guzzlehttp/guzzle", "7.4.5", "lockfile"],
    ]);
  });

  it("pinnedVersion: what each ecosystem pins, and what is a range", () => {
    expect(pinnedVersion("maven", "[2.14.1]")).toBe("2.14.1");
    expect(pinnedVersion("maven", "[2.0,3.0)")).toBeUndefined();
    expect(pinnedVersion("maven", "latest.release")).toBeUndefined();
    expect(pinnedVersion("maven", "LATEST")).toBeUndefined();
    expect(pinnedVersion("nuget", "12.*")).toBeUndefined();
    expect(pinnedVersion("nuget", "13.0.1")).toBe("13.0.1");
    expect(pinnedVersion("composer", "==7.4.4")).toBe("7.4.4");
    expect(pinnedVersion("composer", "~7.4.4")).toBeUndefined();
    expect(pinnedVersion("composer", "7.4.*")).toBeUndefined();
    expect(pinnedVersion("composer", "dev-main")).toBeUndefined();
  });
});

describe("SEC-07 on pom.xml, .csproj and composer.json (loopback OSV, real HTTP client)", () => {
  it("log4j-core, Newtonsoft.Json and guzzle block, each with its advisory, judged by the ecosystem's own order", async () => {
    const osv = await startFakeOsv();
    try {
      const log4j = record({
        id: "GHSA-test-log4j",
        ecosystem: "Maven",
        name: "org.apache.logging.log4j:log4j-core",
        rangeType: "ECOSYSTEM",
        introduced: "2.13.0",
        fixed: "2.15.0",
        severity: "CRITICAL",
      });
      // log4j's real record also has ranges from 2.0-beta9 and 2.4, which semver cannot read.
      const [affected] = log4j.affected ?? [];
      if (affected) {
        affected.ranges = [
          { type: "ECOSYSTEM", events: [{ introduced: "2.0-beta9" }, { fixed: "2.3.1" }] },
          { type: "ECOSYSTEM", events: [{ introduced: "2.4" }, { fixed: "2.12.2" }] },
          ...(affected.ranges as unknown[]),
        ];
      }
      osv.add(
        log4j,
        record({
          id: "GHSA-test-newtonsoft",
          ecosystem: "NuGet",
          name: "Newtonsoft.Json",
          rangeType: "ECOSYSTEM",
          fixed: "13.0.1",
          severity: "HIGH",
        }),
        record({
          id: "GHSA-test-guzzle",
          ecosystem: "Packagist",
          name: "guzzlehttp/guzzle",
          rangeType: "ECOSYSTEM",
          introduced: "7.0.0",
          fixed: "7.4.5",
          severity: "HIGH",
        }),
      );
      const changes = [
        changedFile("pom.xml", POM, all),
        changedFile("App.csproj", CSPROJ, all),
        changedFile("composer.json", COMPOSER_JSON, all),
      ];
      const pr = buildPr({ files: changes.map((c) => c.spec) });
      const ctx = {
        ...detectContext(pr, { head: headFiles(Object.assign({}, ...changes.map((c) => c.head))) }),
        advisories: advisorySourceOver(osvApiRecords({ baseUrl: osv.url })),
      };
      const findings = await vulnerableDependenciesDetector.detect(ctx);
      expect(
        findings.map((f) => [f.policy, f.file, f.line, f.package?.name, f.blocking, f.advisories?.[0]?.id]),
      ).toEqual([
        ["SEC-07", "pom.xml", 11, "org.apache.logging.log4j:log4j-core", true, "GHSA-test-log4j"],
        ["SEC-07", "App.csproj", 3, "Newtonsoft.Json", true, "GHSA-test-newtonsoft"],
        ["SEC-07", "composer.json", 5, "guzzlehttp/guzzle", true, "GHSA-test-guzzle"],
      ]);
      expect(findings[0]?.message).toContain("org.apache.logging.log4j:log4j-core@2.14.1 (maven, runtime dependency)");
      expect(findings[0]?.message).toContain("Upgrade to 2.15.0");
      expect(osv.batches.flat().map((q) => q.package.ecosystem)).toEqual(
        expect.arrayContaining(["Maven", "NuGet", "Packagist"]),
      );
    } finally {
      await osv.close();
    }
  });
});

describe("an advisory OSV names for the version but the gate's ranges do not confirm", () => {
  it("is a blocking SEC-07 finding marked 'OSV says affected; range not confirmed', for a test dependency too: a person decides", async () => {
    const osv = await startFakeOsv();
    try {
      // OSV names junit 4.12 (its versions[] list it); the record's range, as the gate reads it, ends before it.
      osv.add(
        record({
          id: "GHSA-test-junit",
          ecosystem: "Maven",
          name: "junit:junit",
          rangeType: "ECOSYSTEM",
          introduced: "4.7",
          fixed: "4.11",
          versions: ["4.12"],
          severity: "MODERATE",
        }),
      );
      const pom = changedFile("pom.xml", POM, all);
      const ctx = {
        ...detectContext(buildPr({ files: [pom.spec] }), { head: headFiles(pom.head) }),
        advisories: advisorySourceOver(osvApiRecords({ baseUrl: osv.url })),
      };
      const findings = await vulnerableDependenciesDetector.detect(ctx);
      expect(findings.map((f) => [f.package?.name, f.blocking, f.advisories?.[0]?.id])).toEqual([
        ["junit:junit", true, "GHSA-test-junit"],
      ]);
      expect(findings[0]?.message).toContain("(maven, dev dependency)");
      expect(findings[0]?.message).toContain(
        "GHSA-test-junit, moderate (GitHub's rating): A flaw in junit:junit; OSV says affected; range not confirmed (OSV lists 4.12 among the affected versions, but none of its ranges holds it)",
      );
      expect(findings[0]?.message).toContain("a person reads the advisory's affected versions and decides");
    } finally {
      await osv.close();
    }
  });
});
