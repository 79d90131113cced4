import { describe, expect, it } from "vitest";
import { corpusChecks, evalFixtures } from "../eval-corpus.js";

const risky = evalFixtures(["data-", "lang-data0"]);
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

  it("has risky fixtures and clean look-alikes in Java, Kotlin, C#, PHP, Ruby and Rust", () => {
    for (const lang of ["java", "kotlin", "csharp", "php", "ruby", "rust"]) {
      expect(risky.filter((n) => n.startsWith(`lang-data0`) && n.includes(`-${lang}-`)).length, lang).toBeGreaterThan(
        0,
      );
    }
    expect(clean.filter((n) => n.startsWith("clean-lang-data0")).length).toBeGreaterThanOrEqual(6);
  });

  corpusChecks({ family: "data", policies: /^DATA-/, risky, clean });
});
