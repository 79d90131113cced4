import { describe, expect, it } from "vitest";
import { isLockfile, isManifest } from "../../src/ecosystems/index.js";
import {
  isAuthPath,
  isDocsPath,
  isTestPath,
  isVendoredPath,
  isWorkflowPath,
  languageOf,
} from "../../src/ecosystems/file-kind.js";

/** The first of the path predicates that holds, in the order the risk score asks them. */
const kindOf = (path: string) => {
  const named = (
    [
      ["manifest", isManifest],
      ["lockfile", isLockfile],
      ["workflow", isWorkflowPath],
      ["vendored", isVendoredPath],
      ["test", isTestPath],
      ["docs", isDocsPath],
      ["auth", isAuthPath],
    ] as const
  ).find(([, holds]) => holds(path))?.[0];
  const language = languageOf(path);
  return named ? { kind: named } : language === undefined ? { kind: "other" } : { kind: "code", language };
};

describe("what a path is, by the predicates written once", () => {
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
