import { existsSync } from "node:fs";
import { lstat, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeError } from "../../src/domain/errors.js";
import { extractTarball } from "../../src/snapshot/tarball.js";
import { rawTarball } from "../fakes/github-api.js";
import { overlongName, unwritableFile } from "../fakes/hostile-tarballs.js";

const TOP = `acme-web-${"b".repeat(7)}`;
const CAPS = { maxBytes: 1_000_000, maxFiles: 1000, maxDepth: 40 };

let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), "gate-losses-"));
  root = path.join(base, "tree");
});
afterEach(() => rm(base, { recursive: true, force: true }));

const extract = (gz: Buffer) => extractTarball(gz, { root, ...CAPS });

describe("an entry the filesystem cannot write is lost and named, never dropped silently", () => {
  it("an over-long name: lost with ENAMETOOLONG; the entries before and after it are written whole", async () => {
    const long = overlongName("vendor/zlib/inflate");
    const stats = await extract(
      rawTarball([
        { path: `${TOP}/`, type: "Directory" },
        { path: `${TOP}/a.txt`, type: "File", body: "before\n" },
        { path: `${TOP}/${long}`, type: "File", body: "/* GPL-2.0 */\n" },
        { path: `${TOP}/z.txt`, type: "File", body: "after\n" },
      ]),
    );
    expect(stats.lost).toEqual([{ path: long, cause: "ENAMETOOLONG: name too long" }]);
    expect(stats.refused).toEqual([]);
    expect(stats.files).toBe(2);
    expect(await readFile(path.join(root, "a.txt"), "utf8")).toBe("before\n");
    expect(await readFile(path.join(root, "z.txt"), "utf8")).toBe("after\n");
  });

  it("a folder that cannot be made loses what it holds, each entry named", async () => {
    const dir = overlongName("third_party/lib", "");
    const stats = await extract(
      rawTarball([
        { path: `${TOP}/`, type: "Directory" },
        { path: `${TOP}/${dir}/`, type: "Directory" },
        { path: `${TOP}/${dir}/COPYING`, type: "File", body: "GNU GENERAL PUBLIC LICENSE\n" },
      ]),
    );
    expect(stats.lost.map((e) => e.path)).toEqual([`${dir}/`, `${dir}/COPYING`]);
    expect(stats.lost.every((e) => e.cause.startsWith("ENAMETOOLONG"))).toBe(true);
    expect(await readdir(root)).toEqual(["third_party"]);
  });

  it("a file that cannot replace what lies at its path (ENOTEMPTY) is lost, the cause without the local path", async () => {
    const stats = await extract(
      rawTarball([
        { path: `${TOP}/`, type: "Directory" },
        { path: `${TOP}/vendor/fastjson/parse.c`, type: "File", body: "int x;\n" },
        ...unwritableFile(`${TOP}/vendor/fastjson/COPYING`, "GNU GENERAL PUBLIC LICENSE\n"),
      ]),
    );
    expect(stats.lost).toEqual([{ path: "vendor/fastjson/COPYING", cause: "ENOTEMPTY: directory not empty" }]);
    expect(JSON.stringify(stats.lost)).not.toContain(base);
    // What is at the path is the folder in the way, not the licence.
    expect((await lstat(path.join(root, "vendor/fastjson/COPYING"))).isDirectory()).toBe(true);
  });

  it("an unsafe entry stays a refusal (the gate's own), not a loss", async () => {
    const stats = await extract(
      rawTarball([
        { path: `${TOP}/`, type: "Directory" },
        { path: `${TOP}/../evil.txt`, type: "File", body: "x" },
        { path: `${TOP}/ok.txt`, type: "File", body: "ok" },
      ]),
    );
    expect(stats.lost).toEqual([]);
    expect(stats.refused.join("\n")).toContain("../evil.txt");
  });
});

/** The uncompressed tar stream of a small archive, to cut and damage. */
function tarOf(): Buffer {
  return gunzipSync(
    rawTarball([
      { path: `${TOP}/`, type: "Directory" },
      { path: `${TOP}/a.txt`, type: "File", body: "a".repeat(2000) },
      { path: `${TOP}/b.txt`, type: "File", body: "b\n" },
    ]),
  );
}

describe("an archive that cannot be read whole is not extracted at all", () => {
  const cases: Array<[string, () => Buffer, RegExp]> = [
    [
      "gzip cut short",
      () => {
        const gz = gzipSync(tarOf());
        return gz.subarray(0, gz.length - 40);
      },
      /unexpected end of file/,
    ],
    // Header, directory, header, 4 blocks of a.txt, header, 1 block of b.txt: cut after b.txt.
    [
      "a tar stream cut between entries (no end-of-archive blocks)",
      () => gzipSync(tarOf().subarray(0, 512 * 8)),
      /end-of-archive blocks/,
    ],
    ["a file's content cut short", () => gzipSync(tarOf().subarray(0, 512 * 4)), /Truncated input/],
    [
      "a header that fails its checksum",
      () => {
        const tar = Buffer.from(tarOf());
        tar[512 + 3] = (tar[512 + 3] ?? 0) ^ 0x20; // a.txt's header
        return gzipSync(tar);
      },
      /checksum/,
    ],
  ];
  it.each(cases)("%s: SNAPSHOT_INCOMPLETE saying why, and no root", async (_name, input, why) => {
    const error = await extract(input()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: "GateError", code: "SNAPSHOT_INCOMPLETE" });
    expect(String((error as Error).message)).toMatch(why);
    expect(describeError(error)).toContain("nothing of it was kept");
    expect(existsSync(root)).toBe(false);
  });
});
