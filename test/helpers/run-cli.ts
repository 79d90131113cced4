import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { PACKAGE_ROOT } from "../../src/package-paths.js";

const run = promisify(execFile);

export interface CliRun {
  stdout: string;
  stderr: string;
  code: number;
}

/** package.json's `bin`: the command a user runs, the bundle `npm run build` writes. */
export const GATE_BIN = path.join(PACKAGE_ROOT, "dist/cli/gate.cjs");

/** What the build reads: a file here newer than the build means dist/ is not what the sources say. */
const BUILD_INPUTS = ["src", "scripts/bundle-cli.ts", "package.json", "tsconfig.json", "tsconfig.build.json"];
/** What the build writes, first (tsc) and last but the cache (esbuild). */
const BUILD_OUTPUTS = ["dist/cli/gate.cjs", "dist/cli/bundle-loader.cjs", "dist/gate.cjs"];

function newestInput(entry: string): { file: string; mtimeMs: number } {
  const full = path.join(PACKAGE_ROOT, entry);
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return { file: entry, mtimeMs: stat.mtimeMs };
  let newest = { file: entry, mtimeMs: 0 };
  for (const child of fs.readdirSync(full)) {
    const candidate = newestInput(path.join(entry, child));
    if (candidate.mtimeMs > newest.mtimeMs) newest = candidate;
  }
  return newest;
}

/**
 * Why dist/ cannot stand for the sources (missing, or older than a file the build reads), or
 * undefined when it can.
 *
 * @example builtBundleProblem(); // "older than src/cli/run-cli.ts"
 */
export function builtBundleProblem(): string | undefined {
  let built = Number.POSITIVE_INFINITY;
  for (const output of BUILD_OUTPUTS) {
    const full = path.join(PACKAGE_ROOT, output);
    if (!fs.existsSync(full)) return `missing (${output})`;
    built = Math.min(built, fs.statSync(full).mtimeMs);
  }
  const newest = BUILD_INPUTS.map(newestInput).reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a));
  return newest.mtimeMs > built ? `older than ${newest.file}` : undefined;
}

let checked = false;
/** The built command's path, once dist/ is known to be built from the sources as they are. */
function gateBin(): string {
  if (!checked) {
    const problem = builtBundleProblem();
    if (problem) {
      throw new Error(
        `The CLI tests run the built \`gate\` command (dist/cli/gate.cjs), and dist/ is ${problem}: run \`npm run build\` first.`,
      );
    }
    checked = true;
  }
  return GATE_BIN;
}

async function runNode(args: string[], opts: { env: NodeJS.ProcessEnv; cwd: string }): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { env: opts.env, cwd: opts.cwd, timeout: 60_000 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

/**
 * Runs the real `gate` command as it ships (the bundle, `dist/cli/gate.cjs`, with its code cache)
 * in its own process, with exactly the given environment and working directory. Never throws for a
 * non-zero exit; throws when dist/ is missing or older than the sources (`npm run build`).
 *
 * @example const r = await runGateCli(["review", "001_readme_typo", "--json"], { env, cwd });
 */
export async function runGateCli(args: string[], opts: { env: NodeJS.ProcessEnv; cwd: string }): Promise<CliRun> {
  return runNode([gateBin(), ...args], opts);
}

/**
 * Runs the CLI's TypeScript source through tsx (`src/cli/main.ts`), with modules `--import`ed after
 * tsx's loader. Only for what the bundle cannot show: which of the sources' modules a command loads
 * (test/cli/lazy-modules.test.ts), and the bundle compared with the sources.
 *
 * @example const r = await runGateSourceCli(["policies"], { env, cwd, preload: [hook] });
 */
export async function runGateSourceCli(
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string; preload?: string[] },
): Promise<CliRun> {
  const loader = pathToFileURL(path.join(PACKAGE_ROOT, "node_modules/tsx/dist/loader.mjs")).href;
  const imports = [loader, ...(opts.preload ?? [])].flatMap((p) => ["--import", p]);
  return runNode([...imports, path.join(PACKAGE_ROOT, "src/cli/main.ts"), ...args], opts);
}

/**
 * Runs the built command with its stdout piped into a reader that has already gone (as
 * `gate … | head -1` once head exits): every write to stdout meets a closed pipe. Returns stderr and
 * the exit code (or the signal that ended it).
 *
 * @example const r = await runGateCliIntoClosedPipe(["policies"], { env, cwd }); // { code: 0, stderr: "" }
 */
export function runGateCliIntoClosedPipe(
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<{ stderr: string; code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, [gateBin(), ...args], {
    env: opts.env,
    cwd: opts.cwd,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });
  // Our end of the pipe closes before the CLI writes a byte.
  child.stdout.destroy();
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ stderr, code, signal }));
  });
}
