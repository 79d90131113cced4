import { describe, expect, it } from "vitest";
import { capPatches } from "../../src/domain/file-caps.js";
import type { ChangedFile } from "../../src/domain/pull-request.js";

const added = (filename: string, lines: number, line = "x"): ChangedFile => ({
  filename,
  status: "added",
  additions: lines,
  deletions: 0,
  changes: lines,
  patch: `@@ -0,0 +1,${lines} @@\n${Array.from({ length: lines }, () => `+${line}`).join("\n")}`,
});

describe("capPatches: a diff over a cap is not read, and says so", () => {
  it("keeps a diff at the line cap, drops one line over it, naming the file, its size and the setting", () => {
    const { files, notRead } = capPatches([added("a.ts", 9), added("b.ts", 10)], { lines: 10, bytes: 1 << 20 });
    expect(files[0]?.patch).toBeDefined();
    expect(files[1]?.patch).toBeUndefined();
    expect(files[1]?.patchNotRead).toBe(
      "its diff is 11 lines; at most 10 are read (GATE_MAX_FILE_LINES), so it was not read",
    );
    expect(notRead).toEqual([
      "b.ts: its diff is 11 lines; at most 10 are read (GATE_MAX_FILE_LINES), so it was not read",
    ]);
  });

  it("counts bytes as UTF-8: a diff of few lines but many multi-byte characters is over the byte cap", () => {
    const { files, notRead } = capPatches([added("c.md", 2, "é".repeat(600))], { lines: 100, bytes: 2048 });
    expect(files[0]?.patch).toBeUndefined();
    expect(notRead[0]).toMatch(/^c\.md: its diff is 24\d\d bytes; at most 2048 are read \(GATE_MAX_FILE_BYTES\)/);
  });

  it("leaves files without a diff and files under both caps as they are", () => {
    const bin: ChangedFile = { filename: "logo.png", status: "added", additions: 0, deletions: 0, changes: 0 };
    const small = added("d.ts", 3);
    expect(capPatches([bin, small])).toEqual({ files: [bin, small], notRead: [] });
  });
});
