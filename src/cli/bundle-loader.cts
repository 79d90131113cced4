// CommonJS on purpose: the `gate` command loads the bundled CLI through `vm.Script`, the one way
// Node 20 takes a V8 code cache, and a CommonJS launcher needs no module loader of its own first.
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

/** What the bundle exports (src/cli/start.ts). */
export interface CliBundle {
  startCli(argv: string[], env: NodeJS.ProcessEnv): Promise<void>;
}

export interface LoadedBundle {
  cli: CliBundle;
  /** Whether V8 took the code cache (absent, written for another build or another Node: compiled as usual). */
  cacheUsed: boolean;
  script: vm.Script;
  /** The SHA-256 of the bundle's bytes: the cache written for it starts with it. */
  digest: Buffer;
}

/** The whole CLI in one file (scripts/bundle-cli.ts writes it, with `charset: ascii`). */
export const BUNDLE_FILE = path.join(__dirname, "..", "gate.cjs");

/** The bundle's V8 code cache: the SHA-256 of the bundle it was made for, then V8's data. */
export const CODE_CACHE_FILE = path.join(__dirname, "..", "gate.cache");

const DIGEST_BYTES = 32;

/**
 * The cache's V8 data when it was made for exactly this source. V8 itself checks only the
 * source's length, its own version and its flags, so the digest is what keeps a cache from an
 * older build of the same length from being used.
 */
function cacheFor(digest: Buffer, cacheFile: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  if (bytes.length <= DIGEST_BYTES || !bytes.subarray(0, DIGEST_BYTES).equals(digest)) return undefined;
  return bytes.subarray(DIGEST_BYTES);
}

/**
 * Compiles and evaluates the bundle as a CommonJS module (its code cache used when it fits) and
 * returns its exports. Nothing runs but the bundle's top level: `cli.startCli` runs a command.
 *
 * @example const { cli } = loadCliBundle(); await cli.startCli(["status", "acme/web#7"], process.env);
 */
export function loadCliBundle(bundleFile = BUNDLE_FILE, cacheFile = CODE_CACHE_FILE): LoadedBundle {
  const bytes = fs.readFileSync(bundleFile);
  // Hashing the bytes costs a third of hashing the string made from them.
  const digest = crypto.createHash("sha256").update(bytes).digest();
  // The bundle is ASCII (checked when it is built): as latin1, it needs no UTF-8 decoding.
  const source = bytes.toString("latin1");
  const cachedData = cacheFor(digest, cacheFile);
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundleFile,
    ...(cachedData ? { cachedData } : {}),
    // No `importModuleDynamically`: the bundle holds no `import()` (scripts/bundle-cli.ts makes each
    // a `require` and fails the build on any left). Node 20 drops that option for a script compiled
    // from a code cache: its `import()` then threw "A dynamic import callback was not specified".
  });
  const module = { exports: {} as CliBundle };
  const wrapper = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: CliBundle },
    filename: string,
    dirname: string,
  ) => void;
  wrapper(module.exports, createRequire(bundleFile), module, bundleFile, path.dirname(bundleFile));
  return { cli: module.exports, cacheUsed: cachedData !== undefined && !script.cachedDataRejected, script, digest };
}

/**
 * Writes the code cache for a loaded bundle: every function compiled so far is in it, so the build
 * writes it after a run (scripts/bundle-cli.ts).
 *
 * @example process.on("exit", () => writeCodeCache(loaded));
 */
export function writeCodeCache(loaded: LoadedBundle, cacheFile = CODE_CACHE_FILE): void {
  fs.writeFileSync(cacheFile, Buffer.concat([loaded.digest, loaded.script.createCachedData()]));
}
