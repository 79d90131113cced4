import { describe, expect, it } from "vitest";
import { estimateTokens, orderFiles, packHunks } from "../../src/claude/input-budget.js";
import { SECURITY_POLICIES, addedPatch, detectorFinding, file } from "./builders.js";

const filler = (tag: string, n: number) =>
  addedPatch(Array.from({ length: n }, (_, i) => `const ${tag}${i} = "${"y".repeat(40)}";`));

const FILES = [
  file("README.md", filler("readme", 5)),
  file("src/util.ts", addedPatch(["const rows = db.query(sql);"])), // a SEC-02 trigger
  file("src/auth/login.ts", addedPatch(["login();"])), // SEC-03 paths
  file("src/config.ts", addedPatch(["const k = 1;"])), // a detector finding
];

describe("orderFiles", () => {
  it("puts detector files first, then policy paths/triggers, then the rest, stable within a tier", () => {
    const ordered = orderFiles({
      specialty: "security",
      files: FILES,
      policies: SECURITY_POLICIES,
      detections: [detectorFinding()],
    });
    expect(ordered.map((f) => f.filename)).toEqual(["src/config.ts", "src/util.ts", "src/auth/login.ts", "README.md"]);
  });

  it("ignores detector findings of another specialty", () => {
    const ordered = orderFiles({
      specialty: "security",
      files: FILES,
      policies: SECURITY_POLICIES,
      detections: [detectorFinding({ specialty: "data", file: "README.md" })],
    });
    expect(ordered.map((f) => f.filename)).toEqual(["src/util.ts", "src/auth/login.ts", "README.md", "src/config.ts"]);
  });
});

describe("packHunks", () => {
  it("numbers lines by head line and keeps everything when it fits", () => {
    const patch = "@@ -10,2 +10,3 @@\n context\n-old\n+new\n tail";
    const out = packHunks({
      specialty: "security",
      files: [file("a.ts", patch)],
      policies: [],
      detections: [],
      maxTokens: 10_000,
    });
    expect(out.dropped).toEqual([]);
    expect(out.sections).toContain("   10   context");
    expect(out.sections).toContain("      - old");
    expect(out.sections).toContain("   11 + new");
    expect(out.sections).toContain("   12   tail");
  });

  it("drops the least relevant files first and reports them", () => {
    const files = [
      file("docs/a.md", filler("a", 200)),
      file("src/auth/session.ts", addedPatch(["verify();"])),
      file("docs/b.md", filler("b", 200)),
    ];
    const out = packHunks({
      specialty: "security",
      files,
      policies: SECURITY_POLICIES,
      detections: [],
      maxTokens: 5000,
    });
    expect(out.sections).toContain("verify();");
    expect(out.sections).toContain("a199");
    expect(out.dropped).toEqual(["docs/b.md"]);
    expect(estimateTokens(out.sections)).toBeLessThanOrEqual(5000);
  });

  it("sends a hunk as its added lines only before dropping it", () => {
    const context = Array.from({ length: 150 }, (_, i) => ` context line ${i} ${"z".repeat(40)}`).join("\n");
    const patch = `@@ -1,150 +1,151 @@\n${context}\n+const added = true;`;
    const out = packHunks({
      specialty: "security",
      files: [file("src/x.ts", patch)],
      policies: [],
      detections: [],
      maxTokens: 400,
    });
    expect(out.sections).toContain("const added = true;");
    expect(out.sections).not.toContain("context line 5 ");
    expect(out.sections).toContain("added lines only");
    expect(out.dropped).toEqual([]);
  });

  it("lists a file GitHub sent no patch for as not reviewed, but not a removed one", () => {
    const files = [file("logo.png", undefined, { status: "added" }), file("old.bin", undefined, { status: "removed" })];
    const out = packHunks({ specialty: "security", files, policies: [], detections: [], maxTokens: 1000 });
    expect(out.dropped).toEqual(["logo.png"]);
  });
});
