import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GateError } from "../../../src/domain/errors.js";
import { lowerAscii } from "../../../src/investigator/tools/grep-pattern.js";
import { compilePattern, grepRepo } from "../../../src/investigator/tools/grep-repo.js";

let root: string;
let outside: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "gate-grep-"));
  outside = mkdtempSync(path.join(tmpdir(), "gate-grep-out-"));
  writeFileSync(path.join(outside, "leak.ts"), "const token = 'outside';\n");
  const put = (rel: string, text: string | Buffer): void => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  put(
    "src/auth/session.ts",
    "export function check(token) {\n  if (isExpired(token)) return false;\n  return verify(token);\n}\n",
  );
  put("src/b.js", "const Token = 1;\n");
  put("README.md", "token docs\n");
  put("node_modules/lib/index.js", "const token = 'dep';\n");
  put(".git/config", "token = git\n");
  put("bin/blob.dat", Buffer.concat([Buffer.from("token"), Buffer.from([0]), Buffer.from("token")]));
  put("big.txt", `token\n${"x".repeat(1024 * 1024 + 10)}`);
  symlinkSync(outside, path.join(root, "linked"));
  symlinkSync(path.join(outside, "leak.ts"), path.join(root, "leak.ts"));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe("grep_repo", () => {
  it("returns path:line:text for each match, in path order, skipping deps, .git, binaries and links", async () => {
    const out = await grepRepo(root, { pattern: "token" });
    expect(out.output.split("\n")).toEqual([
      "README.md:1:token docs",
      "big.txt:1:token",
      "src/auth/session.ts:1:export function check(token) {",
      "src/auth/session.ts:2:  if (isExpired(token)) return false;",
      "src/auth/session.ts:3:  return verify(token);",
    ]);
    expect(out.matches).toBe(5);
    expect(out.chars).toBe(out.output.length);
  });

  it("accepts a /pattern/flags literal", async () => {
    const out = await grepRepo(root, { pattern: "/^const token/i", glob: "*.js" });
    expect(out.output).toBe("src/b.js:1:const Token = 1;");
  });

  it("filters by glob on the path, and by file name for a glob without a slash", async () => {
    expect((await grepRepo(root, { pattern: "token", glob: "src/**/*.ts" })).matches).toBe(3);
    expect((await grepRepo(root, { pattern: "token", glob: "*.md" })).output).toBe("README.md:1:token docs");
  });

  it("stops at max_results and says so", async () => {
    const out = await grepRepo(root, { pattern: "token", max_results: 2 });
    expect(out.matches).toBe(2);
    expect(out.output).toMatch(/# stopped at max_results \(2\)$/);
  });

  it("says when nothing matched", async () => {
    const out = await grepRepo(root, { pattern: "no-such-word-anywhere" });
    expect(out).toMatchObject({ output: "(no matches)", chars: 0, matches: 0 });
  });

  it.each([
    ["an invalid regex", "(unclosed", /not a valid regular expression/],
    ["an over-long pattern", "a".repeat(301), /longer than 300/],
    ["an empty pattern", "", /non-empty/],
    ["a backreference", "(a)\\1", /no backreference \\1/],
    ["a named backreference", "(?<q>['\"]).*\\k<q>", /no named backreference/],
    ["a lookahead", "token(?=\\()", /no lookahead/],
    ["a negative lookahead", "token(?!s)", /no negative lookahead/],
    ["a lookbehind", "(?<=\\.)token", /no lookbehind/],
    ["a negative lookbehind", "(?<!\\.)token", /no negative lookbehind/],
    ["a program over the size cap", "(.{0,50}a){10}", /instructions \(at most 1000\)/],
  ])("refuses %s", (_name, pattern, message) => {
    expect(() => compilePattern(pattern)).toThrow(GateError);
    expect(() => compilePattern(pattern)).toThrow(message);
  });

  it("answers a refused pattern with a refusal the model can read, not an error", async () => {
    const out = await grepRepo(root, { pattern: "(['\"]).*\\1" });
    expect(out.output).toMatch(
      /^# refused: grep_repo matches with RE2 \(linear time\), which has no backreference \\1/,
    );
    expect(out).toMatchObject({ chars: 0, matches: 0 });
  });

  it.each([
    ["a nested quantifier", "(a+)+$"],
    ["a nested star", "(.*)*x"],
    ["repeated overlapping alternatives", "(a|aa)+$"],
    ["a quantified group with inner repetition", "(\\w+\\s?){3,}"],
    ["a lookaround-looking class", "[(?=]"],
  ])("accepts %s (RE2 matches it in linear time)", (_name, pattern) => {
    expect(compilePattern(pattern).cost).toBeGreaterThan(0);
  });

  it.each([
    ["a literal", "auditSession", [["auditSession"]]],
    ["a word-boundary identifier", "\\bverifyToken\\b", [["verifyToken"]]],
    ["an alternation", "SESSION_TTL|expireSession", [["SESSION_TTL", "expireSession"]]],
    ["a .* pattern, by all its literals, longest first", "logger\\..*password", [["password"], ["logger."]]],
  ])("narrows %s to the lines holding its literals", (_name, pattern, anchors) => {
    expect(compilePattern(pattern).anchors?.map((set) => set.map(String))).toEqual(anchors);
  });

  it("narrows a case-insensitive pattern by its literals in lower case", () => {
    const p = compilePattern("/session_?expir/i");
    expect(p).toMatchObject({ folded: true });
    expect(p.anchors?.map((set) => set.map(String))).toEqual([["session"], ["expir"]]);
    expect(p.line.test("const SESSION_EXPIRY = 1")).toBe(true);
  });

  it("lowers ASCII letters four bytes at a time exactly as byte by byte, and flags bytes outside ASCII", () => {
    // Every byte value in every lane of a word, plus a tail shorter than a word.
    const src = Buffer.alloc(256 * 4 + 3);
    for (let i = 0; i < src.length; i++) src[i] = (i >> 2) & 0xff;
    const dst = Buffer.alloc(src.length);
    expect(lowerAscii(src, dst)).toBe(false);
    const want = Buffer.from(src.map((c) => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c)));
    expect(dst.equals(want)).toBe(true);
    const ascii = Buffer.from("Const SESSION_Expiry = [Z@`{];\n");
    const lowered = Buffer.alloc(ascii.length);
    expect(lowerAscii(ascii, lowered)).toBe(true);
    expect(lowered.toString()).toBe("const session_expiry = [z@`{];\n");
  });

  it("finds case-insensitive matches in any case, and by Unicode folding in non-ASCII text", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gate-grep-fold-"));
    try {
      writeFileSync(path.join(dir, "a.ts"), "const SESSION_EXPIRY = 1;\nconst x = 2;\nlet Session_Expiry;\n");
      writeFileSync(path.join(dir, "b.ts"), "// \u017Fession_expiry (long s)\nconst ſessionExpiry = 0;\n");
      writeFileSync(path.join(dir, "c.ts"), "const sessionexpiry = 3;\n");
      const out = await grepRepo(dir, { pattern: "/session_?expir/i" });
      // Every line that matches in some case, and only those (line 2 of a.ts does not), text as written.
      const places = out.output.split("\n").map((line) => line.split(":", 2).join(":"));
      expect(places).toEqual(["a.ts:1", "a.ts:3", "b.ts:1", "b.ts:2", "c.ts:1"]);
      expect(out.output).toContain("a.ts:3:let Session_Expiry;");
      expect(out.output).toContain("b.ts:2:const ſessionExpiry = 0;");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads JavaScript syntax: named groups, \\u escapes, escaped slashes", async () => {
    expect(compilePattern("(?<name>tok)en").line.test("a token")).toBe(true);
    expect(compilePattern("\\u0074oken").line.test("token")).toBe(true);
    expect(compilePattern("/a\\/b/").line.test("x a/b")).toBe(true);
    expect(compilePattern("/TOKEN/i").line.test("token")).toBe(true);
  });

  it("stops when its signal is aborted", async () => {
    const many = mkdtempSync(path.join(tmpdir(), "gate-grep-many-"));
    try {
      for (let i = 0; i < 1200; i++) writeFileSync(path.join(many, `f${i}.txt`), "nothing\n");
      const controller = new AbortController();
      controller.abort();
      await expect(grepRepo(many, { pattern: "x" }, { signal: controller.signal })).rejects.toThrow(/aborted/);
    } finally {
      rmSync(many, { recursive: true, force: true });
    }
  });
});
