import { describe, expect, it } from "vitest";
import { isAuthPath, isDocsPath, kindOf, languageOf } from "../../src/ecosystems/file-kind.js";

describe("kindOf: what a path is, written once", () => {
  it.each([
    ["services/api/pom.xml", { kind: "manifest" }],
    ["src/Billing.Api/Billing.Api.csproj", { kind: "manifest" }],
    ["web/package-lock.json", { kind: "lockfile" }],
    ["uv.lock", { kind: "lockfile" }],
    [".github/workflows/ci.yml", { kind: "workflow" }],
    ["third_party/zlib/inflate.c", { kind: "vendored" }],
    ["src/cart.test.ts", { kind: "test" }],
    ["docs/setup.md", { kind: "docs" }],
    ["src/auth/login.ts", { kind: "auth" }],
    ["src/cart.ts", { kind: "code", language: "typescript" }],
    ["cgi-bin/run.pl", { kind: "code", language: "perl" }],
    ["assets/logo.png", { kind: "other" }],
  ])("%s is %o", (path, kind) => {
    expect(kindOf(path)).toEqual(kind);
  });

  it("code kept in a docs folder and requirements files are not docs; an auth word must stand as a word", () => {
    expect(isDocsPath("docs/conf.py")).toBe(false);
    expect(isDocsPath("requirements-dev.txt")).toBe(false);
    expect(isAuthPath("src/authors.ts")).toBe(false);
    expect(isAuthPath("src/sessions/store.go")).toBe(true);
    expect(languageOf("Makefile")).toBeUndefined();
  });
});
