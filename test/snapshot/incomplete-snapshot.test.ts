import fs from "node:fs";
import path from "node:path";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from "vitest";
import { describeError } from "../../src/domain/errors.js";
import type { OpenSnapshot, SnapshotRef } from "../../src/domain/snapshot-ref.js";
import { runInvestigation } from "../../src/investigator/harness.js";
import type { Strategy, StrategyMove, ToolCall } from "../../src/investigator/strategy.js";
import { runTool } from "../../src/investigator/tools/index.js";
import { headFilesFor } from "../../src/snapshot/head-files.js";
import { createSnapshotCache } from "../../src/snapshot/snapshot-cache.js";
import { rawTarball, startFakeGitHub, type FakeGitHub } from "../fakes/github-api.js";
import { overlongName, unwritableFile } from "../fakes/hostile-tarballs.js";
import { silentLog, tempDir } from "../helpers/gate.js";
import { treeOf } from "../server/helpers.js";
import { buildPr } from "../detectors/pr-builder.js";

const SHA = "9".repeat(40);
const TOP = `acme-lib-${SHA.slice(0, 7)}`;
const REF: SnapshotRef = { kind: "github", owner: "acme", repo: "lib", sha: SHA };
const CAPS = { maxBytes: 1_000_000, maxFiles: 1000, maxDepth: 40 };
const GPL = "                    GNU GENERAL PUBLIC LICENSE\n                       Version 2, June 1991\n";
const LONG = overlongName("src/generated/parser");

/** A head whose vendored COPYING, and one over-long name, the filesystem cannot write. */
const lossyHead = () =>
  rawTarball([
    { path: `${TOP}/`, type: "Directory" },
    { path: `${TOP}/README.md`, type: "File", body: "# lib\n" },
    { path: `${TOP}/src/index.ts`, type: "File", body: "export const token = 1;\n" },
    { path: `${TOP}/${LONG}`, type: "File", body: "export const token = 2;\n" },
    { path: `${TOP}/vendor/fastjson/parse.c`, type: "File", body: "int parse(void);\n" },
    ...unwritableFile(`${TOP}/vendor/fastjson/COPYING`, GPL),
  ]);

let gh: FakeGitHub;
let dataDir: string;
beforeAll(async () => {
  gh = await startFakeGitHub();
});
afterAll(() => gh.close());
beforeEach(() => {
  dataDir = tempDir("gate-incomplete-");
  gh.requests.length = 0;
  gh.setTarball("acme", "lib", SHA, lossyHead());
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A process's snapshot cache, downloading from the fake with the real Octokit. */
const cache = () =>
  createSnapshotCache({
    dataDir,
    caps: CAPS,
    log: silentLog,
    octokitFor: async () => new Octokit({ baseUrl: gh.url, auth: "ghp_test" }),
  });
const downloads = () => gh.find("GET", /\/tarball\//).length;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe("an incomplete head snapshot: what it lost is named, never read as absent", () => {
  it("opens with its lost entries; a lost file and an absent one throw SNAPSHOT_INCOMPLETE naming the loss; whole files read", async () => {
    const snapshots = cache();
    const opened = await snapshots.open(REF);
    expect(opened.lost).toEqual([
      { path: LONG, cause: "ENAMETOOLONG: name too long" },
      { path: "vendor/fastjson/COPYING", cause: "ENOTEMPTY: directory not empty" },
    ]);
    const head = headFilesFor(REF, snapshots);

    const lost = await failure(head.read("vendor/fastjson/COPYING"));
    expect(lost).toMatchObject({ name: "GateError", code: "SNAPSHOT_INCOMPLETE" });
    expect((lost as Error).message).toBe(
      "the head snapshot is incomplete: vendor/fastjson/COPYING was not written (ENOTEMPTY: directory not empty)",
    );
    expect(describeError(lost)).toContain("GATE_DATA_DIR");

    // Absent while entries were lost: perhaps one the extraction never reached, so not "no such file".
    for (const absent of ["vendor/fastjson/LICENSE", "package.json"]) {
      const error = await failure(head.read(absent));
      expect(error).toMatchObject({ code: "SNAPSHOT_INCOMPLETE" });
      expect((error as Error).message).toContain("vendor/fastjson/COPYING (ENOTEMPTY: directory not empty)");
      expect((error as Error).message).toContain("ENAMETOOLONG");
    }
    const over = await failure(head.read(LONG));
    expect((over as Error).message).toMatch(
      /^the head snapshot is incomplete: src\/generated\/parser_+….*\.c was not written \(ENAMETOOLONG/,
    );

    expect(await head.read("src/index.ts")).toBe("export const token = 1;\n");
    expect(await head.read("vendor/fastjson/parse.c")).toBe("int parse(void);\n");
    // Refusals stay what they were: outside the snapshot reads as nothing, not as a loss.
    expect(await head.read("../etc/passwd")).toBeUndefined();
    expect(downloads()).toBe(1);
  });

  it("the record moves into place with the tree: another process reads the same losses without downloading", async () => {
    await cache().open(REF);
    const folder = path.join(dataDir, "snapshots", "acme", "lib", `${SHA}.snapshot`);
    expect(treeOf(path.dirname(folder)).filter((p) => !p.includes("/tree/"))).toEqual([
      `${SHA}.snapshot`,
      `${SHA}.snapshot/record.json`,
      `${SHA}.snapshot/tree`,
    ]);
    const restarted = cache();
    await expect(headFilesFor(REF, restarted).read("vendor/fastjson/COPYING")).rejects.toMatchObject({
      code: "SNAPSHOT_INCOMPLETE",
    });
    expect((await restarted.open(REF)).lost).toHaveLength(2);
    expect(downloads()).toBe(1);
  });

  it("a half-extracted folder a dead process left, or a folder without a record, is never taken for the snapshot", async () => {
    const folder = path.join(dataDir, "snapshots", "acme", "lib", `${SHA}.snapshot`);
    // The process died while extracting: its staging folder holds part of the tree and no record.
    const staging = `${folder}.partial-0d1e2a3d`;
    fs.mkdirSync(path.join(staging, "tree", "src"), { recursive: true });
    fs.writeFileSync(path.join(staging, "tree", "src", "index.ts"), "export const token = 1;\n");
    // And a folder in place with a tree but no record (not written by this layout): nothing says it is whole.
    fs.mkdirSync(path.join(folder, "tree"), { recursive: true });
    fs.writeFileSync(path.join(folder, "tree", "README.md"), "# lib\n");

    const head = headFilesFor(REF, cache());
    await expect(head.read("vendor/fastjson/COPYING")).rejects.toMatchObject({ code: "SNAPSHOT_INCOMPLETE" });
    expect(downloads()).toBe(1);
    expect(fs.existsSync(path.join(folder, "record.json"))).toBe(true);
    expect(fs.existsSync(path.join(folder, "tree", "vendor", "fastjson", "parse.c"))).toBe(true);
  });

  it("a whole head opens with nothing lost, and an absent file is simply absent", async () => {
    gh.setTarball(
      "acme",
      "lib",
      SHA,
      rawTarball([
        { path: `${TOP}/`, type: "Directory" },
        { path: `${TOP}/vendor/fastjson/COPYING`, type: "File", body: GPL },
      ]),
    );
    const snapshots = cache();
    expect((await snapshots.open(REF)).lost).toEqual([]);
    const head = headFilesFor(REF, snapshots);
    expect(await head.read("vendor/fastjson/COPYING")).toBe(GPL);
    expect(await head.read("vendor/fastjson/LICENSE")).toBeUndefined();
  });
});

describe("the investigator's tools on an incomplete snapshot", () => {
  let snapshot: OpenSnapshot;
  beforeEach(async () => {
    snapshot = await cache().open(REF);
  });
  const run = (call: ToolCall) => runTool(snapshot.root, call, { maxChars: 10_000, lost: snapshot.lost });
  const read = (p: string): ToolCall => ({ id: "1", tool: "read_file", args: { path: p } });

  it("read_file: a lost or absent file is refused naming the loss; a whole file reads", async () => {
    await expect(run(read("vendor/fastjson/COPYING"))).rejects.toMatchObject({
      code: "SNAPSHOT_INCOMPLETE",
      message: expect.stringContaining("vendor/fastjson/COPYING was not written"),
    });
    await expect(run(read("vendor/fastjson/LICENSE"))).rejects.toMatchObject({ code: "SNAPSHOT_INCOMPLETE" });
    expect((await run(read("src/index.ts"))).output).toContain("1\texport const token = 1;");
  });

  it("list_dir: a folder something was lost from is refused; others list", async () => {
    await expect(run({ id: "1", tool: "list_dir", args: { path: "vendor/fastjson" } })).rejects.toMatchObject({
      code: "SNAPSHOT_INCOMPLETE",
      message: expect.stringContaining("vendor/fastjson/COPYING"),
    });
    // The root lists src/ and vendor/, both there: what was lost lies below them.
    expect((await run({ id: "1", tool: "list_dir", args: { path: "" } })).output).toBe("README.md\nsrc/\nvendor/");
    await expect(run({ id: "1", tool: "list_dir", args: { path: "src/generated" } })).rejects.toMatchObject({
      code: "SNAPSHOT_INCOMPLETE",
    });
  });

  it("grep_repo: a search that could have missed a lost file is refused; one whose glob excludes every loss runs", async () => {
    const grep = (glob?: string): ToolCall => ({
      id: "1",
      tool: "grep_repo",
      args: { pattern: "token", ...(glob ? { glob } : {}) },
    });
    await expect(run(grep())).rejects.toMatchObject({ code: "SNAPSHOT_INCOMPLETE" });
    await expect(run(grep("*.c"))).rejects.toMatchObject({
      code: "SNAPSHOT_INCOMPLETE",
      message: expect.stringContaining("ENAMETOOLONG"),
    });
    expect((await run(grep("*.ts"))).output).toContain("src/index.ts:1:export const token = 1;");
  });

  it("an investigation that reaches a lost file ends inconclusive naming it, whatever the strategy answers", async () => {
    const moves: StrategyMove[] = [
      { kind: "tools", calls: [read("src/index.ts"), read("vendor/fastjson/COPYING")] },
      { kind: "answer", answer: { conclusive: true, answers: ["no licence problem"], evidence: [], concerns: [] } },
    ];
    const strategy: Strategy = {
      name: "scripted",
      kind: "model",
      next: async (ctx) => moves[ctx.turn - 1] ?? (moves[1] as StrategyMove),
    };
    const pr = buildPr({ repo: "acme/lib", number: 5, headSha: SHA });
    const report = await runInvestigation({
      strategy,
      request: { question: "Is the vendored code copyleft?", origin: "machine", findings: [] },
      pr,
      root: snapshot.root,
      lost: snapshot.lost,
      limits: { maxTurns: 4, maxToolCalls: 8, maxFileChars: 10_000, timeoutMs: 5_000 },
    });
    expect(report.status).toBe("inconclusive");
    expect(report.reason).toBe(
      "the head snapshot is incomplete: vendor/fastjson/COPYING was not written (ENOTEMPTY: directory not empty)",
    );
    expect(report.tool_calls).toBe(2);
  });
});
