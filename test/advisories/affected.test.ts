import { describe, expect, it } from "vitest";
import { affects } from "../../src/advisories/affected.js";
import { OsvRecordSchema } from "../../src/advisories/osv-record.js";
import { advisorySeverity } from "../../src/advisories/severity.js";
import type { AdvisoryQuery } from "../../src/domain/advisory-source.js";
import { GateError } from "../../src/domain/errors.js";
import { CARGO_SMALLVEC, GO_NET, LODASH, MINIMIST, PYYAML, record } from "./test-records.js";

const parse = (r: unknown) => OsvRecordSchema.parse(r);
const q = (ecosystem: AdvisoryQuery["ecosystem"], name: string, version: string): AdvisoryQuery => ({
  ecosystem,
  name,
  version,
});

describe("affects: OSV range semantics", () => {
  it("introduced 0 / fixed: affected below the fix, with the fix named; not at or above it", () => {
    expect(affects(parse(LODASH), q("npm", "lodash", "4.17.20"))).toMatchObject({
      id: "GHSA-test-lodash-0001",
      aliases: ["CVE-2099-0001"],
      severity: "high",
      severityFrom: "GitHub's rating",
      range: "<4.17.21",
      fixed: "4.17.21",
    });
    expect(affects(parse(LODASH), q("npm", "lodash", "4.17.21"))).toBeUndefined();
    expect(affects(parse(LODASH), q("npm", "lodash", "5.0.0"))).toBeUndefined();
  });

  it("introduced after 0: versions before it are not affected", () => {
    expect(affects(parse(MINIMIST), q("npm", "minimist", "0.2.4"))).toBeUndefined();
    expect(affects(parse(MINIMIST), q("npm", "minimist", "1.2.5"))).toMatchObject({ range: ">=1.0.0 <1.2.6" });
  });

  it("last_affected: that version is affected, the next is not, and no fix is named", () => {
    const r = parse(record({ id: "X-1", ecosystem: "npm", name: "a", introduced: "1.0.0", lastAffected: "1.4.0" }));
    expect(affects(r, q("npm", "a", "1.4.0"))).toMatchObject({ range: ">=1.0.0 <=1.4.0" });
    expect(affects(r, q("npm", "a", "1.4.0"))?.fixed).toBeUndefined();
    expect(affects(r, q("npm", "a", "1.4.1"))).toBeUndefined();
  });

  it("several intervals in one range, in any order: the one holding the version, with its own fix", () => {
    const r = parse({
      id: "X-2",
      affected: [
        {
          package: { ecosystem: "npm", name: "b" },
          ranges: [
            {
              type: "SEMVER",
              events: [{ introduced: "2.0.0" }, { fixed: "2.5.0" }, { introduced: "0" }, { fixed: "1.9.3" }],
            },
          ],
        },
      ],
    });
    expect(affects(r, q("npm", "b", "1.0.0"))?.fixed).toBe("1.9.3");
    expect(affects(r, q("npm", "b", "1.9.5"))).toBeUndefined();
    expect(affects(r, q("npm", "b", "2.1.0"))).toMatchObject({ range: ">=2.0.0 <2.5.0", fixed: "2.5.0" });
  });

  it("explicit versions[]: a listed version is affected even without a range", () => {
    const r = parse({
      id: "X-3",
      affected: [{ package: { ecosystem: "PyPI", name: "Some_Pkg" }, versions: ["1.0", "1.1"] }],
    });
    expect(affects(r, q("pypi", "some-pkg", "1.1"))).toMatchObject({ range: "a version the advisory lists" });
    expect(affects(r, q("pypi", "some-pkg", "1.2"))).toBeUndefined();
  });

  it("PyPI by PEP 440 (a pre-release is before its release), Go with its v, crates.io by semver", () => {
    expect(affects(parse(PYYAML), q("pypi", "pyyaml", "5.4rc1"))).toMatchObject({ fixed: "5.4" });
    expect(affects(parse(PYYAML), q("pypi", "PyYAML", "5.4"))).toBeUndefined();
    expect(affects(parse(GO_NET), q("go", "golang.org/x/net", "v0.16.0"))).toMatchObject({ fixed: "0.17.0" });
    expect(affects(parse(GO_NET), q("go", "golang.org/x/net", "v0.17.0"))).toBeUndefined();
    expect(affects(parse(CARGO_SMALLVEC), q("cargo", "smallvec", "1.6.0"))).toMatchObject({ fixed: "1.6.1" });
  });

  it("another ecosystem's package of the same name, a GIT range and a withdrawn record affect nothing", () => {
    expect(affects(parse(LODASH), q("pypi", "lodash", "1.0"))).toBeUndefined();
    const git = parse({
      id: "X-4",
      affected: [
        { package: { ecosystem: "npm", name: "c" }, ranges: [{ type: "GIT", events: [{ introduced: "0" }] }] },
      ],
    });
    expect(affects(git, q("npm", "c", "1.0.0"))).toBeUndefined();
    const gone = parse(
      record({ id: "X-5", ecosystem: "npm", name: "d", fixed: "2.0.0", withdrawn: "2026-01-01T00:00:00Z" }),
    );
    expect(affects(gone, q("npm", "d", "1.0.0"))).toBeUndefined();
  });

  it("a version the ecosystem's rules cannot read throws a coded error (the lookup then fails)", () => {
    expect(() => affects(parse(LODASH), q("npm", "lodash", "latest"))).toThrow(GateError);
    expect(() => affects(parse(LODASH), q("npm", "lodash", "4.17"))).toThrow(/cannot be compared/);
    const bad = parse(record({ id: "X-6", ecosystem: "npm", name: "e", fixed: "not-a-version" }));
    expect(() => affects(bad, q("npm", "e", "1.0.0"))).toThrow(/X-6 gives the version "not-a-version"/);
  });
});

describe("advisorySeverity", () => {
  it("takes GitHub's rating first, then the newest CVSS vector, else high", () => {
    expect(advisorySeverity(parse(MINIMIST))).toEqual({ severity: "critical", from: "GitHub's rating" });
    expect(advisorySeverity(parse(PYYAML))).toEqual({ severity: "critical", from: "CVSS 9.8" });
    expect(advisorySeverity(parse(CARGO_SMALLVEC))).toEqual({ severity: "moderate", from: "CVSS 5.9" });
    const v4 = parse({
      id: "X-7",
      severity: [
        { type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N" },
        { type: "CVSS_V4", score: "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N" },
      ],
    });
    expect(advisorySeverity(v4)).toEqual({ severity: "critical", from: "CVSS 9.3" });
    expect(advisorySeverity(parse(GO_NET))).toEqual({ severity: "high", from: "no severity given, counted as high" });
    expect(advisorySeverity(parse({ id: "X-8", severity: [{ type: "CVSS_V3", score: "garbage" }] })).severity).toBe(
      "high",
    );
    expect(advisorySeverity(parse({ id: "X-9", database_specific: { severity: "MODERATE" } })).severity).toBe(
      "moderate",
    );
  });
});
