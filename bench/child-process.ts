import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(BENCH_DIR, "..");
export const TSX = path.join(ROOT, "node_modules/tsx/dist/loader.mjs");

/** Runs a bench child script (TypeScript, through tsx) and parses the JSON line it prints. */
export async function childJson<T>(script: string, args: string[], nodeFlags: string[] = []): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    [...nodeFlags, "--import", TSX, path.join(BENCH_DIR, "child", script), ...args],
    {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 600_000,
    },
  );
  return JSON.parse(stdout.trim().split("\n").pop() ?? "null") as T;
}

/**
 * Runs a whole Node process with the CPU-at-exit preload and returns its CPU time in ms (user +
 * system, as the process itself accounts it), whatever its exit code.
 */
export async function processCpuMs(args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), "gate-bench-cpu-"));
  const out = path.join(dir, "cpu");
  try {
    await run(process.execPath, ["--import", path.join(BENCH_DIR, "child", "cpu-at-exit.mjs"), ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", HOME: dir, ...env, BENCH_CPU_OUT: out },
      maxBuffer: 16 * 1024 * 1024,
    }).catch(() => undefined);
    return Number(readFileSync(out, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
