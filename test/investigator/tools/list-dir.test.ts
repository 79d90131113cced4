import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listDir } from "../../../src/investigator/tools/list-dir.js";

let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "gate-list-"));
  mkdirSync(path.join(root, "src", "auth"), { recursive: true });
  writeFileSync(path.join(root, "src", "index.ts"), "");
  writeFileSync(path.join(root, "src", "Zeta.ts"), "");
  symlinkSync("auth", path.join(root, "src", "auth-link"));
  symlinkSync(tmpdir(), path.join(root, "src", "out-link"));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("list_dir", () => {
  it("lists entries sorted, directories with a trailing slash, outside links as plain names", async () => {
    const out = await listDir(root, { path: "src" });
    expect(out.output.split("\n")).toEqual(["Zeta.ts", "auth-link/", "auth/", "index.ts", "out-link"]);
    expect(out.chars).toBe(0);
  });

  it("lists the root for an empty path and reports empty directories", async () => {
    expect((await listDir(root, { path: "" })).output).toBe("src/");
    expect((await listDir(root, { path: "src/auth" })).output).toBe("(empty directory)");
  });

  it("refuses a file", async () => {
    await expect(listDir(root, { path: "src/index.ts" })).rejects.toThrow(/not a directory/);
  });
});
