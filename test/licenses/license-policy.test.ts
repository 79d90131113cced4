import { describe, expect, it } from "vitest";
import { ALLOWED_LICENSES, classifyLicense, isStrongCopyleft } from "../../src/licenses/license-policy.js";

describe("classifyLicense", () => {
  it.each([
    ["MIT", true, false],
    ["Apache-2.0", true, false],
    ["BlueOak-1.0.0", true, false],
    ["MIT OR GPL-3.0-only", true, false],
    ["GPL-3.0-only", false, true],
    ["AGPL-3.0-or-later", false, true],
    ["SSPL-1.0", false, true],
    ["EUPL-1.2", false, true],
    ["OSL-3.0", false, true],
    ["GPL-2.0-only OR AGPL-3.0-only", false, true],
    ["MIT AND GPL-2.0-only", false, true],
    ["(MIT OR ISC) AND AGPL-3.0-or-later", false, true],
    ["(MIT OR Apache-2.0) AND (GPL-2.0-only OR BSD-3-Clause)", true, false],
    ["LGPL-2.1-only", false, false],
    ["MPL-2.0", false, false],
    ["Apache-2.0 WITH LLVM-exception", true, false],
    ["LicenseRef-Proprietary", false, false],
  ])("%s → allowed %s, copyleft %s", (expression, allowed, copyleft) => {
    expect(classifyLicense(expression)).toMatchObject({ parsed: true, allowed, copyleft });
  });

  it("maps deprecated GNU ids to -only / -or-later without crashing", () => {
    expect(classifyLicense("GPL-3.0")).toMatchObject({ copyleft: true, normalized: "GPL-3.0-only" });
    expect(classifyLicense("GPL-2.0+")).toMatchObject({ copyleft: true, normalized: "GPL-2.0-or-later" });
    expect(classifyLicense("AGPL-3.0")).toMatchObject({ copyleft: true, normalized: "AGPL-3.0-only" });
    expect(classifyLicense("LGPL-2.1")).toMatchObject({ copyleft: false, allowed: false, normalized: "LGPL-2.1-only" });
    expect(classifyLicense("GPL-2.0-with-classpath-exception")).toMatchObject({
      copyleft: true,
      normalized: "GPL-2.0-only WITH Classpath-exception-2.0",
    });
  });

  it("reads the old crates.io slash form as OR", () => {
    expect(classifyLicense("MIT/Apache-2.0")).toMatchObject({
      parsed: true,
      allowed: true,
      normalized: "MIT OR Apache-2.0",
    });
  });

  it.each([
    undefined,
    "",
    "  ",
    "UNLICENSED",
    "NOASSERTION",
    "SEE LICENSE IN LICENSE.txt",
    "MIT License",
    "GPL v3",
    "(MIT",
  ])("treats %j as unknown: not parsed, not allowed, not copyleft", (expression) => {
    expect(classifyLicense(expression)).toMatchObject({ parsed: false, allowed: false, copyleft: false });
  });

  it("keeps the allow-list of docs/policies.md", () => {
    expect([...ALLOWED_LICENSES].sort()).toEqual(
      [
        "0BSD",
        "Apache-2.0",
        "BSD-2-Clause",
        "BSD-3-Clause",
        "BlueOak-1.0.0",
        "CC0-1.0",
        "ISC",
        "MIT",
        "Python-2.0",
        "Unlicense",
        "Zlib",
      ].sort(),
    );
  });
});

describe("isStrongCopyleft", () => {
  it("names GPL, AGPL, SSPL, EUPL and OSL, never LGPL", () => {
    expect(["GPL-2.0-only", "AGPL-3.0-only", "SSPL-1.0", "EUPL-1.1", "OSL-2.1"].every(isStrongCopyleft)).toBe(true);
    expect(["LGPL-3.0-only", "MPL-2.0", "MIT", "CC-BY-SA-4.0"].some(isStrongCopyleft)).toBe(false);
  });
});
