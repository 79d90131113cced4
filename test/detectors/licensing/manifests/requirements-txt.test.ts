import { describe, expect, it } from "vitest";
import { changedDependencies } from "../../../../src/ecosystems/common/changed-dependencies.js";
import { requirementsTxtParser } from "../../../../src/ecosystems/pypi/requirements-txt.js";
import { buildPr } from "../../pr-builder.js";

function file(patch: string, filename: string) {
  const f = buildPr({ files: [{ filename, patch }] }).files[0];
  if (!f) throw new Error("no file");
  return f;
}

describe("requirementsTxtParser", () => {
  it("matches requirements files in their usual names", () => {
    for (const p of [
      "requirements.txt",
      "svc/requirements-dev.txt",
      "dev-requirements.txt",
      "requirements/test.txt",
      "requirements.in",
    ]) {
      expect(requirementsTxtParser.matches(p), p).toBe(true);
    }
    expect(requirementsTxtParser.matches("docs/notes.txt")).toBe(false);
  });

  it("tells dev files from runtime ones by name", () => {
    expect(requirementsTxtParser.scopeOf("(file)", "requirements.txt")).toBe("runtime");
    expect(requirementsTxtParser.scopeOf("(file)", "requirements-dev.txt")).toBe("dev");
    expect(requirementsTxtParser.scopeOf("(file)", "dev-requirements.txt")).toBe("dev");
    expect(requirementsTxtParser.scopeOf("(file)", "requirements/test.txt")).toBe("dev");
    expect(requirementsTxtParser.scopeOf("(file)", "requirements-prod.txt")).toBe("runtime");
  });

  it("reads pins, ranges, extras and markers, and skips options and comments", () => {
    expect(
      requirementsTxtParser.parseLine("requests[socks]==2.31.0 ; python_version >= '3.9'  # http", "(file)"),
    ).toEqual([{ name: "requests", version: "2.31.0" }]);
    expect(requirementsTxtParser.parseLine("Django>=4.2,<5.0", "(file)")).toEqual([
      { name: "Django", version: ">=4.2,<5.0" },
    ]);
    expect(requirementsTxtParser.parseLine("-r base.txt", "(file)")).toEqual([]);
    expect(requirementsTxtParser.parseLine("--index-url https://pypi.org/simple", "(file)")).toEqual([]);
    expect(requirementsTxtParser.parseLine("# a comment", "(file)")).toEqual([]);
    expect(requirementsTxtParser.parseLine("numpy==1.26.4 --hash=sha256:abc123", "(file)")).toEqual([
      { name: "numpy", version: "1.26.4" },
    ]);
  });

  it("finds an added runtime requirement and a bump, compared by PEP 503 name", () => {
    const patch = [
      "@@ -1,3 +1,4 @@",
      " flask==3.0.3",
      "-Typing_Extensions==4.9.0",
      "+typing-extensions==4.12.2",
      "+leftpadpy==0.1.0",
    ].join("\n");
    const changes = changedDependencies(requirementsTxtParser, file(patch, "requirements.txt"));
    expect(changes).toEqual([
      expect.objectContaining({
        name: "typing-extensions",
        kind: "version_changed",
        previousVersion: "4.9.0",
        scope: "runtime",
        line: 2,
      }),
      expect.objectContaining({ name: "leftpadpy", kind: "added", scope: "runtime", line: 3, ecosystem: "pypi" }),
    ]);
  });

  it("marks requirements-dev.txt additions as dev", () => {
    const patch = ["@@ -1,1 +1,2 @@", " pytest==8.2.0", "+pylint==3.2.0"].join("\n");
    expect(changedDependencies(requirementsTxtParser, file(patch, "requirements-dev.txt"))[0]).toMatchObject({
      name: "pylint",
      scope: "dev",
    });
  });
});
