import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GateError } from "../../src/domain/errors.js";
import { resolveInSandbox, sandboxRoot } from "../../src/snapshot/sandbox.js";
import type { SnapshotRef } from "../../src/domain/snapshot-ref.js";
import { grepRepo, listDir, readFile } from "../../src/investigator/tools/index.js";

const MARKER = "TOP-SECRET-MARKER-7f3a";
let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(path.join(tmpdir(), "gate-sandbox-"));
  root = path.join(base, "snap");
  mkdirSync(path.join(base, "outside"), { recursive: true });
  writeFileSync(path.join(base, "outside", "secret.txt"), `${MARKER}\n`);
  mkdirSync(path.join(root, "src", "deep"), { recursive: true });
  writeFileSync(path.join(root, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(path.join(root, "...."), "a file whose name is four dots\n");
  symlinkSync("/etc/passwd", path.join(root, "link-passwd"));
  symlinkSync(path.join(base, "outside"), path.join(root, "link-out-dir"));
  symlinkSync("chain2", path.join(root, "chain1"));
  symlinkSync("src/deep/chain3", path.join(root, "chain2"));
  symlinkSync("../../../outside/secret.txt", path.join(root, "src", "deep", "chain3"));
  symlinkSync("../../../outside", path.join(root, "src", "deep", "out"));
  symlinkSync("/nonexistent-gate-target", path.join(root, "dangling"));
  symlinkSync("a.ts", path.join(root, "src", "alias.ts"));
  symlinkSync("src", path.join(root, "lib"));
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

/** Every path here must be refused, and nothing outside the root may be read. */
const HOSTILE_PATHS: Array<[string, string]> = [
  ["plain parent", "../outside/secret.txt"],
  ["parent after a folder", "src/../../outside/secret.txt"],
  ["dot then parent", "./../outside/secret.txt"],
  ["bare parent", ".."],
  ["encoded dots", "%2e%2e/outside/secret.txt"],
  ["encoded dots, upper case, encoded slashes", "%2E%2E%2Foutside%2Fsecret.txt"],
  ["encoded slashes only", "..%2f..%2fetc%2fpasswd"],
  ["encoded dots inside a path", "src/%2e%2e/%2e%2e/outside/secret.txt"],
  ["double-encoded dots", "%252e%252e/outside/secret.txt"],
  ["encoded backslash", "src/..%5c..%5coutside"],
  ["encoded NUL", "src/a.ts%00.png"],
  ["doubled dots", "....//outside/secret.txt"],
  ["four dots alone", "...."],
  ["three dots", ".../outside"],
  ["backslash parent", "..\\outside\\secret.txt"],
  ["backslash parent after a folder", "src\\..\\..\\outside\\secret.txt"],
  ["absolute posix", "/etc/passwd"],
  ["double slash absolute", "//etc/passwd"],
  ["windows drive", "C:\\Windows\\win.ini"],
  ["windows drive, forward slashes", "c:/windows/win.ini"],
  ["windows drive relative", "C:secret.txt"],
  ["UNC share", "\\\\server\\share\\file"],
  ["backslash absolute", "\\etc\\passwd"],
  ["NUL byte", "src/a.ts\0.png"],
  ["symlink to /etc/passwd", "link-passwd"],
  ["symlinked directory pointing outside", "link-out-dir/secret.txt"],
  ["the outside directory link itself", "link-out-dir"],
  ["nested symlink chain leaving the root", "chain1"],
  ["symlink at depth to a directory outside", "src/deep/out/secret.txt"],
  ["dangling symlink", "dangling"],
  ["missing file", "src/nope.ts"],
];

describe("resolveInSandbox refuses the hostile corpus", () => {
  it.each(HOSTILE_PATHS)("%s: %j", async (_name, rel) => {
    const error = await resolveInSandbox(root, rel).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GateError);
    expect((error as GateError).code).toBe("SANDBOX_REFUSED");
    // The tools refuse it as well, and no content from outside ever comes back.
    for (const run of [() => readFile(root, { path: rel }), () => listDir(root, { path: rel })]) {
      const outcome = await run().then(
        (r) => r.output,
        (e: unknown) => e,
      );
      expect(outcome).toBeInstanceOf(GateError);
      expect(String(outcome)).not.toContain(MARKER);
      expect(String(outcome)).not.toContain("root:x:");
    }
  });

  it("names a missing file as not found, distinctly from a refusal", async () => {
    await expect(resolveInSandbox(root, "src/nope.ts")).rejects.toThrow(/not found: src\/nope\.ts/);
    await expect(resolveInSandbox(root, "link-passwd")).rejects.toThrow(/leaves the repository/);
  });

  it("never lets grep follow a symlink out of the root", async () => {
    const result = await grepRepo(root, { pattern: "TOP-SECRET|root:" });
    expect(result.output).toBe("(no matches)");
  });
});

describe("resolveInSandbox accepts what is inside", () => {
  it.each([
    ["a normal file", "src/a.ts", "src/a.ts"],
    ["a file through ./", "./src/a.ts", "src/a.ts"],
    ["a backslash path inside", "src\\a.ts", "src/a.ts"],
    ["a symlink to a file inside", "src/alias.ts", "src/a.ts"],
    ["a symlinked directory inside", "lib/a.ts", "src/a.ts"],
    ["the root itself", "", ""],
  ])("%s: %j", async (_name, rel, expected) => {
    const real = await resolveInSandbox(root, rel);
    const realRoot = await resolveInSandbox(root, ".");
    expect(real).toBe(expected === "" ? realRoot : path.join(realRoot, expected));
  });

  it("reads a file through an inner symlink", async () => {
    const out = await readFile(root, { path: "src/alias.ts" });
    expect(out.output).toContain("1\texport const a = 1;");
  });
});

describe("sandboxRoot derives the root only from validated values", () => {
  const fixturesDir = "/srv/gate/fixtures";
  const sha = "0123456789abcdef0123456789abcdef01234567";
  const refused: Array<[string, SnapshotRef]> = [
    ["fixture ../../etc", { kind: "fixture", fixturesDir, name: "../../etc" }],
    ["fixture ..", { kind: "fixture", fixturesDir, name: ".." }],
    ["fixture .", { kind: "fixture", fixturesDir, name: "." }],
    ["fixture a/b", { kind: "fixture", fixturesDir, name: "a/b" }],
    ["fixture a\\b", { kind: "fixture", fixturesDir, name: "a\\b" }],
    ["fixture empty", { kind: "fixture", fixturesDir, name: "" }],
    ["fixture absolute", { kind: "fixture", fixturesDir, name: "/etc" }],
    ["fixture NUL", { kind: "fixture", fixturesDir, name: "ok\0" }],
    ["fixture space", { kind: "fixture", fixturesDir, name: "a b" }],
    ["fixtures dir relative", { kind: "fixture", fixturesDir: "fixtures", name: "003_auth_change" }],
    ["owner ..", { kind: "github", owner: "..", repo: "web", sha }],
    ["owner with slash", { kind: "github", owner: "acme/../..", repo: "web", sha }],
    ["owner starting with -", { kind: "github", owner: "-acme", repo: "web", sha }],
    ["owner of 40 chars", { kind: "github", owner: "a".repeat(40), repo: "web", sha }],
    ["repo ..", { kind: "github", owner: "acme", repo: "..", sha }],
    ["repo .", { kind: "github", owner: "acme", repo: ".", sha }],
    ["repo with slash", { kind: "github", owner: "acme", repo: "web/../../x", sha }],
    ["repo of 101 chars", { kind: "github", owner: "acme", repo: "r".repeat(101), sha }],
    ["sha of 39 hex", { kind: "github", owner: "acme", repo: "web", sha: sha.slice(1) }],
    ["uppercase sha", { kind: "github", owner: "acme", repo: "web", sha: sha.toUpperCase() }],
    ["sha with a g", { kind: "github", owner: "acme", repo: "web", sha: `g${sha.slice(1)}` }],
    ["sha that is a path", { kind: "github", owner: "acme", repo: "web", sha: "../../../../../../etc/passwd" }],
    ["branch name instead of sha", { kind: "github", owner: "acme", repo: "web", sha: "main" }],
    ["no snapshot", { kind: "none" }],
  ];

  it.each(refused)("refuses %s", (_name, ref) => {
    expect(() => sandboxRoot(ref, { dataDir: "/var/gate" })).toThrow(GateError);
    try {
      sandboxRoot(ref, { dataDir: "/var/gate" });
    } catch (error) {
      expect((error as GateError).code).toBe("SANDBOX_REFUSED");
    }
  });

  it("derives roots without touching the disk (the folders need not exist)", () => {
    expect(
      sandboxRoot(
        { kind: "fixture", fixturesDir: "/nonexistent/fixtures", name: "003_auth_change" },
        { dataDir: "/x" },
      ),
    ).toBe("/nonexistent/fixtures/003_auth_change/repo");
    expect(
      sandboxRoot({ kind: "github", owner: "acme-co", repo: "web.app", sha }, { dataDir: "/nonexistent/data" }),
    ).toBe(`/nonexistent/data/snapshots/acme-co/web.app/${sha}.snapshot/tree`);
  });
});
