import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../src/package-paths.js";

/** Folders of this repository that a path in a comment or a doc may name. */
const REPO_PATH = /(?<![\w/.-])(?:src|test|docs|policies|fixtures|bench)\/(?:[\w.-]+\/)*[\w.-]*[\w/]/g;
/** A Markdown file named in a comment: `docs/design.md`, `README.md`, `../x/FOO.md` (not `*.md`). */
const MD_FILE = /(?<![\w/.-])(?:\.\.?\/)*(?:[\w.-]+\/)*[\w-][\w.-]*\.md\b/g;
/** In code strings, only document-like names (`FIXTURES.md`) and `docs/` paths count as references. */
const MD_DOC_NAME = /(?<![\w/.-])(?:[\w.-]+\/)*[A-Z][A-Z0-9_-]*\.md\b/g;
const DOCS_PATH = /(?<![\w/.-])docs\/[\w./-]*[\w/]/g;
/** A relative Markdown link target: `[text](docs/claude.md#money)`. */
const MD_LINK = /\]\((?!https?:|mailto:|#)([^)#\s]+)/g;

/** Whether a named path exists, from the repository root or from the naming file's folder. */
function exists(fromFile: string, ref: string): boolean {
  return [PACKAGE_ROOT, path.dirname(fromFile)].some((base) => fs.existsSync(path.resolve(base, ref)));
}

/** A JSDoc comment without its `@example` sections (those show sample data, not our files). */
function withoutExamples(comment: string): string {
  const lines = comment.split("\n");
  const kept: string[] = [];
  let inExample = false;
  for (const line of lines) {
    const tag = /^\s*(?:\/\*\*|\*)?\s*@(\w+)/.exec(line)?.[1];
    if (tag) inExample = tag === "example";
    if (!inExample) kept.push(line);
  }
  return kept.join("\n");
}

/** The comments and the string literals of a TypeScript source, found by the compiler's parser. */
function commentsAndStrings(fileName: string, text: string): { comments: string[]; strings: string[] } {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const seen = new Set<number>();
  const comments: string[] = [];
  const strings: string[] = [];
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      comments.push(text.slice(r.pos, r.end));
    }
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) strings.push(node.text);
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return { comments, strings };
}

/**
 * The paths a file names that are not in the repository. TypeScript: comments (outside
 * `@example`) and document names in strings (error advice). Markdown: all of it, and its links.
 */
function missingReferences(file: string, text: string): string[] {
  const refs: string[] = [];
  if (file.endsWith(".md")) {
    for (const re of [REPO_PATH, MD_FILE]) refs.push(...[...text.matchAll(re)].map((m) => m[0]));
    // A link is followed from the linking file's folder, as GitHub renders it (never from the root).
    const links = [...text.matchAll(MD_LINK)].map((m) => m[1] ?? "");
    refs.push(
      ...links.filter((link) => !fs.existsSync(path.resolve(path.dirname(file), link))).map((l) => `link ${l}`),
    );
  } else {
    const { comments, strings } = commentsAndStrings(file, text);
    for (const c of comments.map(withoutExamples)) {
      for (const re of [REPO_PATH, MD_FILE]) refs.push(...[...c.matchAll(re)].map((m) => m[0]));
    }
    // A string that is one bare name ("LICENSE.md") is data a detector matches; sentences are advice.
    for (const s of strings.filter((text) => /\s/.test(text.trim()))) {
      for (const re of [MD_DOC_NAME, DOCS_PATH]) refs.push(...[...s.matchAll(re)].map((m) => m[0]));
    }
  }
  return [...new Set(refs)].filter((ref) => !exists(file, ref));
}

function filesUnder(dir: string, ext: string): string[] {
  return fs
    .readdirSync(path.join(PACKAGE_ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(ext))
    .map((f) => path.join(PACKAGE_ROOT, dir, f));
}

describe("the repository explains itself: every file it names exists", () => {
  it("finds a missing reference in a comment, a string and a link, and ignores examples", () => {
    const src = [
      "/** The contract, as DESIGN.md says (see src/nowhere/gone.ts). */",
      'const advice = "read FIXTURES.md";',
      'const names = ["LICENSE.md", "COPYING"];',
      "/**",
      " * Reads a file.",
      " *",
      ' * @example readFile(root, { path: "src/auth/session.ts" })',
      " *   // see notes/EXAMPLE.md",
      " */",
      'const glob = "*.md"; // every `*.md` file, and src/cli/main.ts which exists',
    ].join("\n");
    const file = path.join(PACKAGE_ROOT, "src/x.ts");
    expect(missingReferences(file, src).sort()).toEqual(["DESIGN.md", "FIXTURES.md", "src/nowhere/gone.ts"]);
    const md = "See [the design](docs/nope.md), `src/graph/` and [claude](docs/claude.md).";
    expect(missingReferences(path.join(PACKAGE_ROOT, "README.md"), md)).toEqual(["docs/nope.md", "link docs/nope.md"]);
    // The same link inside docs/ is followed from docs/: docs/docs/claude.md does not exist.
    expect(missingReferences(path.join(PACKAGE_ROOT, "docs/x.md"), "[claude](docs/claude.md)")).toEqual([
      "link docs/claude.md",
    ]);
  });

  it("the README names only files that exist", () => {
    const file = path.join(PACKAGE_ROOT, "README.md");
    expect(missingReferences(file, fs.readFileSync(file, "utf8"))).toEqual([]);
  });

  it("docs/ names only files that exist", () => {
    const docs = filesUnder("docs", ".md");
    expect(docs.length).toBeGreaterThanOrEqual(4);
    for (const f of docs) expect(missingReferences(f, fs.readFileSync(f, "utf8")), f).toEqual([]);
  });

  it("src/ comments and advice name only files that exist", () => {
    const sources = filesUnder("src", ".ts");
    expect(sources.length).toBeGreaterThan(100);
    const missing = sources.flatMap((f) =>
      missingReferences(f, fs.readFileSync(f, "utf8")).map((ref) => `${path.relative(PACKAGE_ROOT, f)}: ${ref}`),
    );
    expect(missing).toEqual([]);
  });

  it("ships a LICENSE matching package.json", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { license: string };
    const license = fs.readFileSync(path.join(PACKAGE_ROOT, "LICENSE"), "utf8");
    expect(pkg.license).toBe("MIT");
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} the PR compliance gate authors\n/);
  });
});
