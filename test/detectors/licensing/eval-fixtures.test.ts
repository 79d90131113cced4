import { describe, expect, it } from "vitest";
import { corpusChecks, evalFixtures } from "../eval-corpus.js";

const risky = evalFixtures(["lic-"]);
const clean = evalFixtures(["clean-"]);

describe("the licensing detectors on the evaluation corpus (fixtures/eval)", () => {
  it("covers copied copyleft source and every manifest kind", () => {
    expect(risky.filter((n) => /header|spdx|tag|copying|comment/.test(n)).length).toBeGreaterThanOrEqual(4);
    for (const kind of [
      "setup-py",
      "setup-cfg",
      "pipfile",
      "poetry",
      "gomod",
      "cargo",
      "maven-pom",
      "gradle-kts",
      "gradle-groovy",
      "gradle-catalog",
      "nuget-csproj",
      "nuget-packages-config",
      "nuget-central-props",
      "composer",
      "gemfile",
      "gemspec",
    ]) {
      expect(
        risky.some((n) => n.includes(kind)),
        kind,
      ).toBe(true);
    }
  });

  it("has, for each manifest kind read since Maven, a runtime copyleft case, a development one and an unknown licence", () => {
    for (const kind of [
      "maven-pom",
      "gradle-catalog",
      "nuget-csproj",
      "nuget-packages-config",
      "composer",
      "gemfile",
      "gemspec",
    ]) {
      expect(risky, kind).toContain(`lic-${kind}-gpl`);
      expect(risky, kind).toContain(`lic-${kind}-unknown`);
      expect(
        clean.some((n) => n.startsWith(`clean-${kind}-`) && /gpl/.test(n)),
        kind,
      ).toBe(true);
    }
  });

  corpusChecks({
    family: "licensing",
    policies: /^LIC-/,
    risky,
    clean,
    // A clean fixture raises nothing blocking of its own in licensing either.
    alsoClean: (findings) => expect(findings.filter((f) => f.specialty === "licensing" && f.blocking)).toEqual([]),
  });
});
