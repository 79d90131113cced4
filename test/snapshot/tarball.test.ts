import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Octokit } from "@octokit/rest";
import { create } from "tar";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GateError } from "../../src/domain/errors.js";
import { extractTarball, fetchSnapshot, removeSnapshot } from "../../src/snapshot/tarball.js";
import { rawTarball, startFakeGitHub, type FakeGitHub } from "../fakes/github-api.js";

const SHA = "c".repeat(40);
const TOP = `acme-web-${SHA.slice(0, 7)}`;
const CAPS = { maxFiles: 1000, maxDepth: 40 };

async function tarballOf(files: Record<string, string>): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), "gate-tar-src-"));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  const chunks: Buffer[] = [];
  const stream = create({ gzip: true, cwd: dir, prefix: `${TOP}/`, portable: true }, Object.keys(files));
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  await rm(dir, { recursive: true, force: true });
  return Buffer.concat(chunks);
}

/** Every path under `dir` (relative), to prove nothing landed where it should not. */
async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      out.push(path.relative(dir, full));
      if (e.isDirectory()) await walk(full);
    }
  };
  await walk(dir);
  return out.sort();
}

describe("snapshot extraction", () => {
  let gh: FakeGitHub;
  let octokit: Octokit;
  let base: string;
  let root: string;
  let sibling: string;

  beforeAll(async () => {
    gh = await startFakeGitHub();
    octokit = new Octokit({ baseUrl: gh.url, auth: "ghp_test" });
  });
  afterAll(() => gh.close());
  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), "gate-snap-"));
    root = path.join(base, "snapshots", "acme", "web", SHA);
    sibling = path.join(base, "sibling");
    await mkdir(sibling);
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it("downloads the tarball through GitHub's redirect and extracts it without the top folder", async () => {
    gh.setTarball("acme", "web", SHA, await tarballOf({ "README.md": "# web\n", "src/auth/login.ts": "export {};\n" }));
    const stats = await fetchSnapshot(
      octokit,
      { owner: "acme", repo: "web", sha: SHA },
      { root, maxBytes: 1_000_000, ...CAPS },
    );
    expect(stats).toEqual({ files: 2, bytes: 6 + 11, refused: [], lost: [] });
    expect(await readFile(path.join(root, "src/auth/login.ts"), "utf8")).toBe("export {};\n");
    expect(existsSync(path.join(root, TOP))).toBe(false);
    expect(gh.find("GET", /\/tarball\//)).toHaveLength(1);
    expect(gh.find("GET", /^\/_codeload\//)).toHaveLength(1);
  });

  it("refuses hostile entries and writes nothing outside the root", async () => {
    const hostile = rawTarball([
      { path: `${TOP}/`, type: "Directory" },
      { path: `${TOP}/ok.txt`, type: "File", body: "fine" },
      { path: `${TOP}/../evil.txt`, type: "File", body: "escaped" },
      { path: "../evil2.txt", type: "File", body: "escaped" },
      { path: "/tmp/gate-absolute-evil.txt", type: "File", body: "absolute" },
      { path: `${TOP}/etc`, type: "SymbolicLink", linkpath: "/etc" },
      { path: `${TOP}/up`, type: "SymbolicLink", linkpath: "../../sibling" },
      { path: `${TOP}/hard`, type: "Link", linkpath: `${TOP}/../../../sibling/x` },
      { path: `${TOP}/hard-abs`, type: "Link", linkpath: "/etc/passwd" },
      { path: `${TOP}/fifo`, type: "FIFO" },
      { path: `${TOP}/tty`, type: "CharacterDevice", devmaj: 5, devmin: 0 },
      { path: `${TOP}/inside`, type: "SymbolicLink", linkpath: "ok.txt" },
      { path: `${TOP}/sub/`, type: "Directory" },
      { path: `${TOP}/sub/parent`, type: "SymbolicLink", linkpath: ".." },
      // Lexically "sub", physically the root's parent: only the post-extraction check sees it.
      { path: `${TOP}/sneaky`, type: "SymbolicLink", linkpath: "sub/parent/.." },
      { path: `${TOP}/sneaky/through-link.txt`, type: "File", body: "through a symlink" },
      { path: `${TOP}/up/through-up.txt`, type: "File", body: "through a symlink" },
    ]);
    gh.setTarball("acme", "web", SHA, hostile);
    const stats = await fetchSnapshot(
      octokit,
      { owner: "acme", repo: "web", sha: SHA },
      { root, maxBytes: 1_000_000, ...CAPS },
    );

    const refusedText = stats.refused.join("\n");
    for (const needle of [
      "../evil.txt",
      "../evil2.txt",
      "absolute path",
      "/etc",
      "up: symlink leaves",
      "hard:",
      "hard-abs",
      "fifo",
      "tty",
      "sneaky",
      "sneaky/through-link.txt",
    ]) {
      expect(refusedText).toContain(needle);
    }
    expect(await readFile(path.join(root, "ok.txt"), "utf8")).toBe("fine");
    expect(await readlink(path.join(root, "inside"))).toBe("ok.txt");
    for (const gone of ["etc", "hard", "hard-abs", "fifo", "tty", "sneaky"]) {
      expect(existsSync(path.join(root, gone)), gone).toBe(false);
    }
    // The refused "up" link was never made, so the later "up/through-up.txt" is an ordinary file inside.
    expect((await lstat(path.join(root, "up"))).isSymbolicLink()).toBe(false);
    expect(await readFile(path.join(root, "up/through-up.txt"), "utf8")).toBe("through a symlink");
    // Nothing outside the root: the sibling stays empty, and the root's parents hold only the root.
    expect(await readdir(sibling)).toEqual([]);
    expect(await tree(base)).toEqual(
      ["sibling", "snapshots", "snapshots/acme", "snapshots/acme/web", `snapshots/acme/web/${SHA}`]
        .concat((await tree(root)).map((p) => `snapshots/acme/web/${SHA}/${p}`))
        .sort(),
    );
    expect(existsSync("/tmp/gate-absolute-evil.txt")).toBe(false);
    expect(existsSync(path.join(root, "tmp/gate-absolute-evil.txt"))).toBe(false);
  });

  it("fails and removes the partial root when the content passes maxBytes", async () => {
    const gz = rawTarball([
      { path: `${TOP}/a.bin`, type: "File", body: randomBytes(600) },
      { path: `${TOP}/b.bin`, type: "File", body: randomBytes(600) },
    ]);
    const error = await extractTarball(gz, { root, maxBytes: 1000, ...CAPS }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GateError);
    expect(error).toMatchObject({ code: "SNAPSHOT_OVER_CAP", cap: "maxBytes" });
    expect(existsSync(root)).toBe(false);
    expect(await readdir(sibling)).toEqual([]);
  });

  it("fails cleanly on a truncated or non-tar download", async () => {
    const good = rawTarball([{ path: `${TOP}/a.txt`, type: "File", body: "x".repeat(5000) }]);
    for (const input of [good.subarray(0, good.length - 30), Buffer.from("<html>rate limited</html>")]) {
      await expect(extractTarball(input, { root, maxBytes: 100_000, ...CAPS })).rejects.toMatchObject({
        code: "SNAPSHOT_INCOMPLETE",
        message: expect.stringContaining("nothing of it was kept"),
      });
      expect(existsSync(root)).toBe(false);
    }
  });

  it("refuses a relative root and a non-SHA ref before touching the disk", async () => {
    await expect(extractTarball(Buffer.alloc(0), { root: "snapshots/x", maxBytes: 10, ...CAPS })).rejects.toMatchObject(
      {
        code: "SANDBOX_REFUSED",
      },
    );
    await expect(
      fetchSnapshot(octokit, { owner: "acme", repo: "web", sha: "../../etc" }, { root, maxBytes: 10, ...CAPS }),
    ).rejects.toMatchObject({ code: "SANDBOX_REFUSED" });
    expect(gh.find("GET", /tarball\/\.\./)).toHaveLength(0);
  });

  it("removeSnapshot deletes the tree and tolerates a missing one", async () => {
    await mkdir(path.join(root, "d"), { recursive: true });
    await writeFile(path.join(root, "d/f"), "x");
    await removeSnapshot(root);
    expect(existsSync(root)).toBe(false);
    await expect(removeSnapshot(root)).resolves.toBeUndefined();
    expect((await lstat(sibling)).isDirectory()).toBe(true);
  });
});
