import type { FakeOsvRecord } from "../fakes/osv-api.js";

/** One OSV record for tests: a package, one range (introduced → fixed or last_affected), a severity. */
export function record(spec: {
  id: string;
  ecosystem: string;
  name: string;
  introduced?: string;
  fixed?: string;
  lastAffected?: string;
  versions?: string[];
  rangeType?: string;
  severity?: string;
  cvss?: { type: string; score: string };
  aliases?: string[];
  summary?: string;
  withdrawn?: string;
}): FakeOsvRecord {
  const events = [
    { introduced: spec.introduced ?? "0" },
    ...(spec.fixed ? [{ fixed: spec.fixed }] : []),
    ...(spec.lastAffected ? [{ last_affected: spec.lastAffected }] : []),
  ];
  return {
    schema_version: "1.6.0",
    id: spec.id,
    modified: "2026-01-01T00:00:00Z",
    aliases: spec.aliases ?? [],
    summary: spec.summary ?? `A flaw in ${spec.name}`,
    ...(spec.withdrawn ? { withdrawn: spec.withdrawn } : {}),
    affected: [
      {
        package: { ecosystem: spec.ecosystem, name: spec.name },
        ranges: [{ type: spec.rangeType ?? (spec.ecosystem === "PyPI" ? "ECOSYSTEM" : "SEMVER"), events }],
        ...(spec.versions ? { versions: spec.versions } : {}),
      },
    ],
    ...(spec.cvss ? { severity: [spec.cvss] } : {}),
    ...(spec.severity ? { database_specific: { severity: spec.severity } } : {}),
  };
}

/** The advisories the tests know, one per ecosystem and case. */
export const LODASH = record({
  id: "GHSA-test-lodash-0001",
  aliases: ["CVE-2099-0001"],
  ecosystem: "npm",
  name: "lodash",
  fixed: "4.17.21",
  severity: "HIGH",
  summary: "Command injection through a template helper in lodash",
});
export const MINIMIST = record({
  id: "GHSA-test-minimist-0002",
  ecosystem: "npm",
  name: "minimist",
  introduced: "1.0.0",
  fixed: "1.2.6",
  severity: "CRITICAL",
  summary: "Prototype pollution in minimist",
});
export const TINY_LOW = record({
  id: "GHSA-test-tiny-0003",
  ecosystem: "npm",
  name: "tiny-helper",
  fixed: "2.0.0",
  severity: "LOW",
  summary: "A small information leak in tiny-helper",
});
export const PYYAML = record({
  id: "PYSEC-2099-10",
  aliases: ["CVE-2099-0010"],
  ecosystem: "PyPI",
  name: "PyYAML",
  introduced: "5.1",
  fixed: "5.4",
  cvss: { type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" },
  summary: "Arbitrary code execution when loading untrusted YAML",
});
export const GO_NET = record({
  id: "GO-2099-0020",
  ecosystem: "Go",
  name: "golang.org/x/net",
  fixed: "0.17.0",
  summary: "Request smuggling in golang.org/x/net's HTTP/2 server",
});
export const CARGO_SMALLVEC = record({
  id: "RUSTSEC-2099-0030",
  ecosystem: "crates.io",
  name: "smallvec",
  introduced: "1.0.0",
  fixed: "1.6.1",
  cvss: { type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:H" },
  summary: "Buffer overflow in smallvec's insert_many",
});

/** Every record above. */
export const ALL_RECORDS = [LODASH, MINIMIST, TINY_LOW, PYYAML, GO_NET, CARGO_SMALLVEC];
