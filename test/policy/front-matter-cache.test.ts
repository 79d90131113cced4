import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED_POLICIES_DIR } from "../../src/package-paths.js";
import {
  cachedFrontMatter,
  FRONT_MATTER,
  parseFrontMatter,
  writeParsedPolicies,
} from "../../src/policy/front-matter-cache.js";
import { tempDir } from "../helpers/gate.js";

const shippedTexts = () =>
  fs
    .readdirSync(BUNDLED_POLICIES_DIR)
    .filter((n) => n.endsWith(".md") && n.toLowerCase() !== "readme.md")
    .map((n) => FRONT_MATTER.exec(fs.readFileSync(path.join(BUNDLED_POLICIES_DIR, n), "utf8"))?.[1] ?? "");

describe("policy front matter parsed once", () => {
  it("answers every shipped policy exactly as YAML reads it, rule lines included", () => {
    const texts = shippedTexts();
    expect(texts.length).toBe(13);
    for (const text of texts) expect(cachedFrontMatter(text)).toEqual(parseFrontMatter(text));
  });

  it("parses a text that differs by one byte from a known one, not the known answer", () => {
    const [text] = shippedTexts();
    const changed = (text ?? "").replace(/^id: ([A-Z]+)-(\d+)/m, "id: $1-9$2");
    expect(changed).not.toBe(text);
    expect((cachedFrontMatter(changed).meta as { id: string }).id).toMatch(/-9\d+$/);
  });

  it("gives each caller its own copy: a change to one answer is not seen by the next", () => {
    const text = "id: ACME-01\ntags: [a, b]\nrules:\n  - id: r1\n    rule: { pattern: eval($X) }\n";
    const first = cachedFrontMatter(text);
    (first.meta as { tags: string[] }).tags.push("changed");
    first.ruleLines.push(99);
    const second = cachedFrontMatter(text);
    expect((second.meta as { tags: string[] }).tags).toEqual(["a", "b"]);
    expect(second.ruleLines).toEqual(parseFrontMatter(text).ruleLines);
    expect(second.ruleLines).toHaveLength(1);
  });

  it("still throws for front matter that is not YAML, every time", () => {
    expect(() => cachedFrontMatter("id: [unclosed")).toThrow();
    expect(() => cachedFrontMatter("id: [unclosed")).toThrow();
  });

  it("writes the build's file with one entry per policy, in a form JSON keeps exactly", () => {
    const file = path.join(tempDir("parsed-policies-"), "parsed.json");
    expect(writeParsedPolicies(BUNDLED_POLICIES_DIR, file)).toBe(13);
    const entries = JSON.parse(fs.readFileSync(file, "utf8")) as { text: string; meta: unknown; ruleLines: number[] }[];
    for (const e of entries) expect({ meta: e.meta, ruleLines: e.ruleLines }).toEqual(parseFrontMatter(e.text));
  });
});
