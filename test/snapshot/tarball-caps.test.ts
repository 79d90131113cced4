import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeError } from "../../src/domain/errors.js";
import { SnapshotOverCap } from "../../src/snapshot/cap-counter.js";
import { extractTarball } from "../../src/snapshot/tarball.js";
import { rawTarball } from "../fakes/github-api.js";
import { deepTarball, gzipBomb, manyFilesTarball, trailingZerosBomb } from "../fakes/hostile-tarballs.js";

const SHA = "d".repeat(40);
const TOP = `acme-web-${SHA.slice(0, 7)}`;
const MiB = 1024 * 1024;
const CAPS = { maxBytes: 64 * MiB, maxFiles: 1000, maxDepth: 40 };

async function refusal(gz: Buffer, caps: Partial<typeof CAPS> = {}): Promise<unknown> {
  return extractTarball(gz, { root, ...CAPS, ...caps }).then(
    () => undefined,
    (e: unknown) => e,
  );
}

let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), "gate-caps-"));
  root = path.join(base, "snapshots", "acme", "web", SHA);
  await mkdir(path.join(base, "sibling"));
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe("snapshot caps, counted on what the archive decompresses to", () => {
  it("refuses a 1 GiB gzip bomb at the byte cap, naming GATE_SNAPSHOT_MAX_BYTES, and leaves no root", async () => {
    const bomb = gzipBomb(TOP, { files: 128, fileMiB: 8 });
    expect(bomb.length).toBeLessThan(2 * MiB);
    const error = await refusal(bomb);
    expect(error).toBeInstanceOf(SnapshotOverCap);
    expect(error).toMatchObject({ code: "SNAPSHOT_OVER_CAP", cap: "maxBytes", limit: 64 * MiB });
    expect(describeError(error)).toContain("GATE_SNAPSHOT_MAX_BYTES");
    expect(describeError(error)).toContain("README, Security");
    expect(existsSync(root)).toBe(false);
    expect(await readdir(base)).toEqual(["sibling"]);
  });

  it("stops reading at the end-of-archive blocks: 256 MiB of zeros after them are never decompressed", async () => {
    // Were the trailing zeros read, the 1 MiB cap would refuse the snapshot.
    const stats = await extractTarball(trailingZerosBomb(TOP, 256), { root, ...CAPS, maxBytes: MiB });
    expect(stats).toMatchObject({ files: 1, bytes: 6, refused: [] });
    expect(await readFile(path.join(root, "hello.txt"), "utf8")).toBe("hello\n");
  });

  it("refuses a file whose header alone declares more than the cap, before reading its content", async () => {
    const error = await refusal(gzipBomb(TOP, { files: 1, fileMiB: 80 }));
    expect(error).toMatchObject({ cap: "maxBytes" });
    expect(String((error as Error).message)).toContain("unpacks to more than 67108864 bytes");
  });

  it("refuses an archive compressed twice (tar would gunzip the inner layer in one synchronous piece)", async () => {
    const inner = rawTarball([{ path: `${TOP}/a.txt`, type: "File", body: "a" }]);
    const error = await refusal(gzipSync(inner));
    expect(error).toMatchObject({ code: "SANDBOX_REFUSED" });
    expect(String((error as Error).message)).toContain("compressed twice");
    expect(existsSync(root)).toBe(false);
  });

  it("refuses more entries than GATE_SNAPSHOT_MAX_FILES before writing any of them", async () => {
    // 2,000 files in 2 folders: 2,002 entries below the top folder.
    const error = await refusal(manyFilesTarball(TOP, 2000), { maxFiles: 2001 });
    expect(error).toMatchObject({ code: "SNAPSHOT_OVER_CAP", cap: "maxFiles", limit: 2001 });
    expect(describeError(error)).toContain("GATE_SNAPSHOT_MAX_FILES");
    expect(existsSync(root)).toBe(false);
  });

  it("extracts an archive with exactly GATE_SNAPSHOT_MAX_FILES entries", async () => {
    const stats = await extractTarball(manyFilesTarball(TOP, 2000), { root, ...CAPS, maxFiles: 2002 });
    expect(stats.files).toBe(2000);
    expect(stats.refused).toEqual([]);
  });

  it("refuses a path deeper than GATE_SNAPSHOT_MAX_DEPTH and extracts one at the limit", async () => {
    const error = await refusal(deepTarball(TOP, 41));
    expect(error).toMatchObject({ code: "SNAPSHOT_OVER_CAP", cap: "maxDepth", limit: 40 });
    expect(describeError(error)).toContain("GATE_SNAPSHOT_MAX_DEPTH");
    expect(String((error as Error).message)).toContain("41 levels deep");
    expect(existsSync(root)).toBe(false);

    await extractTarball(deepTarball(TOP, 40), { root, ...CAPS });
    const dirs = Array.from({ length: 39 }, (_, i) => `d${i}`);
    expect(await readFile(path.join(root, ...dirs, "deep.txt"), "utf8")).toBe("deep\n");
  });

  it("counts what is decompressed, not what is declared: a snapshot just under the cap is extracted", async () => {
    // 4 files of 1 MiB: 4 MiB of content plus headers and end blocks, under a 5 MiB cap.
    const stats = await extractTarball(gzipBomb(TOP, { files: 4, fileMiB: 1 }), { root, ...CAPS, maxBytes: 5 * MiB });
    expect(stats).toMatchObject({ files: 4, bytes: 4 * MiB, refused: [] });
    const error = await refusal(gzipBomb(TOP, { files: 4, fileMiB: 1 }), { maxBytes: 4 * MiB });
    expect(error).toMatchObject({ cap: "maxBytes" });
    expect(existsSync(root)).toBe(false);
  });
});
