import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../src/package-paths.js";

const readme = fs.readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");

/** The rows of the README's "Where things are" table: behaviour, the files named, the tests named. */
function whereThingsAre(): Array<{ behaviour: string; files: string[]; tests: string[] }> {
  const section = readme.split("\n## Where things are\n")[1]?.split("\n## ")[0] ?? "";
  const named = (cell: string | undefined) => [...(cell ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| behaviour") && !line.startsWith("| ---"))
    .map((line) => {
      const [behaviour = "", files, tests] = line.slice(2, -2).split(" | ");
      return { behaviour, files: named(files), tests: named(tests) };
    });
}

describe("the README's Where things are table stays true", () => {
  const rows = whereThingsAre();

  it("has its rows", () => {
    expect(rows.length).toBeGreaterThan(30);
  });

  it("names only files that exist, and at least one for each behaviour", () => {
    for (const row of rows) {
      expect(row.files.length, row.behaviour).toBeGreaterThan(0);
      for (const file of row.files) expect(fs.existsSync(path.join(PACKAGE_ROOT, file)), file).toBe(true);
    }
  });

  it("names for each behaviour the tests that check it, and they exist", () => {
    for (const row of rows) {
      expect(row.tests.length, row.behaviour).toBeGreaterThan(0);
      for (const test of row.tests) {
        expect(test, row.behaviour).toMatch(/^test\//);
        expect(fs.existsSync(path.join(PACKAGE_ROOT, test)), test).toBe(true);
      }
    }
  });
});
