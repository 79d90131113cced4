import { realpath } from "node:fs/promises";
import path from "node:path";
import { GateError } from "../domain/errors.js";
import { GITHUB_OWNER, GITHUB_REPO, GITHUB_SHA } from "../domain/github-names.js";
import { FIXTURE_NAME } from "../fixture/fixture.js";
import type { SnapshotRef } from "../domain/snapshot-ref.js";

function refuse(message: string): never {
  throw new GateError("SANDBOX_REFUSED", message);
}

function plainName(value: unknown, pattern: RegExp, what: string): string {
  if (typeof value !== "string" || !pattern.test(value) || value === "." || value === "..") {
    refuse(`${what} ${JSON.stringify(value)} is not a plain name`);
  }
  return value;
}

/**
 * THE one function that derives a sandbox root (docs/design.md, reason 3). It validates every part of
 * the ref and builds the root only from validated values; it never touches the disk, so a hostile
 * ref is refused before anything is read. Throws `GateError("SANDBOX_REFUSED")`.
 *
 * @example sandboxRoot({ kind: "github", owner: "acme", repo: "web", sha: "a".repeat(40) }, { dataDir: "/var/gate" })
 *   // "/var/gate/snapshots/acme/web/aaaa….snapshot/tree"
 */
export function sandboxRoot(ref: SnapshotRef, opts: { dataDir: string }): string {
  switch (ref.kind) {
    case "fixture": {
      const name = plainName(ref.name, FIXTURE_NAME, "fixture name");
      const dir = ref.fixturesDir;
      if (typeof dir !== "string" || dir.includes("\0") || !path.isAbsolute(dir)) {
        refuse("the fixtures directory must be an absolute path");
      }
      return path.join(path.resolve(dir), name, "repo");
    }
    case "github": {
      const owner = plainName(ref.owner, GITHUB_OWNER, "GitHub owner");
      const repo = plainName(ref.repo, GITHUB_REPO, "GitHub repository");
      if (typeof ref.sha !== "string" || !GITHUB_SHA.test(ref.sha)) {
        refuse(`commit ${JSON.stringify(ref.sha)} is not a 40-hex lowercase SHA`);
      }
      if (typeof opts.dataDir !== "string" || opts.dataDir === "" || opts.dataDir.includes("\0")) {
        refuse("the data directory is not set");
      }
      // The tree sits in a folder of its own beside its record (`snapshot-record.ts`): the two are
      // moved into place in one rename, so a tree on disk is never without its record.
      return path.join(path.resolve(opts.dataDir), "snapshots", owner, repo, `${ref.sha}.snapshot`, "tree");
    }
    case "none":
      return refuse("this review has no snapshot to read");
    default:
      return refuse("unknown snapshot kind");
  }
}

/** `%` + two hex digits decoding to `.`, `/`, `\`, NUL or `%` itself (double encoding). */
const ENCODED_TRICK = /%(2e|2f|5c|00|25)/i;
const DRIVE_OR_UNC = /^(?:[A-Za-z]:|\\\\|\/\/)/;

/**
 * Refuses a relative path on its text alone, before any disk access. Returns its `/` segments.
 *
 * @example checkRelativePath("src\\auth/./session.ts") // ["src", "auth", "session.ts"]
 */
export function checkRelativePath(relPath: string): string[] {
  if (typeof relPath !== "string") refuse("the path must be a string");
  if (relPath.includes("\0")) refuse("the path contains a NUL byte");
  if (ENCODED_TRICK.test(relPath))
    refuse(`the path ${JSON.stringify(relPath)} contains percent-encoded dots or slashes`);
  if (relPath.startsWith("/") || relPath.startsWith("\\") || DRIVE_OR_UNC.test(relPath)) {
    refuse(`the path ${JSON.stringify(relPath)} is absolute; paths are relative to the repository`);
  }
  const segments = relPath
    .replace(/\\/g, "/")
    .split("/")
    .filter((s) => s !== "" && s !== ".");
  for (const s of segments) {
    // `..` climbs out; `...`/`....` are the leftovers of naive `../` stripping and are never legitimate here.
    if (/^\.{2,}$/.test(s)) refuse(`the path ${JSON.stringify(relPath)} climbs out of the repository`);
  }
  return segments;
}

/**
 * True when `candidate` is `root` itself or lies below it (both real, absolute paths).
 *
 * @example isInside("/snap", "/snapshot/x") // false: the prefix check uses a trailing separator
 */
export function isInside(root: string, candidate: string): boolean {
  const withSep = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate === root || candidate.startsWith(withSep);
}

/**
 * The real path of the sandbox root; a missing root is refused with a clear message.
 *
 * @example await realRoot("/var/gate/snapshots/acme/web/<sha>") // the same path, symlinks resolved
 */
export async function realRoot(root: string): Promise<string> {
  try {
    return await realpath(root);
  } catch (error) {
    throw new GateError("SANDBOX_REFUSED", "the repository snapshot does not exist", { cause: error });
  }
}

/** The error `resolveInSandbox` throws for a path that is not in the snapshot. */
class NotFound extends GateError {
  constructor(what: string, cause: unknown) {
    super("SANDBOX_REFUSED", `not found: ${what}`, { cause });
  }
}

/**
 * Whether `resolveInSandbox` refused a path because nothing is there (not for leaving the root).
 *
 * @example isNotFound(await resolveInSandbox(root, "missing.ts").catch((e) => e)) // true
 */
export function isNotFound(error: unknown): boolean {
  return error instanceof NotFound;
}

/**
 * Resolves `relPath` to a real absolute path inside `root`, following symlinks at every depth and
 * refusing anything that leaves the root (NUL, absolute, `..`, encoded dots/slashes, symlinks out).
 * A missing file is refused with "not found".
 *
 * @example await resolveInSandbox("/snap/acme/web/abc…", "src/auth/session.ts") // "/snap/…/src/auth/session.ts"
 */
export async function resolveInSandbox(root: string, relPath: string): Promise<string> {
  const segments = checkRelativePath(relPath);
  const base = await realRoot(root);
  const lexical = path.resolve(base, ...segments);
  if (!isInside(base, lexical)) refuse(`the path ${JSON.stringify(relPath)} leaves the repository`);
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : "";
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new NotFound(segments.join("/") || ".", error);
    }
    throw new GateError("SANDBOX_REFUSED", `cannot resolve ${JSON.stringify(relPath)}`, { cause: error });
  }
  if (!isInside(base, real)) refuse(`the path ${JSON.stringify(relPath)} is a link that leaves the repository`);
  return real;
}
