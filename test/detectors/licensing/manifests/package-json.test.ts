import { describe, expect, it } from "vitest";
import { changedDependencies } from "../../../../src/ecosystems/common/changed-dependencies.js";
import { packageJsonParser } from "../../../../src/ecosystems/npm/package-json.js";
import { buildPr } from "../../pr-builder.js";

function file(patch: string, filename = "package.json") {
  const f = buildPr({ files: [{ filename, patch }] }).files[0];
  if (!f) throw new Error("no file");
  return f;
}

const HEAD = JSON.stringify(
  {
    name: "web",
    version: "1.4.0",
    scripts: { build: "tsc -p ." },
    dependencies: { express: "^4.19.2", "gpl-chart-lib": "^2.1.0" },
    devDependencies: { vitest: "^4.1.0", "gpl-lint": "1.0.0" },
  },
  null,
  2,
);

describe("packageJsonParser", () => {
  it("matches package.json anywhere but under node_modules", () => {
    expect(packageJsonParser.matches("package.json")).toBe(true);
    expect(packageJsonParser.matches("apps/web/package.json")).toBe(true);
    expect(packageJsonParser.matches("node_modules/x/package.json")).toBe(false);
    expect(packageJsonParser.matches("package-lock.json")).toBe(false);
  });

  it("reads runtime and dev scopes from the whole head file", () => {
    const scopes = packageJsonParser.readHead(HEAD, "package.json");
    expect(scopes?.get("gpl-chart-lib")).toBe("runtime");
    expect(scopes?.get("gpl-lint")).toBe("dev");
    expect(scopes?.has("build")).toBe(false);
    expect(packageJsonParser.readHead("{ not json", "package.json")).toBeUndefined();
  });

  it("takes the scope from the head file when the hunk does not show the section", () => {
    const patch = [
      "@@ -12,6 +12,7 @@",
      '     "vitest": "^4.1.0",',
      '+    "gpl-lint": "1.0.0",',
      '     "zod": "^4.0.0"',
    ].join("\n");
    const changes = changedDependencies(packageJsonParser, file(patch), HEAD);
    expect(changes).toEqual([
      expect.objectContaining({ name: "gpl-lint", version: "1.0.0", scope: "dev", kind: "added", line: 13 }),
    ]);
  });

  it("infers devDependencies from the hunk's context when there is no head file", () => {
    const patch = [
      "@@ -20,7 +20,8 @@",
      "   },",
      '   "devDependencies": {',
      '     "typescript": "5.9.3",',
      '+    "gpl-lint": "1.0.0",',
      '     "vitest": "^4.1.0"',
      "   }",
      " }",
    ].join("\n");
    const [change] = changedDependencies(packageJsonParser, file(patch));
    expect(change).toMatchObject({ name: "gpl-lint", scope: "dev", line: 23 });
  });

  it("infers dependencies (runtime) from the hunk's context", () => {
    const patch = [
      "@@ -8,6 +8,7 @@",
      '   "dependencies": {',
      '+    "left-pad": "^1.3.0",',
      '     "express": "^4.19.2"',
    ].join("\n");
    expect(changedDependencies(packageJsonParser, file(patch))[0]).toMatchObject({
      name: "left-pad",
      scope: "runtime",
    });
  });

  it("treats an entry whose section cannot be told as runtime (fail closed)", () => {
    const patch = ["@@ -30,3 +30,4 @@", '     "a": "^1.0.0",', '+    "gpl-lint": "1.0.0",', '     "b": "^2.0.0"'].join(
      "\n",
    );
    expect(changedDependencies(packageJsonParser, file(patch))[0]).toMatchObject({
      name: "gpl-lint",
      scope: "runtime",
    });
  });

  it("ignores scripts and metadata, in a visible section or not", () => {
    const visible = ["@@ -4,3 +4,4 @@", '   "scripts": {', '+    "lint": "eslint .",', '     "build": "tsc"'].join(
      "\n",
    );
    expect(changedDependencies(packageJsonParser, file(visible))).toEqual([]);
    const hidden = [
      "@@ -9,3 +9,3 @@",
      '     "x": "y",',
      '-  "version": "1.3.0",',
      '+  "version": "1.4.0",',
      '+    "test": "vitest run",',
    ].join("\n");
    expect(changedDependencies(packageJsonParser, file(hidden))).toEqual([]);
  });

  it("with a head file, drops lines that are not its dependencies", () => {
    const patch = ["@@ -30,3 +30,4 @@", '     "a": "^1.0.0",', '+    "not-a-dep": "^9.0.0",'].join("\n");
    expect(changedDependencies(packageJsonParser, file(patch), HEAD)).toEqual([]);
  });

  it("reports a version change with the previous version, and skips a reformatted line", () => {
    const bump = [
      "@@ -9,3 +9,3 @@",
      '   "dependencies": {',
      '-    "express": "^4.18.0",',
      '+    "express": "^4.19.2",',
    ].join("\n");
    expect(changedDependencies(packageJsonParser, file(bump), HEAD)).toEqual([
      expect.objectContaining({
        name: "express",
        kind: "version_changed",
        previousVersion: "^4.18.0",
        version: "^4.19.2",
      }),
    ]);
    const comma = [
      "@@ -9,3 +9,4 @@",
      '   "dependencies": {',
      '-    "express": "^4.19.2"',
      '+    "express": "^4.19.2",',
      '+    "gpl-chart-lib": "^2.1.0"',
    ].join("\n");
    expect(changedDependencies(packageJsonParser, file(comma), HEAD).map((c) => c.name)).toEqual(["gpl-chart-lib"]);
  });

  it("sees a move from devDependencies to dependencies as a scope change", () => {
    const patch = [
      "@@ -9,10 +9,10 @@",
      '   "dependencies": {',
      '+    "gpl-chart-lib": "^2.1.0",',
      '     "express": "^4.19.2"',
      "   },",
      '   "devDependencies": {',
      '-    "gpl-chart-lib": "^2.1.0",',
      '     "vitest": "^4.1.0"',
    ].join("\n");
    expect(changedDependencies(packageJsonParser, file(patch))).toEqual([
      expect.objectContaining({ name: "gpl-chart-lib", kind: "scope_changed", scope: "runtime", previousScope: "dev" }),
    ]);
  });

  it("ignores workspace and file references to the repository's own packages", () => {
    const patch = ["@@ -9,2 +9,3 @@", '   "dependencies": {', '+    "@acme/ui": "workspace:*",'].join("\n");
    expect(changedDependencies(packageJsonParser, file(patch))).toEqual([]);
  });

  it("reads every dependency of an added package.json, and nothing of a removed one", () => {
    const patch = [
      "@@ -0,0 +1,5 @@",
      "+{",
      '+  "name": "new-app",',
      '+  "dependencies": {',
      '+    "left-pad": "1.3.0"',
      "+  }",
    ].join("\n");
    expect(changedDependencies(packageJsonParser, file(patch))).toEqual([
      expect.objectContaining({ name: "left-pad", kind: "added", line: 4, scope: "runtime" }),
    ]);
    const removed = { ...file(patch), status: "removed" as const };
    expect(changedDependencies(packageJsonParser, removed)).toEqual([]);
  });

  it("resolves an npm: alias to the package it installs", () => {
    expect(packageJsonParser.parseLine(`    "charts": "npm:gpl-chart-lib@^2.1.0",`, "dependencies")).toEqual([
      { name: "gpl-chart-lib", version: "^2.1.0" },
    ]);
    expect(packageJsonParser.parseLine(`    "ui": "npm:@acme/ui@1.0.0",`, "dependencies")).toEqual([
      { name: "@acme/ui", version: "1.0.0" },
    ]);
    const head = JSON.stringify({ devDependencies: { charts: "npm:gpl-chart-lib@^2.1.0" } });
    expect(packageJsonParser.readHead(head, "package.json")?.get("gpl-chart-lib")).toBe("dev");
  });
});
