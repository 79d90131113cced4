import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runScript } from "./run-script.js";

const differential = (...args: string[]) => runScript("precheck-differential.ts", ...args);

describe("scripts/precheck-differential.ts", () => {
  const root = mkdtempSync(path.join(tmpdir(), "precheck-differential-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, "src"));
  mkdirSync(path.join(root, ".git"));
  writeFileSync(path.join(root, "src", "jobs.js"), 'const cp = require("child_process");\ncp.exec("ls " + dir);\n');
  writeFileSync(path.join(root, "src", "log.py"), 'import logging\nlogging.info("%s", user.email)\n');
  writeFileSync(path.join(root, "src", "plain.go"), "package plain\n\nfunc Sum(a, b int) int { return a + b }\n");
  writeFileSync(path.join(root, "src", "blob.ts"), Buffer.from([0x63, 0x6f, 0x00, 0x01, 0x02]));
  writeFileSync(path.join(root, "src", "huge.js"), `// ${"x".repeat(600 * 1024)}\n`);
  // Markdown is read (SEC-01 reads the configuration a document shows); plain text is not.
  writeFileSync(path.join(root, "README.md"), "Read for secrets.\n");
  writeFileSync(path.join(root, "NOTES.txt"), "Not source code.\n");
  writeFileSync(path.join(root, ".git", "hook.js"), 'eval("x")\n');

  it("reads every source and configuration file as an added file, skips binaries and large files, and finds the same both ways", async () => {
    const { code, stdout } = await differential(root, "--json");
    const report = JSON.parse(stdout) as Record<string, unknown>;
    expect(code).toBe(0);
    expect(report).toMatchObject({
      files: 4,
      lines: 8,
      skipped: { too_large: 1, binary: 1 },
      differing_files: 0,
      error_files: 0,
      findings: { with_prechecks: 2, without_prechecks: 2 },
    });
  }, 60_000);

  it("prints a readable report without --json", async () => {
    const { code, stdout } = await differential(root);
    expect(code).toBe(0);
    expect(stdout).toContain("files: 4 source files read (8 lines)");
    expect(stdout).toContain("files whose findings differ: 0");
  }, 60_000);

  it("refuses a folder that does not exist, with its usage and exit code 2", async () => {
    const { code, stderr } = await differential(path.join(root, "missing"));
    expect(code).toBe(2);
    expect(stderr).toContain("usage:");
  }, 60_000);
});
