import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { treeOf } from "../server/helpers.js";

let dir: string;
let stderr: string[];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-cli-refusals-"));
  stderr = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI in this process with only the gate's own settings, the database under `dir/state`. */
function gate(args: string[], env: Record<string, string> = {}): Promise<number> {
  return runCli(args, {
    GATE_DB: path.join(dir, "state", "gate.db"),
    GATE_DATA_DIR: path.join(dir, "state", "data"),
    GATE_LOG_LEVEL: "silent",
    USER: "tester",
    ...env,
  });
}

describe("CLI commands that refuse write nothing: no database file, no folder", { timeout: 60_000 }, () => {
  it.each([
    ["review with no argument", ["review"], 2],
    ["an unknown flag", ["review", "--frobnicate"], 2],
    ["a flag the command does not take", ["graph", "--json"], 2],
    ["another command's flag", ["status", "r-123", "--repo", "acme/web"], 2],
    ["an unknown command", ["frobnicate"], 2],
    ["review of a fixture folder that does not exist", ["review", path.join(os.tmpdir(), "no-such-fixture-x1")], 1],
    ["review of a malformed PR reference", ["review", "https://example.com/not-a-pr"], 1],
    ["decide with an unknown decision", ["decide", "r-123", "frobnicate"], 2],
    ["decide info without a question", ["decide", "r-123", "info", "?"], 2],
    ["decide on an unknown review", ["decide", "r-123", "approve", "--by", "alice"], 1],
    ["status of an unknown review", ["status", "r-123"], 1],
    ["status of a PR never reviewed", ["status", "acme/web#1", "--json"], 1],
  ])("%s", async (_what, args, code) => {
    expect(await gate(args)).toBe(code);
    expect(treeOf(dir)).toEqual([]);
  });

  it("names the unknown review", async () => {
    expect(await gate(["status", "r-123"])).toBe(1);
    expect(stderr.join("")).toContain('no review "r-123"');
  });

  it("an invalid GATE_DB (a folder, below a file, deep and missing) is refused and creates nothing", async () => {
    fs.mkdirSync(path.join(dir, "a-folder"));
    fs.writeFileSync(path.join(dir, "a-file"), "not a folder\n");
    const before = treeOf(dir);
    expect(await gate(["review", "001_readme_typo"], { GATE_DB: path.join(dir, "a-folder") })).toBe(1);
    expect(stderr.join("")).toContain("GATE_DB");
    expect(await gate(["review", "001_readme_typo"], { GATE_DB: path.join(dir, "a-file", "x", "gate.db") })).toBe(1);
    expect(await gate(["status", "r-1"], { GATE_DB: path.join(dir, "deep", "er", "gate.db") })).toBe(1);
    expect(treeOf(dir)).toEqual(before);
  });

  it("graph and policies need no database and make none; a review makes one (the check above can fail)", async () => {
    expect(await gate(["graph"])).toBe(0);
    expect(await gate(["policies", "--json"])).toBe(0);
    expect(treeOf(dir)).toEqual([]);
    expect(await gate(["review", "001_readme_typo", "--json"])).toBe(0);
    expect(treeOf(dir)).toContain("state/gate.db");
  });
});
