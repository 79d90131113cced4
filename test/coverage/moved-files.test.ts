import { describe, expect, it } from "vitest";
import { buildCoverage } from "../../src/coverage/ledger.js";
import { movedWhereItMatters, withEmptyFilesShown, withMovedFilesWhole } from "../../src/coverage/moved-files.js";
import { ALL_DETECTORS } from "../../src/detectors/index.js";
import { copyleftSourceDetector } from "../../src/detectors/licensing/copyleft-source.js";
import type { ChangedFile } from "../../src/domain/pull-request.js";
import { buildPr, detectContext, headFiles } from "../detectors/pr-builder.js";

const moved = (filename: string, previousFilename: string, over: Partial<ChangedFile> = {}): ChangedFile => ({
  filename,
  previousFilename,
  status: "renamed",
  additions: 1,
  deletions: 1,
  changes: 2,
  patch: "@@ -1,2 +1,2 @@\n-old\n+new\n keep",
  ...over,
});

describe("movedWhereItMatters", () => {
  it.each([
    ["package.json", "examples/app/package.json", true],
    [".github/workflows/ci.yml", "docs/ci.yml", true],
    ["vendor/zlib/COPYING", "third_party/COPYING", true],
    ["src/auth/session.ts", "src/session.ts", true],
    ["go.sum", "tools/go.sum", true],
    ["src/text/format.ts", "src/util/format.ts", false],
    ["docs/guide.md", "guide.md", false],
  ])("%s from %s: %s", (filename, previous, expected) => {
    expect(movedWhereItMatters(moved(filename, previous))).toBe(expected);
  });

  it("only renames and copies whose path changed", () => {
    expect(movedWhereItMatters({ ...moved("package.json", "package.json") })).toBe(false);
    expect(movedWhereItMatters({ ...moved("package.json", "a/package.json"), status: "modified" })).toBe(false);
    expect(movedWhereItMatters({ ...moved("package.json", "a/package.json"), status: "copied" })).toBe(true);
  });
});

describe("withMovedFilesWhole", () => {
  it("reads a moved manifest whole at its new path, every line as added", async () => {
    const pr = buildPr();
    pr.files = [moved("package.json", "examples/app/package.json"), moved("src/b.ts", "src/a.ts")];
    const { pr: read, gaps } = await withMovedFilesWhole(pr, headFiles({ "package.json": '{\n  "name": "app"\n}\n' }));
    expect(gaps).toEqual([]);
    expect(read.files[0]).toMatchObject({
      filename: "package.json",
      patch: '@@ -0,0 +1,3 @@\n+{\n+  "name": "app"\n+}',
      additions: 3,
    });
    // A move where the path changes nothing keeps its patch.
    expect(read.files[1]).toBe(pr.files[1]);
  });

  it("a moved file the snapshot does not have is a gap, not its patch alone", async () => {
    const pr = buildPr();
    pr.files = [moved(".github/workflows/ci.yml", "docs/ci.yml")];
    const { pr: read, gaps } = await withMovedFilesWhole(pr, headFiles());
    expect(read.files[0]).toBe(pr.files[0]);
    expect(gaps).toEqual([
      {
        file: ".github/workflows/ci.yml",
        reason: "snapshot",
        detail: expect.stringContaining("renamed from docs/ci.yml"),
      },
    ]);
  });
});

describe("withEmptyFilesShown", () => {
  const added = (filename: string): ChangedFile => ({
    filename,
    status: "added",
    additions: 0,
    deletions: 0,
    changes: 0,
  });

  it("an added file without a diff that the snapshot gives empty is read as empty; any other stays unread", async () => {
    const pr = buildPr();
    pr.files = [added("pkg/__init__.py"), added("tools/helper"), added("tools/missing")];
    const shown = await withEmptyFilesShown(
      pr,
      headFiles({ "pkg/__init__.py": "", "tools/helper": "\u0000ELF\u0002" }),
    );
    expect(shown.files.map((f) => f.patch)).toEqual(["", undefined, undefined]);
    const ledger = await buildCoverage(shown.files, ALL_DETECTORS, [], []);
    expect(Object.values(ledger.read).flat()).toEqual(["pkg/__init__.py"]);
    expect(ledger.unread?.map((u) => [u.file, u.reason])).toEqual([
      ["tools/helper", "no_patch"],
      ["tools/missing", "no_patch"],
    ]);
  });
});

describe("a detector's cap records what it did not read", () => {
  it("past 200 vendored folders, each further vendored file is noted, not skipped", async () => {
    const files = Array.from({ length: 203 }, (_, i) => ({
      filename: `vendor/pkg${i}/index.c`,
      patch: "@@ -0,0 +1 @@\n+int x;",
    }));
    const notRead: Array<{ file: string; detail: string }> = [];
    await copyleftSourceDetector.detect(detectContext(buildPr({ files }), { notRead }));
    expect(notRead.map((n) => n.file)).toEqual([
      "vendor/pkg200/index.c",
      "vendor/pkg201/index.c",
      "vendor/pkg202/index.c",
    ]);
    expect(notRead[0]?.detail).toContain("over 200 vendored folders");
  });
});
