import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "../../../src/investigator/tools/read-file.js";

let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "gate-read-"));
  mkdirSync(path.join(root, "src"));
  writeFileSync(
    path.join(root, "src", "a.ts"),
    `${["const a = 1;", "const b = 2;", "const c = 3;", "const d = 4;"].join("\n")}\n`,
  );
  writeFileSync(path.join(root, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("read_file", () => {
  it("prefixes every line with its number and reports the total size", async () => {
    const out = await readFile(root, { path: "src/a.ts" });
    expect(out.output.split("\n")).toEqual([
      "# src/a.ts: 52 chars, 4 lines; lines 1-4 shown",
      "1\tconst a = 1;",
      "2\tconst b = 2;",
      "3\tconst c = 3;",
      "4\tconst d = 4;",
    ]);
    expect(out.chars).toBe(52);
  });

  it("starts at the offset line", async () => {
    const out = await readFile(root, { path: "src/a.ts", offset: 3 });
    expect(out.output).toContain("3\tconst c = 3;");
    expect(out.output).not.toContain("2\tconst b = 2;");
    expect(out.chars).toBe(26);
  });

  it("cuts at max_chars, counts exactly what it returned, and says how to read on", async () => {
    const out = await readFile(root, { path: "src/a.ts", max_chars: 20 });
    expect(out.chars).toBe(20);
    expect(out.output).toContain("1\tconst a = 1;");
    expect(out.output).toContain("2\tconst b");
    expect(out.output).not.toContain("const b = 2;");
    expect(out.output).toMatch(/read on with offset=2/);
  });

  it("reports an offset past the end without content", async () => {
    const out = await readFile(root, { path: "src/a.ts", offset: 99 });
    expect(out.chars).toBe(0);
    expect(out.output).toMatch(/past the end/);
  });

  it("refuses binary files and directories", async () => {
    await expect(readFile(root, { path: "logo.png" })).rejects.toThrow(/binary file \(7 bytes\)/);
    await expect(readFile(root, { path: "src" })).rejects.toThrow(/is a directory/);
  });
});
