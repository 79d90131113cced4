import { describe, expect, it } from "vitest";
import { buildCoverage, type ReadGap } from "../../src/coverage/ledger.js";
import { ledgerKind } from "../../src/coverage/ledger-kind.js";
import { ALL_DETECTORS } from "../../src/detectors/index.js";
import { coverageLines, coverageView } from "../../src/domain/coverage.js";
import type { ChangedFile } from "../../src/domain/pull-request.js";
import { addedFilePatch, buildPr, type FileSpec } from "../detectors/pr-builder.js";

const files = (...specs: FileSpec[]): ChangedFile[] => buildPr({ files: specs }).files;
/** The ledger of these files, spelled out as the result prints it. */
const ledger = async (specs: FileSpec[], gaps: ReadGap[] = [], accepted: Parameters<typeof buildCoverage>[3] = []) =>
  coverageView(await buildCoverage(files(...specs), ALL_DETECTORS, gaps, accepted));
const noPatch = (filename: string, status: ChangedFile["status"] = "added"): ChangedFile => ({
  filename,
  status,
  additions: 0,
  deletions: 0,
  changes: 0,
});

describe("ledgerKind", async () => {
  it.each([
    ["cgi-bin/run.pl", "code", "perl"],
    ["src/App.java", "code", "java"],
    ["web/app.tsx", "code", "typescript"],
    ["scripts/deploy.sh", "code", "shell"],
    ["lib/libfast.so", "binary", "so"],
    ["lib/libfast.so.1.2", "binary", "so"],
    ["build/app.jar", "binary", "jar"],
    ["native/addon.node", "binary", "node"],
    ["web/pkg.wasm", "binary", "wasm"],
    ["docs/logo.png", "media", "png"],
    ["fonts/Inter.woff2", "media", "woff2"],
    ["package.json", "manifest", "package.json"],
    ["api/pom.xml", "manifest", "pom.xml"],
    [".github/workflows/ci.yml", "workflow", "workflow"],
    [".github/actions/setup/action.yml", "workflow", "workflow"],
    ["README.md", "text", "md"],
    ["config/app.yaml", "text", "yaml"],
  ])("%s is %s (%s)", (filename, kind, language) => {
    expect(ledgerKind({ filename, status: "added", additions: 1, deletions: 0, changes: 1 })).toEqual({
      kind,
      language,
    });
  });

  it("a script without an extension is code in the language its first line names", async () => {
    const [script] = files({ filename: "bin/report", patch: addedFilePatch(["#!/usr/bin/env perl", "print 1;"]) });
    expect(script && ledgerKind(script)).toEqual({ kind: "code", language: "perl" });
    const [plain] = files({ filename: "NOTICE", patch: addedFilePatch(["Copyright 2026 Acme"]) });
    expect(plain && ledgerKind(plain)).toEqual({ kind: "text", language: "NOTICE" });
  });
});

describe("buildCoverage", async () => {
  it("reads TypeScript with every code detector and Markdown for secrets", async () => {
    const c = await ledger([
      { filename: "src/a.ts", patch: addedFilePatch(["export const a = 1;"]) },
      { filename: "README.md", patch: addedFilePatch(["# Hi"]) },
    ]);
    expect(c.unread).toEqual([]);
    const ts = c.read.find((g) => g.language === "typescript");
    expect(ts?.files).toEqual(["src/a.ts"]);
    // Named by the policies they check: credentials, injection, auth, crypto, logging, third parties.
    expect(ts?.by).toEqual(expect.arrayContaining(["SEC-01", "SEC-02", "SEC-03", "SEC-05", "DATA-01", "DATA-03"]));
    expect(c.read.find((g) => g.language === "md")?.by).toContain("SEC-01");
  });

  it("a language no grammar reads is unread code, naming the detectors that do not read it", async () => {
    const c = await ledger([{ filename: "cgi-bin/run.pl", patch: addedFilePatch(["print `ping $host`;"]) }]);
    expect(c.read).toEqual([]);
    expect(c.unread).toEqual([
      expect.objectContaining({ file: "cgi-bin/run.pl", kind: "code", language: "perl", reason: "language" }),
    ]);
    expect(c.unread[0]?.detail).toContain("injection (SEC-02)");
    expect(c.unread[0]?.detail).toContain("read only by credentials (SEC-01)");
  });

  it("binaries that can run and files without a diff are unread; pictures, removed files and pure renames are exempt", async () => {
    const c = coverageView(
      await buildCoverage(
        [
          noPatch("vendor/libfast.so"),
          noPatch("build/tool.jar"),
          noPatch("src/huge.ts", "modified"),
          noPatch("docs/logo.png"),
          { ...noPatch("src/old.ts", "removed"), deletions: 4, changes: 4 },
          { ...noPatch("src/new/place.ts", "renamed"), previousFilename: "src/place.ts" },
        ],
        ALL_DETECTORS,
        [],
        [],
      ),
    );
    expect(c.unread.map((u) => [u.file, u.reason])).toEqual([
      ["vendor/libfast.so", "binary"],
      ["build/tool.jar", "binary"],
      ["src/huge.ts", "no_patch"],
    ]);
    expect(c.exempt).toEqual([
      { file: "docs/logo.png", why: "media" },
      { file: "src/old.ts", why: "removed" },
      { file: "src/new/place.ts", why: "unchanged rename" },
    ]);
  });

  it("a manifest or workflow its detector does not parse is an unread format", async () => {
    const c = await ledger([
      { filename: "vendor/acme/mailer/composer.json", patch: addedFilePatch(["{}"]) },
      { filename: ".github/actions/setup/action.yml", patch: addedFilePatch(["runs: {using: composite}"]) },
      { filename: "package.json", patch: addedFilePatch(["{}"]) },
      { filename: "api/pom.xml", patch: addedFilePatch(["<project/>"]) },
      { filename: "Gemfile", patch: addedFilePatch(['gem "rack"']) },
    ]);
    expect(c.unread.map((u) => [u.file, u.reason])).toEqual([
      ["vendor/acme/mailer/composer.json", "format"],
      [".github/actions/setup/action.yml", "format"],
    ]);
    expect(c.unread[0]?.detail).toContain("dependency-licenses (LIC-01, LIC-02)");
    // pom.xml, Gemfile and the other manifests the ledger knows are read by the licence detector.
    expect(c.read.flatMap((g) => g.files)).toEqual(["package.json", "api/pom.xml", "Gemfile"]);
  });

  it("a Dockerfile, Terraform and SQL files are read by their readers, and shell, Scala, Swift and C by their grammars", async () => {
    const c = await ledger([
      { filename: "Dockerfile", patch: addedFilePatch(["FROM node:20", "ENV PORT=8080"]) },
      {
        filename: "infra/main.tf",
        patch: addedFilePatch(['resource "aws_s3_bucket" "b" {', '  bucket = "logs"', "}"]),
      },
      { filename: "db/migrations/002_users.sql", patch: addedFilePatch(["ALTER TABLE users ADD COLUMN phone TEXT;"]) },
      { filename: "scripts/build.sh", patch: addedFilePatch(["npm ci"]) },
      { filename: "src/Util.scala", patch: addedFilePatch(["object Util"]) },
      { filename: "Sources/App/Util.swift", patch: addedFilePatch(["struct Util {}"]) },
      { filename: "src/util.c", patch: addedFilePatch(["int a;"]) },
    ]);
    expect(c.unread).toEqual([]);
    const by = (file: string) => c.read.find((g) => g.files.includes(file))?.by ?? [];
    expect(by("Dockerfile")).toContain("SEC-01");
    expect(by("infra/main.tf")).toContain("SEC-01");
    expect(by("db/migrations/002_users.sql")).toEqual(expect.arrayContaining(["SEC-01", "DATA-02"]));
    for (const file of ["scripts/build.sh", "src/Util.scala", "Sources/App/Util.swift", "src/util.c"])
      expect(by(file)).toEqual(expect.arrayContaining(["SEC-01", "SEC-02", "SEC-05", "DATA-01"]));
  });

  it("an overlong added line is unread, at its line; trailing whitespace does not make a line long", async () => {
    const long = `log(user.email); // ${"x".repeat(2100)}`;
    const padded = `q = "SELECT " + id${" ".repeat(2100)}`;
    const c = await ledger([
      { filename: "src/a.ts", patch: addedFilePatch(["const a = 1;", long, long]) },
      { filename: "src/b.ts", patch: addedFilePatch([padded]) },
    ]);
    expect(c.unread).toEqual([expect.objectContaining({ file: "src/a.ts", reason: "long_line", line: 2 })]);
    expect(c.unread[0]?.detail).toBe(
      "line 2 is 2,120 characters long (and 1 more line), over the 2,000 the detectors read",
    );
    expect(c.read.flatMap((g) => g.files)).toEqual(["src/b.ts"]);
  });

  it("a context line that is long is not a changed line", async () => {
    const patch = `@@ -1,1 +1,2 @@\n ${"y".repeat(3000)}\n+const b = 2;`;
    expect((await ledger([{ filename: "src/a.ts", patch }])).unread).toEqual([]);
  });

  it("gaps from the detect step (a cap, a head file) are unread, also for files the PR does not change", async () => {
    const c = await ledger(
      [{ filename: "vendor/x/a.zig", patch: addedFilePatch(["int a;"]) }],
      [
        { file: "src/a.ts", reason: "cap", detail: "over the cap" },
        { file: "vendor/x/COPYING", reason: "snapshot", detail: "the head snapshot could not give it: disk full" },
      ],
    );
    expect(c.unread.map((u) => [u.file, u.reason])).toEqual([
      ["vendor/x/a.zig", "language"],
      ["src/a.ts", "cap"],
      ["vendor/x/COPYING", "snapshot"],
    ]);
    const d = await ledger(
      [{ filename: "src/a.ts", patch: addedFilePatch(["const a = 1;"]) }],
      [{ file: "src/a.ts", reason: "cap", detail: "over the cap" }],
    );
    expect(d.unread).toEqual([expect.objectContaining({ file: "src/a.ts", reason: "cap", kind: "code" })]);
    expect(d.read).toEqual([]);
  });

  it("the configuration can accept unread files by path or language: a warning, never a block", async () => {
    const c = await ledger(
      [
        { filename: "cgi-bin/run.pl", patch: addedFilePatch(["print 1;"]) },
        { filename: "scripts/deploy.ps1", patch: addedFilePatch(["echo hi"]) },
        { filename: "tools/gen.tcl", patch: addedFilePatch(["print(1)"]) },
      ],
      [],
      [
        { language: "Perl", reason: "legacy CGI, reviewed by hand" },
        { path: "scripts/**", reason: "ops scripts" },
      ],
    );
    expect(c.unread.map((u) => [u.file, u.accepted])).toEqual([
      ["cgi-bin/run.pl", "legacy CGI, reviewed by hand"],
      ["scripts/deploy.ps1", "ops scripts"],
      ["tools/gen.tcl", undefined],
    ]);
    expect(c.unread.filter((u) => u.accepted === undefined).map((u) => u.file)).toEqual(["tools/gen.tcl"]);
    expect(coverageLines(c)).toEqual([
      "Read 0 of 3 changed files that need reading.",
      expect.stringMatching(/^Not read: tools\/gen\.tcl \(tcl: /),
      expect.stringMatching(/^Not read, accepted by the configuration: cgi-bin\/run\.pl \(.*accepted: legacy CGI/),
    ]);
  });
});
