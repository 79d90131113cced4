import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { PACKAGE_ROOT } from "../src/package-paths.js";

/** The repository's own text: code, docs, scripts and the files at its root (not the changelog's history, not fixtures). */
const FOLDERS = ["src", "test", "scripts", "docs", "bench", "config", "policies", ".ci"];
const ROOT_FILES = [
  "README.md",
  "Dockerfile",
  "compose.yaml",
  "app.yml",
  "manifest.yml",
  "action.yml",
  "gate.env.example",
];
const TEXT = /\.(?:ts|cts|mts|js|md|ya?ml|sh|json|example)$|^[^.]+$/;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(PACKAGE_ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return filesUnder(rel);
    return TEXT.test(e.name) ? [rel] : [];
  });
}

/** A file's text with line breaks and the comment marks that start a continued line made spaces. */
function flat(file: string): string {
  return fs.readFileSync(path.join(PACKAGE_ROOT, file), "utf8").replace(/\n[ \t]*(?:\/\/|#|\*(?!\*)|--)?[ \t]*/g, " ");
}

/** A Markdown file's headings, without `#`s, backticks, or what follows a colon. */
function headings(markdownFile: string): string[] {
  return fs
    .readFileSync(path.join(PACKAGE_ROOT, markdownFile), "utf8")
    .split("\n")
    .filter((l) => /^#+ /.test(l))
    .map((l) => l.replace(/^#+ /, "").replaceAll("`", "").trim());
}

/** Whether a cited section is one of the headings: it starts with a heading's words, or is the start of one. */
function cites(section: string, heads: string[]): boolean {
  const s = section.replaceAll("`", "").trim();
  return heads.some((h) => {
    const stem = h.split(":")[0]?.trim() ?? h;
    return s.startsWith(stem) || h.startsWith(s);
  });
}

/**
 * Every section citation: `(README, Settings)`, `README, "Run in a container"`, `README's "Policies"`,
 * `(docs/operations.md, "Run in a container")`. Returns the file cited and the section's words. A
 * docs/ file's section is cited in quotes (unquoted words there name a numbered reason or a paragraph).
 */
function citations(text: string): Array<{ doc: string; section: string }> {
  const out: Array<{ doc: string; section: string }> = [];
  const doc = String.raw`(README(?:\.md)?|docs\/[\w-]+\.md)`;
  for (const m of text.matchAll(new RegExp(String.raw`${doc}(?:'s|,)\s+"([A-Z0-9\x60][^"]*)"`, "g"))) {
    out.push({ doc: m[1] ?? "", section: m[2] ?? "" });
  }
  for (const m of text.matchAll(/\(README(?:\.md)?,\s+([A-Z0-9`][^)"]*?)\)/g)) {
    out.push({ doc: "README", section: m[1] ?? "" });
  }
  return out.map((c) => ({ ...c, doc: c.doc.startsWith("README") ? "README.md" : c.doc }));
}

describe("sections cited in the repository's files exist where they are cited", () => {
  // This file's own examples are not citations.
  const files = [...FOLDERS.flatMap(filesUnder), ...ROOT_FILES].filter((f) => f !== "test/doc-citations.test.ts");

  it("finds the citations (the forms above are the ones the repository uses)", () => {
    const all = files.flatMap((f) => citations(flat(f)));
    expect(all.length).toBeGreaterThan(30);
    expect(citations('x (README, Settings) y README, "Run it" (docs/operations.md, "Backups")')).toEqual([
      { doc: "README.md", section: "Run it" },
      { doc: "docs/operations.md", section: "Backups" },
      { doc: "README.md", section: "Settings" },
    ]);
  });

  it("every README or docs/ section named is a heading of that file (sections that moved say where to)", () => {
    const heads = new Map<string, string[]>();
    const wrong: string[] = [];
    for (const file of files) {
      for (const c of citations(flat(file))) {
        if (!fs.existsSync(path.join(PACKAGE_ROOT, c.doc))) {
          wrong.push(`${file}: ${c.doc} does not exist`);
          continue;
        }
        if (!heads.has(c.doc)) heads.set(c.doc, headings(c.doc));
        if (!cites(c.section, heads.get(c.doc) ?? [])) wrong.push(`${file}: ${c.doc} has no section "${c.section}"`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("the README and manifest.yml name the same bot", () => {
  it("`/invite @<name>` uses the bot user's display name, in the README, the docs and the manifest's comment", () => {
    const manifest = YAML.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "manifest.yml"), "utf8")) as {
      features: { bot_user: { display_name: string } };
    };
    const name = manifest.features.bot_user.display_name;
    const invites = ["README.md", "manifest.yml", ...filesUnder("docs")].flatMap((f) =>
      [...flat(f).matchAll(/\/invite @([^`)\s]+(?: [A-Z]\w+)*)/g)].map((m) => `${f}: ${m[1]}`),
    );
    expect(invites.some((i) => i.startsWith("README.md: "))).toBe(true);
    expect(invites.filter((i) => !i.endsWith(`: ${name}`))).toEqual([]);
  });
});
