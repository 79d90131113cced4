import { describe, expect, it } from "vitest";
import { corpusChecks, evalFixtures } from "../eval-corpus.js";

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

  corpusChecks({ family: "data", policies: /^DATA-/, risky, clean });
});
