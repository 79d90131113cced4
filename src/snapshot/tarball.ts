import { lstat, mkdir, readdir, readlink, realpath, rm, unlink } from "node:fs/promises";
import path from "node:path";
import type { Octokit } from "@octokit/rest";
import { Parser, ReadEntry, Unpack } from "tar";
import { GateError } from "../domain/errors.js";
import { GITHUB_SHA } from "../domain/github-names.js";
import type { LostEntry, SnapshotCaps } from "../domain/snapshot-ref.js";
import { CapCounter, SnapshotOverCap } from "./cap-counter.js";
import { ExtractionReport } from "./extraction-report.js";
import { feedGunzipped } from "./gunzip-feed.js";

export interface SnapshotOptions extends SnapshotCaps {
  /** Absolute directory to extract into, derived by the caller from validated values only. */
  root: string;
}

/** What an extraction wrote, what it refused to write, and what it could not write. */
export interface SnapshotStats {
  files: number;
  bytes: number;
  /** `"<entry path>: <reason>"` for every entry skipped as unsafe. */
  refused: string[];
  /** Every entry an operating-system error kept from being written whole: the snapshot is incomplete. */
  lost: LostEntry[];
}

const FILE_TYPES = new Set(["File", "OldFile", "ContiguousFile"]);
const DIR_TYPES = new Set(["Directory", "GNUDumpDir"]);

function isAbsoluteish(p: string): boolean {
  return p.startsWith("/") || /^[A-Za-z]:/.test(p) || p.startsWith("//");
}

/** The entry's path without the archive's top-level folder (`owner-repo-<sha>/`). */
function strippedPath(raw: string): string {
  return raw
    .split("/")
    .slice(1)
    .filter((s) => s !== "" && s !== ".")
    .join("/");
}

/** Why an entry must not be written, or undefined when it may. */
function refusal(entry: ReadEntry, raw: string): string | undefined {
  if (isAbsoluteish(raw)) return "absolute path";
  if (raw.split("/").includes("..")) return "path contains '..'";
  const rel = strippedPath(raw);
  if (entry.type === "SymbolicLink") {
    const target = String(entry.linkpath ?? "").replace(/\\/g, "/");
    if (target === "" || isAbsoluteish(target)) return `symlink to an absolute path (${target})`;
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(rel), target));
    if (resolved === ".." || resolved.startsWith("../")) return `symlink leaves the snapshot (${target})`;
    return undefined;
  }
  if (entry.type === "Link") {
    const target = String(entry.linkpath ?? "").replace(/\\/g, "/");
    if (target === "" || isAbsoluteish(target)) return `hardlink to an absolute path (${target})`;
    if (target.split("/").includes("..")) return `hardlink leaves the snapshot (${target})`;
    if (strippedPath(target) === "") return `hardlink to the archive root (${target})`;
    return undefined;
  }
  if (FILE_TYPES.has(entry.type) || DIR_TYPES.has(entry.type)) return undefined;
  return `unsupported entry type ${entry.type}`;
}

function toBuffer(data: unknown): Buffer {
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw new GateError("GITHUB_INTAKE", "GitHub's tarball answer was not binary data");
}

/**
 * After extraction: removes any symlink whose real target (following chains) is outside the root,
 * and counts the regular files actually written.
 */
async function auditTree(root: string, realRoot: string, refused: string[]): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const dirent of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, dirent.name);
      if (dirent.isDirectory()) {
        await walk(full);
      } else if (dirent.isFile()) {
        files += 1;
        bytes += (await lstat(full)).size;
      } else if (dirent.isSymbolicLink()) {
        let real: string | undefined;
        try {
          real = await realpath(full);
        } catch {
          real = undefined; // dangling: it points nowhere that exists, so nothing can be read through it
        }
        if (real !== undefined && real !== realRoot && !real.startsWith(realRoot + path.sep)) {
          refused.push(`${path.relative(root, full)}: symlink resolves outside the snapshot (${await readlink(full)})`);
          await unlink(full);
        }
      }
    }
  };
  await walk(root);
  return { files, bytes };
}

/** Resolves once `unpack` has finished every write it started (or failed); never rejects. */
function settled(unpack: Unpack): Promise<unknown> {
  return new Promise((resolve) => {
    unpack.on("close", () => resolve(undefined));
    unpack.on("error", (error: unknown) => resolve(error));
  });
}

/**
 * Reads the whole archive once without writing anything, counting entries, depth and decompressed
 * bytes: an archive over a cap is refused before a single file exists. So is a damaged one (a bad
 * header, truncated input, no end-of-archive blocks), which tar itself only warns about.
 */
async function scan(tarball: Buffer, caps: SnapshotCaps): Promise<void> {
  const counter = new CapCounter(caps);
  const report = new ExtractionReport();
  let ended = false;
  const parser = new Parser({
    zstd: false,
    onwarn: report.onwarn,
    onReadEntry: (entry) => {
      const rel = strippedPath(entry.path.replace(/\\/g, "/"));
      if (rel !== "") counter.addEntry(rel, FILE_TYPES.has(entry.type) ? (entry.size ?? 0) : 0);
      entry.resume();
    },
  });
  parser.on("eof", () => {
    ended = true;
  });
  const done = new Promise<unknown>((resolve) => {
    parser.on("end", () => resolve(undefined));
    parser.on("error", (error: unknown) => resolve(error));
  });
  const complete = await feedGunzipped(tarball, parser, counter);
  if (counter.over) throw counter.over;
  const error = complete ? await done : undefined;
  if (counter.over) throw counter.over;
  if (error) throw error;
  if (report.damaged !== undefined) throw damagedArchive(report.damaged);
  // GitHub's archives (git archive) always end with end-of-archive blocks: one cut at an entry's
  // boundary reads as a shorter archive unless their absence is noticed.
  if (!ended) throw damagedArchive("the archive ends before its end-of-archive blocks (truncated)");
}

function damagedArchive(why: string): GateError {
  return new GateError(
    "SNAPSHOT_INCOMPLETE",
    `the snapshot archive cannot be read whole: ${why}; nothing of it was kept`,
  );
}

/**
 * Removes what a lost file left (a file cut short by a full disk, say), so that nothing reads part
 * of it as the whole. Best effort: a read of a lost entry is refused whatever is on disk.
 */
async function removeLost(root: string, lost: readonly LostEntry[]): Promise<void> {
  for (const entry of lost) {
    if (entry.path.endsWith("/")) continue;
    const file = path.join(root, ...entry.path.split("/"));
    if (!file.startsWith(root + path.sep)) continue;
    const info = await lstat(file).catch(() => undefined);
    if (info?.isFile()) await unlink(file).catch(() => undefined);
  }
}

/**
 * Extracts a gzip tarball (GitHub's archive layout, one top-level folder) into `root`, refusing
 * absolute paths, `..`, links that leave the root, devices and FIFOs. The archive is streamed
 * through asynchronous gunzip twice: first only counted, then written, each pass stopping at the
 * first cap passed. Over a cap (decompressed bytes, entries, path depth) it fails with
 * `SnapshotOverCap` (SNAPSHOT_OVER_CAP, naming the cap's setting) and leaves no root; an archive
 * that cannot be read whole (not gzip, truncated, a damaged header) or a root that cannot be
 * written at all fails with SNAPSHOT_INCOMPLETE and leaves no root. An entry that cannot be
 * written (ENOSPC, EIO, ENAMETOOLONG…) is not a failure of the whole: it is listed in `lost`, and
 * what it left on disk is removed; the caller must treat the snapshot as incomplete.
 *
 * @example await extractTarball(gzBuffer, { root: "/var/gate/snapshots/acme/web/<sha>.snapshot/tree", maxBytes: 50e6, maxFiles: 5e4, maxDepth: 40 })
 */
export async function extractTarball(tarball: Buffer, opts: SnapshotOptions): Promise<SnapshotStats> {
  if (!path.isAbsolute(opts.root)) throw new GateError("SANDBOX_REFUSED", `snapshot root ${opts.root} is not absolute`);
  const root = path.resolve(opts.root);
  const caps: SnapshotCaps = { maxBytes: opts.maxBytes, maxFiles: opts.maxFiles, maxDepth: opts.maxDepth };
  await rm(root, { recursive: true, force: true });
  try {
    await scan(tarball, caps);
  } catch (error) {
    throw asExtractionError(error);
  }
  try {
    await mkdir(root, { recursive: true });
    return await writeTree(tarball, root, caps);
  } catch (error) {
    await rm(root, { recursive: true, force: true }).catch(() => undefined);
    throw asExtractionError(error);
  }
}

/** The writing pass of `extractTarball`, into an existing, empty `root`. */
async function writeTree(tarball: Buffer, root: string, caps: SnapshotCaps): Promise<SnapshotStats> {
  const report = new ExtractionReport();
  const { refused } = report;
  // The same counts again while writing, so nothing past a cap is written even if the passes differ.
  const counter = new CapCounter(caps);

  const unpack = new Unpack({
    cwd: root,
    strip: 1,
    preserveOwner: false,
    zstd: false,
    filter: (raw, readEntry) => {
      // Unpack only passes ReadEntry (Stats is for packing); anything else is not written.
      if (counter.over || !(readEntry instanceof ReadEntry)) return false;
      const normalized = raw.replace(/\\/g, "/");
      const rel = strippedPath(normalized);
      if (rel !== "") counter.addEntry(rel, FILE_TYPES.has(readEntry.type) ? (readEntry.size ?? 0) : 0);
      if (counter.over) return false;
      const why = refusal(readEntry, normalized);
      if (why) {
        refused.push(`${normalized}: ${why}`);
        return false;
      }
      return rel !== ""; // not the top-level folder itself
    },
    onwarn: report.onwarn,
  });
  const done = settled(unpack);
  let failure: unknown;
  try {
    await feedGunzipped(tarball, unpack, counter);
  } catch (error) {
    failure = error;
  }
  if (failure !== undefined || counter.over) {
    // Let the writes already started finish (nothing new passes the filter); the caller removes them.
    unpack.end();
    await done;
    throw counter.over ?? failure;
  }
  const unpackError = await done;
  if (unpackError !== undefined) throw unpackError;
  if (report.damaged !== undefined) throw damagedArchive(report.damaged);
  await removeLost(root, report.lost);
  const written = await auditTree(root, await realpath(root), refused);
  return { ...written, refused, lost: [...report.lost] };
}

/**
 * A cap passed, or a refusal, stays itself; anything else (tar's unrecoverable errors, gunzip's,
 * the root not writable at all) is a snapshot that could not be had whole.
 */
function asExtractionError(error: unknown): GateError {
  if (error instanceof GateError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new GateError("SNAPSHOT_INCOMPLETE", `cannot extract the snapshot: ${message}; nothing of it was kept`, {
    cause: error,
  });
}

/**
 * Downloads the tarball of a commit and extracts it into `opts.root` (see `extractTarball`).
 *
 * @example await fetchSnapshot(octokit, { owner: "acme", repo: "web", sha }, { root, maxBytes: 50_000_000, maxFiles: 50_000, maxDepth: 40 })
 */
export async function fetchSnapshot(
  octokit: Octokit,
  ref: { owner: string; repo: string; sha: string },
  opts: SnapshotOptions,
): Promise<SnapshotStats> {
  if (!GITHUB_SHA.test(ref.sha)) throw new GateError("SANDBOX_REFUSED", `"${ref.sha}" is not a commit SHA`);
  let data: unknown;
  try {
    ({ data } = await octokit.rest.repos.downloadTarballArchive({ owner: ref.owner, repo: ref.repo, ref: ref.sha }));
  } catch (error) {
    throw new GateError("GITHUB_INTAKE", `cannot download ${ref.owner}/${ref.repo}@${ref.sha.slice(0, 7)}`, {
      cause: error,
    });
  }
  const tarball = toBuffer(data);
  if (tarball.length > opts.maxBytes) {
    throw new SnapshotOverCap(
      "maxBytes",
      opts.maxBytes,
      `the snapshot archive alone is larger than ${opts.maxBytes} bytes`,
    );
  }
  return extractTarball(tarball, opts);
}

/**
 * Removes an extracted snapshot (no error when it is already gone).
 *
 * @example await removeSnapshot(root)
 */
export async function removeSnapshot(root: string): Promise<void> {
  if (!path.isAbsolute(root)) throw new GateError("SANDBOX_REFUSED", `snapshot root ${root} is not absolute`);
  const info = await lstat(root).catch(() => undefined);
  if (!info) return;
  await rm(root, { recursive: true, force: true });
}
