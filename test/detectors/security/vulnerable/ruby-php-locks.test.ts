import { describe, expect, it } from "vitest";
import { versionOrder } from "../../../../src/ecosystems/common/version-order.js";
import { pinnedDependencies } from "../../../../src/ecosystems/pinned-dependencies.js";
import { osvApiRecords } from "../../../../src/advisories/osv-api-records.js";
import { advisorySourceOver } from "../../../../src/advisories/record-source.js";
import { vulnerableDependenciesDetector } from "../../../../src/detectors/security/vulnerable-dependencies.js";
import { record } from "../../../advisories/test-records.js";
import { startFakeOsv } from "../../../fakes/osv-api.js";
import { buildPr, detectContext, headFiles } from "../../pr-builder.js";
import { changedFile } from "./lockfile-change.js";

const GEMFILE = [
  'source "https://rubygems.org"',
  'gem "rails", "~> 7.0.4"',
  "group :development, :test do",
  '  gem "rspec-rails"',
  "end",
  "",
].join("\n");

const GEMFILE_LOCK = [
  "GEM",
  "  remote: https://rubygems.org/",
  "  specs:",
  "    nokogiri (1.13.9-x86_64-linux)",
  "      racc (~> 1.4)",
  "    racc (1.6.0)",
  "    rack (2.2.4)",
  "    rails (7.0.4)",
  "      nokogiri (>= 1.6)",
  "      rack (>= 2.2.0)",
  "    rspec-core (3.12.0)",
  "    rspec-rails (6.0.1)",
  "      rspec-core (~> 3.11)",
  "",
  "PLATFORMS",
  "  x86_64-linux",
  "",
  "DEPENDENCIES",
  "  rails (~> 7.0.4)",
  "  rspec-rails",
  "",
  "BUNDLED WITH",
  "   2.3.26",
  "",
].join("\n");

const COMPOSER_LOCK = JSON.stringify(
  {
    packages: [
      { name: "guzzlehttp/psr7", version: "1.8.2", type: "library" },
      { name: "symfony/http-kernel", version: "v5.4.1", type: "library" },
      { name: "acme/internal", version: "dev-main", type: "library" },
    ],
    "packages-dev": [{ name: "phpunit/phpunit", version: "9.5.10", type: "library" }],
  },
  null,
  4,
);

async function pins(...changes: { spec: { filename: string; patch?: string }; head: Record<string, string> }[]) {
  const pr = buildPr({ files: changes.map((c) => c.spec) });
  return pinnedDependencies(pr.files, headFiles(Object.assign({}, ...changes.map((c) => c.head))));
}

describe("Gemfile.lock and composer.lock: exact versions for SEC-07", () => {
  it("Gemfile.lock: added gems at Bundler's versions (platform dropped), transitive ones with their direct gem, dev as the Gemfile groups say", async () => {
    const lock = changedFile("Gemfile.lock", GEMFILE_LOCK, (l) => /nokogiri \(|rack \(2|rspec-core \(/.test(l));
    const { pinned } = await pins({ ...lock, head: { ...lock.head, Gemfile: GEMFILE } });
    expect(pinned.map((p) => [p.name, p.version, p.line, p.scope, p.via])).toEqual([
      ["nokogiri", "1.13.9", 4, "runtime", "rails"],
      ["rack", "2.2.4", 7, "runtime", "rails"],
      ["rspec-core", "3.12.0", 11, "dev", "rspec-rails"],
    ]);
  });

  it("composer.lock: packages are runtime, packages-dev development, a v dropped, branches skipped", async () => {
    const { pinned } = await pins(changedFile("composer.lock", COMPOSER_LOCK, () => true));
    expect(pinned.map((p) => [p.name, p.version, p.scope, p.ecosystem])).toEqual([
      ["guzzlehttp/psr7", "1.8.2", "runtime", "composer"],
      ["symfony/http-kernel", "5.4.1", "runtime", "composer"],
      ["phpunit/phpunit", "9.5.10", "dev", "composer"],
    ]);
    const onlyOne = await pins(changedFile("composer.lock", COMPOSER_LOCK, (l) => l.includes('"1.8.2"')));
    expect(onlyOne.pinned.map((p) => p.name)).toEqual(["guzzlehttp/psr7"]);
  });

  it("a composer.lock that is not JSON is unread, so a person checks it", async () => {
    const { pinned, unread } = await pins(changedFile("composer.lock", '{ "packages": [', () => true));
    expect(pinned).toEqual([]);
    expect(unread).toEqual([{ file: "composer.lock", why: expect.stringMatching(/^it is not JSON/) }]);
  });

  it("RubyGems versions are ordered the Bundler way, with its requirement syntax", () => {
    const ruby = versionOrder("rubygems");
    expect(ruby.compare(ruby.read("1.0.0.rc1") ?? "", ruby.read("1.0.0") ?? "")).toBe(-1);
    expect(ruby.satisfies("2.2.4", "~> 2.2")).toBe(true);
    expect(ruby.satisfies("3.0.0", "~> 2.2")).toBe(false);
  });
});

describe("SEC-07 on Gemfile.lock and composer.lock (loopback OSV, real HTTP client)", () => {
  it("a vulnerable transitive gem and a vulnerable Packagist package block, naming the advisory and the fix", async () => {
    const osv = await startFakeOsv();
    try {
      osv.add(
        record({
          id: "GHSA-test-rack-0100",
          ecosystem: "RubyGems",
          name: "rack",
          introduced: "2.0.0",
          fixed: "2.2.6.2",
          severity: "HIGH",
        }),
        record({
          id: "GHSA-test-psr7-0200",
          ecosystem: "Packagist",
          name: "guzzlehttp/psr7",
          fixed: "1.8.4",
          severity: "HIGH",
        }),
      );
      const lock = changedFile("Gemfile.lock", GEMFILE_LOCK, (l) => l.includes("rack (2.2.4)"));
      const composer = changedFile("composer.lock", COMPOSER_LOCK, () => true);
      const pr = buildPr({ files: [lock.spec, composer.spec] });
      const ctx = {
        ...detectContext(pr, { head: headFiles({ ...lock.head, ...composer.head, Gemfile: GEMFILE }) }),
        advisories: advisorySourceOver(osvApiRecords({ baseUrl: osv.url })),
      };
      const findings = await vulnerableDependenciesDetector.detect(ctx);
      expect(findings.map((f) => [f.file, f.package?.name, f.blocking, f.advisories?.[0]?.id])).toEqual([
        ["Gemfile.lock", "rack", true, "GHSA-test-rack-0100"],
        ["composer.lock", "guzzlehttp/psr7", true, "GHSA-test-psr7-0200"],
      ]);
      expect(findings[0]?.message).toContain("brought in by rails");
      expect(findings[0]?.message).toContain("Upgrade to 2.2.6.2");
      expect(
        osv.batches
          .flat()
          .map((q) => q.package.ecosystem)
          .sort(),
      ).toEqual(expect.arrayContaining(["Packagist", "RubyGems"]));
    } finally {
      await osv.close();
    }
  });
});
