import { gzipSync } from "node:zlib";
import { Header } from "tar";
import type { RawEntry } from "./github-api.js";

function headerBlock(path: string, type: "File" | "Directory", size: number): Buffer {
  const block = Buffer.alloc(512);
  new Header({
    path,
    type,
    size,
    mode: type === "Directory" ? 0o755 : 0o644,
    uid: 0,
    gid: 0,
    mtime: new Date(0),
  }).encode(block, 0);
  return block;
}

/**
 * A gzip bomb in GitHub's archive layout: `files` files of `fileMiB` MiB of zeros each. Built from
 * concatenated gzip members (one compressed run of zeros, reused), so 1 GiB costs about 1 MB and
 * a few milliseconds to make.
 *
 * @example gzipBomb("acme-web-abc1234", { files: 128, fileMiB: 8 }) // 1 GiB of zeros, ~1 MB gzipped
 */
export function gzipBomb(top: string, opts: { files: number; fileMiB: number }): Buffer {
  const size = opts.fileMiB * 1024 * 1024;
  const zeros = gzipSync(Buffer.alloc(size), { level: 9 });
  const members: Buffer[] = [gzipSync(headerBlock(`${top}/`, "Directory", 0))];
  for (let i = 0; i < opts.files; i++)
    members.push(gzipSync(headerBlock(`${top}/zeros-${i}.bin`, "File", size)), zeros);
  members.push(gzipSync(Buffer.alloc(1024)));
  return Buffer.concat(members);
}

/**
 * A small valid archive followed by `trailingMiB` MiB of zeros after its end-of-archive blocks:
 * its entries declare almost nothing, so only counting decompressed bytes can refuse it.
 *
 * @example trailingZerosBomb("acme-web-abc1234", 1024)
 */
export function trailingZerosBomb(top: string, trailingMiB: number): Buffer {
  const body = Buffer.from("hello\n");
  const tar = Buffer.concat([
    headerBlock(`${top}/`, "Directory", 0),
    headerBlock(`${top}/hello.txt`, "File", body.length),
    body,
    Buffer.alloc(512 - body.length),
    Buffer.alloc(1024),
  ]);
  const mib = gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
  return Buffer.concat([gzipSync(tar), ...Array.from({ length: trailingMiB }, () => mib)]);
}

/**
 * An archive of `count` empty files spread over folders of 1,000 (plus the folders themselves).
 *
 * @example manyFilesTarball("acme-web-abc1234", 100_000)
 */
export function manyFilesTarball(top: string, count: number): Buffer {
  const blocks: Buffer[] = [headerBlock(`${top}/`, "Directory", 0)];
  for (let i = 0; i < count; i++) {
    if (i % 1000 === 0) blocks.push(headerBlock(`${top}/d${i / 1000}/`, "Directory", 0));
    blocks.push(headerBlock(`${top}/d${Math.floor(i / 1000)}/f${i}`, "File", 0));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

/**
 * An archive with one file `depth` folders deep below the top folder (the file is level `depth`).
 *
 * @example deepTarball("acme-web-abc1234", 41)
 */
export function deepTarball(top: string, depth: number): Buffer {
  const dirs = Array.from({ length: depth - 1 }, (_, i) => `d${i}`);
  const file = `${top}/${[...dirs, "deep.txt"].join("/")}`;
  const body = Buffer.from("deep\n");
  return gzipSync(
    Buffer.concat([
      headerBlock(`${top}/`, "Directory", 0),
      headerBlock(file, "File", body.length),
      body,
      Buffer.alloc(512 - body.length),
      Buffer.alloc(1024),
    ]),
  );
}

/** A file name longer than any Linux filesystem holds (255 bytes): writing it fails with ENAMETOOLONG. */
export function overlongName(stem: string, ext = ".c"): string {
  return `${stem}${"_".repeat(Math.max(0, 300 - stem.length - ext.length))}${ext}`;
}

/**
 * Entries after which the real filesystem cannot write `file` (its path relative to the archive,
 * top folder included): a folder at that path, holding a file, comes first, so replacing it fails
 * with ENOTEMPTY. No git tree holds both, but a write that fails is all the test needs.
 *
 * @example rawTarball([{ path: `${top}/`, type: "Directory" }, ...unwritableFile(`${top}/vendor/x/COPYING`, gpl)])
 */
export function unwritableFile(file: string, body: string): RawEntry[] {
  return [
    { path: `${file}/`, type: "Directory" },
    { path: `${file}/NOTICE`, type: "File", body: "in the way\n" },
    { path: file, type: "File", body },
  ];
}
