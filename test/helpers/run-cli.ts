import { execFile } from "node:child_process";
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

/**
 * Runs the real `gate` CLI (its TypeScript source, through tsx) in its own process, with exactly
 * the given environment and working directory. Never throws for a non-zero exit.
 *
 * @example const r = await runGateCli(["review", "001_readme_typo", "--json"], { env, cwd });
 */
export async function runGateCli(args: string[], opts: { env: NodeJS.ProcessEnv; cwd: string }): Promise<CliRun> {
  const loader = pathToFileURL(path.join(PACKAGE_ROOT, "node_modules/tsx/dist/loader.mjs")).href;
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", loader, path.join(PACKAGE_ROOT, "src/cli/main.ts"), ...args],
      {
        env: opts.env,
        cwd: opts.cwd,
        timeout: 60_000,
      },
    );
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}
