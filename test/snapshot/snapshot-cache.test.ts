import fs from "node:fs";
import path from "node:path";
import { Octokit } from "@octokit/rest";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SnapshotRef } from "../../src/domain/snapshot-ref.js";
import { headFilesFor } from "../../src/snapshot/head-files.js";
import { createSnapshotCache } from "../../src/snapshot/snapshot-cache.js";
import { rawTarball, startFakeGitHub, type FakeGitHub } from "../fakes/github-api.js";
import { manyFilesTarball } from "../fakes/hostile-tarballs.js";
import { silentLog, tempDir } from "../helpers/gate.js";
import { treeOf } from "../server/helpers.js";

const SHA = "e".repeat(40);
const TOP = `acme-web-${SHA.slice(0, 7)}`;
const REF: SnapshotRef = { kind: "github", owner: "acme", repo: "web", sha: SHA };
const CAPS = { maxBytes: 1_000_000, maxFiles: 1000, maxDepth: 40 };

let gh: FakeGitHub;
let dataDir: string;
beforeAll(async () => {
  gh = await startFakeGitHub();
});
afterAll(() => gh.close());
beforeEach(() => {
  dataDir = tempDir("gate-snapshot-cache-");
  gh.requests.length = 0;
  gh.setTarball("acme", "web", SHA, rawTarball([{ path: `${TOP}/src/app.ts`, type: "File", body: "export {};\n" }]));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A cache whose GitHub client is the real Octokit against the fake; it counts the clients asked for. */
function cache(opts: { github?: boolean } = {}) {
  const asked: SnapshotRef[] = [];
  const octokitFor = async (ref: SnapshotRef) => {
    asked.push(ref);
    return new Octokit({ baseUrl: gh.url, auth: "ghp_test" });
  };
  const snapshots = createSnapshotCache({
    dataDir,
    caps: CAPS,
    log: silentLog,
    ...(opts.github === false ? {} : { octokitFor }),
  });
  return { snapshots, asked };
}

const downloads = () => gh.find("GET", /\/tarball\//).length;

describe("the snapshot cache: a head fetched when first read, once per process", () => {
  it("downloads nothing until a reader asks, then once for readers asking at the same time", async () => {
    const { snapshots } = cache();
    const head = headFilesFor(REF, snapshots);
    expect(downloads()).toBe(0);
    const texts = await Promise.all([
      head.read("src/app.ts"),
      head.read("src/app.ts"),
      head.read("missing.ts"),
      snapshots.open(REF),
    ]);
    expect(texts.slice(0, 3)).toEqual(["export {};\n", "export {};\n", undefined]);
    expect(texts[3]).toEqual({
      root: path.join(dataDir, "snapshots", "acme", "web", `${SHA}.snapshot`, "tree"),
      lost: [],
    });
    expect(downloads()).toBe(1);
    // Later reads use the copy on disk; no staging folder is left beside it.
    expect(await head.read("src/app.ts")).toBe("export {};\n");
    expect(downloads()).toBe(1);
    const folder = `${SHA}.snapshot`;
    expect(treeOf(path.join(dataDir, "snapshots", "acme", "web"))).toEqual([
      folder,
      `${folder}/record.json`,
      `${folder}/tree`,
      `${folder}/tree/src`,
      `${folder}/tree/src/app.ts`,
    ]);
  });

  it("fetches again once the copy is released or gone (a restart, another replica), as the ref's installation", async () => {
    const { snapshots, asked } = cache();
    const ref: SnapshotRef = { ...REF, installationId: 77 };
    const { root } = await snapshots.open(ref);
    await snapshots.release(ref);
    expect(fs.existsSync(path.dirname(root))).toBe(false);
    expect(await headFilesFor(ref, snapshots).read("src/app.ts")).toBe("export {};\n");
    // A new process: nothing in memory, and the data directory lost.
    fs.rmSync(dataDir, { recursive: true, force: true });
    const other = cache();
    expect(await headFilesFor(ref, other.snapshots).read("src/app.ts")).toBe("export {};\n");
    expect(downloads()).toBe(3);
    expect([...asked, ...other.asked]).toEqual([ref, ref, ref]);
  });

  it("a release while a download runs leaves no copy behind once it lands", async () => {
    const { snapshots } = cache();
    const fetching = snapshots.open(REF);
    await snapshots.release(REF);
    const { root } = await fetching;
    expect(downloads()).toBe(1);
    expect(fs.existsSync(root)).toBe(false);
    expect(treeOf(dataDir).filter((p) => p.includes(SHA))).toEqual([]);
  });

  it("refuses a head over a cap with SNAPSHOT_OVER_CAP naming the setting, leaves nothing, and does not download it again at once", async () => {
    gh.setTarball("acme", "web", SHA, manyFilesTarball(TOP, 5000));
    const { snapshots } = cache();
    const head = headFilesFor(REF, snapshots);
    const failures = await Promise.all([head.read("a"), head.read("b")].map((p) => p.catch((e: unknown) => e)));
    for (const error of failures) {
      expect(error).toMatchObject({ name: "GateError", code: "SNAPSHOT_OVER_CAP" });
      expect(String((error as Error).message)).toMatch(
        /^the head snapshot acme\/web@eeeeeee was refused: .*more than 1000 entries.*GATE_SNAPSHOT_MAX_FILES/,
      );
    }
    await expect(snapshots.open(REF)).rejects.toMatchObject({ code: "SNAPSHOT_OVER_CAP" });
    expect(downloads()).toBe(1);
    expect(treeOf(dataDir).filter((p) => p.includes(SHA))).toEqual([]);
  });

  it("a tarball GitHub does not serve, or no GitHub client, is GITHUB_INTAKE saying which commit", async () => {
    const missing: SnapshotRef = { ...REF, sha: "f".repeat(40) };
    await expect(cache().snapshots.open(missing)).rejects.toMatchObject({
      code: "GITHUB_INTAKE",
      message: expect.stringMatching(
        /^the head snapshot acme\/web@fffffff could not be fetched: cannot download .*Not Found/,
      ),
    });
    await expect(cache({ github: false }).snapshots.open(REF)).rejects.toMatchObject({
      code: "GITHUB_INTAKE",
      message: expect.stringContaining("could not be fetched: GitHub is not configured"),
    });
    expect(treeOf(dataDir).filter((p) => p.includes(SHA) || p.includes("f".repeat(40)))).toEqual([]);
  });

  it("never fetches nor removes a fixture's folder, and reads nothing for a review without a snapshot", async () => {
    const { snapshots, asked } = cache();
    const fixturesDir = tempDir("gate-fixtures-");
    fs.mkdirSync(path.join(fixturesDir, "f1", "repo"), { recursive: true });
    fs.writeFileSync(path.join(fixturesDir, "f1", "repo", "a.txt"), "a\n");
    const fixture: SnapshotRef = { kind: "fixture", fixturesDir, name: "f1" };
    expect(await headFilesFor(fixture, snapshots).read("a.txt")).toBe("a\n");
    await snapshots.release(fixture);
    expect(fs.existsSync(path.join(fixturesDir, "f1", "repo", "a.txt"))).toBe(true);
    expect(await headFilesFor({ kind: "none" }, snapshots).read("a.txt")).toBeUndefined();
    await expect(snapshots.open({ kind: "none" })).rejects.toMatchObject({ code: "SANDBOX_REFUSED" });
    expect(asked).toEqual([]);
    expect(downloads()).toBe(0);
    fs.rmSync(fixturesDir, { recursive: true, force: true });
  });
});
