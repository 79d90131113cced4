import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { PACKAGE_ROOT } from "../../src/package-paths.js";

const run = promisify(execFile);

/**
 * Runs one of `scripts/` as a person does (`node --import tsx scripts/<name> ...`), and returns
 * its exit code, stdout and stderr.
 *
 * @example await runScript("sast-eval.ts", folder, "--json") // { code: 0, stdout: "{...}", stderr: "" }
 */
export async function runScript(
  name: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = path.join(PACKAGE_ROOT, "scripts", name);
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", script, ...args], { cwd: PACKAGE_ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
