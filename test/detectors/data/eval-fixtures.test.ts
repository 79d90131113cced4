import { describe, expect, it } from "vitest";
import { detectFixture, evalFixtures } from "./eval-fixtures.js";

const DATA = /^DATA-/;
const risky = evalFixtures(["data-"]);
const clean = evalFixtures(["clean-"]);

describe("the data detectors on the evaluation corpus (fixtures/eval)", () => {
  it("has risky fixtures for DATA-01 and DATA-03 in three languages, and clean look-alikes", () => {
    for (const policy of ["DATA-01", "DATA-03"]) {
      const langs = new Set(
        risky.filter((n) => n.startsWith(policy === "DATA-01" ? "data-log" : "data-")).map((n) => n.split("-").pop()),
      );
      expect(langs.size, policy).toBeGreaterThanOrEqual(2);
    }
    expect(clean.length).toBeGreaterThanOrEqual(8);
  });

  it.each(risky)("%s: cites its data policy with a blocking finding", async (name) => {
    const { findings, expected } = await detectFixture(name);
    const wanted = expected.must_cite.filter((p) => DATA.test(p));
    expect(wanted.length).toBeGreaterThan(0);
    for (const id of wanted)
      expect(
        findings.some((f) => f.policy === id && f.blocking),
        id,
      ).toBe(true);
  });

  it.each(clean)("%s: raises none of the data policies it must not cite", async (name) => {
    const { findings, expected } = await detectFixture(name);
    const cited = new Set(findings.map((f) => f.policy));
    for (const id of expected.must_not_cite.filter((p) => DATA.test(p))) expect(cited, id).not.toContain(id);
  });
});
