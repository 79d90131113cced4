import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ecosystem as EcosystemId } from "../../src/domain/license-resolver.js";
import type { ChangedFile } from "../../src/domain/pull-request.js";
import type { Ecosystem, RegistryUrls } from "../../src/ecosystems/index.js";
import { ECOSYSTEMS, isLockfile, isManifest } from "../../src/ecosystems/index.js";
import { changedDependencies } from "../../src/ecosystems/common/changed-dependencies.js";
import { documentChanges } from "../../src/ecosystems/common/document-changes.js";
import { isDocumentParser } from "../../src/ecosystems/common/manifest-parser.js";
import { loadFixturePullRequest } from "../../src/fixture/fixture.js";
import { FAST_RETRY, startFakeRegistry, type FakeRegistry } from "../fakes/registry.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures");

/** What every registered ecosystem must show: a fixture it reads, two versions in order, a range, a licence. */
interface Contract {
  /** A fixture under fixtures/ whose changed manifests or lockfiles this ecosystem reads; absent only for one with no readers. */
  fixture?: string;
  /** A dependency (name and version) its readers must find in the fixture. */
  finds?: { name: string; version: string };
  /** Two versions, the lower first. */
  ordered: [string, string];
  /** A range written the ecosystem's way, a version inside it and one outside. */
  range: { range: string; inside: string; outside: string };
  /** A package whose licence the loopback registry answers, set up by `serve`; absent when the gate reads no licence. */
  licence?: { serve(reg: FakeRegistry): void; name: string; version: string; license: string };
}

const CONTRACTS: Record<string, Contract> = {
  npm: {
    fixture: "018_vulnerable_dependency",
    finds: { name: "lodash", version: "4.17.20" },
    ordered: ["1.2.3", "1.10.0"],
    range: { range: "^1.2.0", inside: "1.10.0", outside: "2.0.0" },
    licence: {
      serve: (reg) =>
        reg.npm.set("left-pad", { "dist-tags": { latest: "1.3.0" }, versions: { "1.3.0": { license: "MIT" } } }),
      name: "left-pad",
      version: "1.3.0",
      license: "MIT",
    },
  },
  pypi: {
    fixture: "eval/lic-pipfile-gpl",
    finds: { name: "markdown-wiki", version: "" },
    ordered: ["1.0rc1", "1.0"],
    range: { range: ">=1.0,<2", inside: "1.5", outside: "2.0" },
    licence: {
      serve: (reg) => reg.pypi.set("requests/2.31.0/json", { info: { license_expression: "Apache-2.0" } }),
      name: "requests",
      version: "2.31.0",
      license: "Apache-2.0",
    },
  },
  go: {
    fixture: "eval/lic-gomod-gpl",
    finds: { name: "github.com/gridlabs/fastcsv", version: "" },
    ordered: ["v1.2.3", "v1.10.0"],
    range: { range: ">=1.2.0 <2.0.0", inside: "v1.10.0", outside: "v2.0.0" },
    licence: {
      serve: (reg) => reg.go.set("github.com/pkg/errors/versions/v0.9.1", { licenses: ["BSD-2-Clause"] }),
      name: "github.com/pkg/errors",
      version: "v0.9.1",
      license: "BSD-2-Clause",
    },
  },
  cargo: {
    fixture: "eval/lic-cargo-gpl",
    finds: { name: "webp-encode", version: "" },
    ordered: ["0.9.0", "1.0.0-beta.1"],
    range: { range: "^1.0", inside: "1.4.2", outside: "0.9.9" },
    licence: {
      serve: (reg) => reg.crates.set("serde/1.0.197", { version: { num: "1.0.197", license: "MIT OR Apache-2.0" } }),
      name: "serde",
      version: "1.0.197",
      license: "MIT OR Apache-2.0",
    },
  },
  maven: {
    fixture: "eval/sec-vuln-maven-log4j-core",
    finds: { name: "org.apache.logging.log4j:log4j-core", version: "2.14.1" },
    ordered: ["1.0-alpha-1", "1.0"],
    range: { range: "[1.0,2.0)", inside: "1.5", outside: "2.0" },
    licence: {
      serve: (reg) => reg.maven.set("org.acme:pdf-kit/versions/3.2.1", { licenses: ["AGPL-3.0-only"] }),
      name: "org.acme:pdf-kit",
      version: "3.2.1",
      license: "AGPL-3.0-only",
    },
  },
  nuget: {
    fixture: "eval/sec-vuln-nuget-newtonsoft-json",
    finds: { name: "Newtonsoft.Json", version: "12.0.1" },
    ordered: ["1.0.0-beta", "1.0.0"],
    range: { range: "[1.0,2.0)", inside: "1.5.0", outside: "2.0.0" },
    licence: {
      serve: (reg) => reg.nuget.set("Serilog/versions/4.0.1", { licenses: ["Apache-2.0"] }),
      name: "Serilog",
      version: "4.0.1",
      license: "Apache-2.0",
    },
  },
  composer: {
    fixture: "eval/sec-vuln-composer-guzzle",
    finds: { name: "guzzlehttp/guzzle", version: "7.4.4" },
    ordered: ["1.0.0-RC1", "1.0.0"],
    range: { range: ">=1.0 <2.0", inside: "1.5.0", outside: "2.0.0" },
    licence: {
      serve: (reg) =>
        reg.packagist.set("monolog/monolog.json", {
          packages: { "monolog/monolog": [{ version: "3.7.0", version_normalized: "3.7.0.0", license: ["MIT"] }] },
        }),
      name: "monolog/monolog",
      version: "3.7.0",
      license: "MIT",
    },
  },
  rubygems: {
    fixture: "eval/sec-vuln-gemfile-lock-nokogiri",
    finds: { name: "nokogiri", version: "" },
    ordered: ["1.0.0.rc1", "1.0.0"],
    range: { range: "~> 1.2", inside: "1.5", outside: "2.0" },
    licence: {
      serve: (reg) => reg.gemVersions.set("rack/versions/3.1.7.json", { licenses: ["MIT"] }),
      name: "rack",
      version: "3.1.7",
      license: "MIT",
    },
  },
  "github-actions": {
    ordered: ["v4.1.0", "v4.10.0"],
    range: { range: ">=4.0.0 <5.0.0", inside: "v4.2.1", outside: "v5.0.0" },
  },
};

/** The fake registry's address for each licence-registry setting. */
const FAKE_URL: Record<keyof RegistryUrls, keyof FakeRegistry> = {
  npmRegistryUrl: "npmUrl",
  pypiUrl: "pypiUrl",
  cratesUrl: "cratesUrl",
  goLicenseUrl: "goUrl",
  mavenLicenseUrl: "mavenUrl",
  nugetLicenseUrl: "nugetUrl",
  packagistUrl: "packagistUrl",
  rubygemsUrl: "rubygemsUrl",
};

/** Every dependency the ecosystem's parsers and version readers find in one changed file of a fixture. */
function read(e: Ecosystem, file: ChangedFile, head: string | undefined): { name: string; version?: string }[] {
  const found: { name: string; version?: string }[] = [];
  for (const parser of e.manifestParsers.filter((p) => p.matches(file.filename))) {
    if (isDocumentParser(parser)) {
      const got = documentChanges(parser, file, head);
      if (!("unread" in got)) found.push(...got.changes);
    } else found.push(...changedDependencies(parser, file, head));
  }
  for (const reader of e.versionReaders.filter((r) => r.matches(file.filename))) {
    const got = reader.read(file, head);
    if ("pinned" in got) found.push(...got.pinned);
  }
  return found;
}

let reg: FakeRegistry;
beforeAll(async () => {
  reg = await startFakeRegistry();
});
afterAll(() => reg.close());

it("every registered ecosystem has a contract below, and no two share a name", () => {
  const names = ECOSYSTEMS.map((e) => e.name);
  expect(new Set(names).size).toBe(names.length);
  expect(names.filter((n) => CONTRACTS[n] === undefined)).toEqual([]);
});

describe.each(ECOSYSTEMS.map((e) => [e.name, e] as const))("ecosystem %s", (name, e) => {
  const contract = CONTRACTS[name] as Contract;

  it("reads its fixture's changed manifests and lockfiles, each of which it names as one", () => {
    if (contract.fixture === undefined) {
      expect(e.manifestParsers.length + e.versionReaders.length).toBe(0);
      return;
    }
    const at = contract.fixture.split("/");
    const pr = loadFixturePullRequest(join(FIXTURES, ...at.slice(0, -1)), at.at(-1) as string);
    const mine = pr.files.filter(
      (f) =>
        e.manifestParsers.some((p) => p.matches(f.filename)) || e.versionReaders.some((r) => r.matches(f.filename)),
    );
    expect(mine.length).toBeGreaterThan(0);
    const found = mine.flatMap((f) => {
      expect(isManifest(f.filename) || isLockfile(f.filename)).toBe(true);
      const path = join(FIXTURES, contract.fixture as string, "repo", f.filename);
      return read(e, f, existsSync(path) ? readFileSync(path, "utf8") : undefined);
    });
    const wanted = contract.finds as { name: string; version: string };
    expect(found.map((d) => d.name)).toContain(wanted.name);
    if (wanted.version !== "") {
      expect(found.filter((d) => d.name === wanted.name).map((d) => d.version)).toContain(wanted.version);
    }
  });

  it("orders two versions and matches a range", () => {
    const order = e.versionOrder();
    const [low, high] = contract.ordered.map((v) => order.read(v)) as [string | undefined, string | undefined];
    expect(low).toBeDefined();
    expect(high).toBeDefined();
    expect(order.compare(low as string, high as string)).toBeLessThan(0);
    expect(order.compare(high as string, low as string)).toBeGreaterThan(0);
    const { range, inside, outside } = contract.range;
    expect(order.satisfies(order.read(inside) as string, range)).toBe(true);
    expect(order.satisfies(order.read(outside) as string, range)).toBe(false);
  });

  it("resolves a licence through its registry client, on the loopback registry", async () => {
    if (contract.licence === undefined || e.licenseRegistry === undefined) {
      expect(contract.licence).toBeUndefined();
      expect(e.licenseRegistry).toBeUndefined();
      return;
    }
    contract.licence.serve(reg);
    const client = e.licenseRegistry.create(
      { retry: FAST_RETRY },
      reg[FAKE_URL[e.licenseRegistry.urlSetting]] as string,
    );
    const { name: pkg, version, license } = contract.licence;
    expect(await client.lookup(name as EcosystemId, pkg, version)).toEqual({ status: "found", license });
  });
});
