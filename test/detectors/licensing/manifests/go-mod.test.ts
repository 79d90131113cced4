import { describe, expect, it } from "vitest";
import { changedDependencies } from "../../../../src/ecosystems/common/changed-dependencies.js";
import { goModParser } from "../../../../src/ecosystems/go/go-mod.js";
import { buildPr } from "../../pr-builder.js";

function file(patch: string) {
  const f = buildPr({ files: [{ filename: "go.mod", patch }] }).files[0];
  if (!f) throw new Error("no file");
  return f;
}

const HEAD = `module example.com/svc

go 1.22

require (
\tgithub.com/gin-gonic/gin v1.10.0
\tgithub.com/acme/gplkit v0.3.1 // indirect
)

require golang.org/x/text v0.16.0

exclude github.com/old/thing v1.0.0
`;

describe("goModParser", () => {
  it("reads block and single-line requires from the head file, not excludes", () => {
    const scopes = goModParser.readHead(HEAD, "go.mod");
    expect([...(scopes?.keys() ?? [])].sort()).toEqual([
      "github.com/acme/gplkit",
      "github.com/gin-gonic/gin",
      "golang.org/x/text",
    ]);
  });

  it("counts an added // indirect require as a runtime dependency", () => {
    const patch = [
      "@@ -5,4 +5,5 @@",
      " require (",
      " \tgithub.com/gin-gonic/gin v1.10.0",
      "+\tgithub.com/acme/gplkit v0.3.1 // indirect",
      " )",
    ].join("\n");
    expect(changedDependencies(goModParser, file(patch))).toEqual([
      expect.objectContaining({
        name: "github.com/acme/gplkit",
        version: "v0.3.1",
        scope: "runtime",
        line: 7,
        ecosystem: "go",
      }),
    ]);
  });

  it("reads a single-line require and a version bump", () => {
    const patch = [
      "@@ -10,1 +10,1 @@",
      "-require golang.org/x/text v0.15.0",
      "+require golang.org/x/text v0.16.0",
    ].join("\n");
    expect(changedDependencies(goModParser, file(patch))[0]).toMatchObject({
      kind: "version_changed",
      previousVersion: "v0.15.0",
    });
  });

  it("ignores replace and exclude blocks, and the go directive", () => {
    const patch = [
      "@@ -1,3 +1,8 @@",
      " module example.com/svc",
      "-go 1.21",
      "+go 1.22",
      "+replace (",
      "+\tgithub.com/a/b v1.0.0 => ../b",
      "+)",
      "+exclude (",
      "+\tgithub.com/old/thing v1.0.0",
      "+)",
    ].join("\n");
    expect(changedDependencies(goModParser, file(patch))).toEqual([]);
  });
});
