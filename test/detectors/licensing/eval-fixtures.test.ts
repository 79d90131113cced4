import { describe, expect, it } from "vitest";
import { detectFixture, evalFixtures } from "../data/eval-fixtures.js";

const LIC = /^LIC-/;
const risky = evalFixtures(["lic-"]);
const clean = evalFixtures(["clean-"]);

describe("the licensing detectors on the evaluation corpus (fixtures/eval)", () => {
  it("covers copied copyleft source and every manifest kind", () => {
    expect(risky.filter((n) => /header|spdx|tag|copying|comment/.test(n)).length).toBeGreaterThanOrEqual(4);
    for (const kind of ["setup-py", "setup-cfg", "pipfile", "poetry", "gomod", "cargo"]) {
      expect(
        risky.some((n) => n.includes(kind)),
        kind,
      ).toBe(true);
    }
  });

  it.each(risky)("%s: cites its licensing policy with a blocking finding", async (name) => {
    const { findings, expected } = await detectFixture(name);
    const wanted = expected.must_cite.filter((p) => LIC.test(p));
    expect(wanted.length).toBeGreaterThan(0);
    for (const id of wanted)
      expect(
        findings.some((f) => f.policy === id && f.blocking),
        id,
      ).toBe(true);
  });

  it.each(clean)("%s: raises no licensing policy it must not cite, and nothing blocking of its own", async (name) => {
    const { findings, expected } = await detectFixture(name);
    const cited = new Set(findings.map((f) => f.policy));
    for (const id of expected.must_not_cite.filter((p) => LIC.test(p))) expect(cited, id).not.toContain(id);
    expect(findings.filter((f) => f.specialty === "licensing" && f.blocking)).toEqual([]);
  });
});
