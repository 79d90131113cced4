import { describe, expect, it } from "vitest";
import { ledgerKind } from "../../src/coverage/ledger-kind.js";
import type { ChangedFile } from "../../src/domain/pull-request.js";
import {
  isAuthPath,
  isDocsPath,
  isTestPath,
  isVendoredPath,
  isWorkflowPath,
  languageOf,
} from "../../src/ecosystems/file-kind.js";
import { isLockfile, isManifest } from "../../src/ecosystems/index.js";
import { classifyFile } from "../../src/risk/classify-file.js";

/** A one-line added file at `path`: what the risk score and the ledger are given. */
const added = (path: string): ChangedFile => ({
  filename: path,
  status: "added",
  additions: 1,
  deletions: 0,
  changes: 1,
  patch: "@@ -0,0 +1 @@\n+x = 1",
});

describe("what a path is, by the predicates written once", () => {
  it.each([
    ["services/api/pom.xml", isManifest],
    ["src/Billing.Api/Billing.Api.csproj", isManifest],
    ["web/package-lock.json", isLockfile],
    ["uv.lock", isLockfile],
    [".github/workflows/ci.yml", isWorkflowPath],
    ["third_party/zlib/inflate.c", isVendoredPath],
    ["src/cart.test.ts", isTestPath],
    ["docs/setup.md", isDocsPath],
    ["src/auth/login.ts", isAuthPath],
  ])("%s holds %o", (path, holds) => {
    expect(holds(path)).toBe(true);
  });

  it.each([
    ["services/api/pom.xml", "deps"],
    ["web/package-lock.json", "deps"],
    [".github/workflows/ci.yml", "ci"],
    ["src/cart.test.ts", "tests"],
    ["docs/setup.md", "docs"],
    ["src/auth/login.ts", "auth"],
    ["src/cart.ts", "code"],
  ])("the risk score takes %s as %s", (path, kind) => {
    expect(classifyFile(added(path))).toBe(kind);
  });

  it.each([
    ["src/cart.ts", { kind: "code", language: "typescript" }],
    ["cgi-bin/run.pl", { kind: "code", language: "perl" }],
    [".github/workflows/ci.yml", { kind: "workflow", language: "workflow" }],
    ["assets/logo.png", { kind: "media", language: "png" }],
  ])("the coverage ledger takes %s as %o", (path, kind) => {
    expect(ledgerKind(added(path))).toEqual(kind);
  });

  it("code kept in a docs folder and requirements files are not docs; an auth word must stand as a word", () => {
    expect(isDocsPath("docs/conf.py")).toBe(false);
    expect(isDocsPath("requirements-dev.txt")).toBe(false);
    expect(isAuthPath("src/authors.ts")).toBe(false);
    expect(isAuthPath("src/sessions/store.go")).toBe(true);
    expect(languageOf("Makefile")).toBeUndefined();
    expect(languageOf("assets/logo.png")).toBeUndefined();
  });
});
