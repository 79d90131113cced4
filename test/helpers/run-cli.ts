import { execFile, spawn } from "node:child_process";
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

/** The command line that runs the CLI's TypeScript source through tsx. */
function cliArgs(args: string[], preload: string[] = []): string[] {
  const loader = pathToFileURL(path.join(PACKAGE_ROOT, "node_modules/tsx/dist/loader.mjs")).href;
  return [
    "--import",
    loader,
    ...preload.flatMap((p) => ["--import", p]),
    path.join(PACKAGE_ROOT, "src/cli/main.ts"),
    ...args,
  ];
}

/**
 * Runs the real `gate` CLI (its TypeScript source, through tsx) in its own process, with exactly
 * the given environment and working directory. Never throws for a non-zero exit.
 *
 * @example const r = await runGateCli(["review", "001_readme_typo", "--json"], { env, cwd });
 */
export async function runGateCli(
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string /** Modules `--import`ed after tsx's loader. */; preload?: string[] },
): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArgs(args, opts.preload), {
      env: opts.env,
      cwd: opts.cwd,
      timeout: 60_000,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

/**
 * Runs the CLI with its stdout piped into a reader that has already gone (as `gate … | head -1`
 * once head exits): every write to stdout meets a closed pipe. Returns stderr and the exit code
 * (or the signal that ended it).
 *
 * @example const r = await runGateCliIntoClosedPipe(["policies"], { env, cwd }); // { code: 0, stderr: "" }
 */
export function runGateCliIntoClosedPipe(
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<{ stderr: string; code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, cliArgs(args), {
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
