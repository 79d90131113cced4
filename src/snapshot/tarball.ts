import { lstat, mkdir, readdir, readlink, realpath, rm, unlink } from "node:fs/promises";
import path from "node:path";
import type { Octokit } from "@octokit/rest";
import { ReadEntry, Unpack } from "tar";
import { GateError } from "../domain/errors.js";
import { GITHUB_SHA } from "../domain/github-names.js";

export interface SnapshotOptions {
  /** Absolute directory to extract into, derived by the caller from validated values only. */
  root: string;
  /** The most bytes of file content the snapshot may unpack to. */
  maxBytes: number;
}

/** What an extraction wrote, and what it refused to write. */
export interface SnapshotStats {
  files: number;
  bytes: number;
  /** `"<entry path>: <reason>"` for every entry skipped as unsafe. */
  refused: string[];
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

/**
 * Extracts a gzip tarball (GitHub's archive layout, one top-level folder) into `root`, refusing
 * absolute paths, `..`, links that leave the root, devices and FIFOs. Fails with
 * SANDBOX_REFUSED, and removes the root, when the content passes `maxBytes`.
 *
 * @example await extractTarball(gzBuffer, { root: "/var/gate/snapshots/acme/web/<sha>", maxBytes: 50e6 })
 */
export async function extractTarball(tarball: Buffer, opts: SnapshotOptions): Promise<SnapshotStats> {
  if (!path.isAbsolute(opts.root)) throw new GateError("SANDBOX_REFUSED", `snapshot root ${opts.root} is not absolute`);
  const root = path.resolve(opts.root);
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  const refused: string[] = [];
  let declared = 0;
  let overflow = false;

  const unpack = new Unpack({
    cwd: root,
    strip: 1,
    preserveOwner: false,
    filter: (raw, readEntry) => {
      // Unpack only passes ReadEntry (Stats is for packing); anything else is not written.
      if (overflow || !(readEntry instanceof ReadEntry)) return false;
      const normalized = raw.replace(/\\/g, "/");
      const why = refusal(readEntry, normalized);
      if (why) {
        refused.push(`${normalized}: ${why}`);
        return false;
      }
      if (strippedPath(normalized) === "") return false; // the top-level folder itself
      if (FILE_TYPES.has(readEntry.type)) {
        declared += readEntry.size ?? 0;
        if (declared > opts.maxBytes) {
          overflow = true;
          return false;
        }
      }
      return true;
    },
    onwarn: (code, message, data) => {
      if (code === "TAR_ENTRY_INFO") return;
      const entry = data.entry instanceof ReadEntry ? `${data.entry.path}: ` : "";
      refused.push(`${entry}${String(message)}`);
    },
  });

  try {
    await new Promise<void>((resolve, reject) => {
      unpack.on("close", () => resolve());
      unpack.on("error", (error: unknown) => reject(error));
      unpack.end(tarball);
    });
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw new GateError(
      "SANDBOX_REFUSED",
      `cannot extract the snapshot: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (overflow) {
    await rm(root, { recursive: true, force: true });
    throw new GateError("SANDBOX_REFUSED", `the snapshot unpacks to more than ${opts.maxBytes} bytes; not extracted`);
  }
  const written = await auditTree(root, await realpath(root), refused);
  return { ...written, refused };
}

/**
 * Downloads the tarball of a commit and extracts it into `opts.root` (see `extractTarball`).
 *
 * @example await fetchSnapshot(octokit, { owner: "acme", repo: "web", sha }, { root, maxBytes: 50_000_000 })
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
    throw new GateError("SANDBOX_REFUSED", `the snapshot archive alone is larger than ${opts.maxBytes} bytes`);
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
