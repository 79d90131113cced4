import { describe, expect, it } from "vitest";
import { languagePatch, prOf, SERVICE_CODE } from "../../bench/language-bench.js";
import { ALL_DETECTORS } from "../../src/detectors/index.js";
import { syntaxOfPatch } from "../../src/detectors/code/syntax-tree.js";
import { detectContext } from "../detectors/pr-builder.js";

// Not a timing test: the languages stage compares like with like only if every language's file
// is valid code of the same shape that no detector flags (a parse error or a finding would make
// one side read less, or differently, than the other).
describe("npm run bench, languages stage: the service code", () => {
  const LINES = 200;
  const entries = Object.entries(SERVICE_CODE);

  it("has JavaScript as the baseline and the same ten lines in every language", () => {
    expect(entries.map(([lang]) => lang)).toEqual([
      "javascript",
      "java",
      "kotlin",
      "csharp",
      "php",
      "ruby",
      "rust",
      "bash",
      "scala",
      "swift",
      "c",
      "cpp",
      "dart",
      "elixir",
      "lua",
    ]);
    for (const [, { lines }] of entries) expect(lines).toHaveLength(10);
  });

  it.each(entries)("%s parses without an error node and gives no finding", async (_lang, { path, lines, around }) => {
    const patch = languagePatch(lines, LINES, around);
    expect(patch.split("\n")).toHaveLength(LINES + 1);
    const pr = prOf(path, patch, LINES);
    const file = pr.files[0];
    expect(file).toBeDefined();
    const syntax = file ? syntaxOfPatch(file) : undefined;
    expect(syntax).toBeDefined();
    expect(syntax?.root.findAll({ rule: { kind: "ERROR" } })).toHaveLength(0);
    const notRead: Array<{ file: string; detail: string }> = [];
    const ctx = detectContext(pr, { notRead });
    const findings = (await Promise.all(ALL_DETECTORS.map((d) => d.detect(ctx)))).flat();
    expect(findings).toEqual([]);
    expect(notRead).toEqual([]);
  });
});
