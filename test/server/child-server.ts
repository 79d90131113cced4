import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { PACKAGE_ROOT } from "../../src/package-paths.js";

/** A gate server (`src/main.ts`, the entry point `npm start` runs) in a process of its own. */
export interface ChildServer {
  port: number;
  base: string;
  /** Every log line it printed (pino JSON on stdout), parsed. */
  logs: Record<string, unknown>[];
  /** Sends a signal (SIGKILL: no handler runs, nothing is flushed or closed). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `node --import tsx src/main.ts` with exactly the given settings (PORT=0 allowed) and
 * resolves once it logs "gate listening", with the port it says. Logs at info level whatever the
 * env says, as the port is read from them; stderr is kept for the failure message.
 *
 * @example const child = await startChildServer(env); await fetch(`${child.base}/healthz`); child.kill("SIGKILL");
 */
export function startChildServer(env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<ChildServer> {
  const loader = pathToFileURL(path.join(PACKAGE_ROOT, "node_modules/tsx/dist/loader.mjs")).href;
  const child = spawn(process.execPath, ["--import", loader, path.join(PACKAGE_ROOT, "src/main.ts")], {
    env: { PATH: process.env.PATH ?? "", ...env, GATE_LOG_LEVEL: "info" },
    cwd: PACKAGE_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the gate server did not start within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the gate server exited (${code ?? signal}) before listening; stderr: ${stderr}`));
    });
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      logs.push(entry);
      if (entry.msg === "gate listening" && typeof entry.port === "number") {
        clearTimeout(timer);
        const port = entry.port;
        resolve({
          port,
          base: `http://127.0.0.1:${port}`,
          logs,
          kill: (signal) => void child.kill(signal),
          exited,
        });
      }
    });
  });
}

/** What a server process that ended printed, and how it ended. */
export interface EndedServer {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The newest modification time under `dir` (ms), for "is the build older than its source". */
function newestUnder(dir: string): number {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .reduce((newest, d) => Math.max(newest, fs.statSync(path.join(d.parentPath, d.name)).mtimeMs), 0);
}

/**
 * Runs the built server, `node dist/main.js` (what `npm start` runs), with exactly the given
 * settings, and resolves once it has exited, with everything it printed. For starts that must
 * fail: one that is still running after `timeoutMs` is killed and the test fails. A build older
 * than `src/` fails the test too, naming `npm run build` (the test would judge old code).
 *
 * @example const ended = await runBuiltServerToExit(env); expect(ended.code).toBe(1);
 */
export async function runBuiltServerToExit(env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<EndedServer> {
  const main = path.join(PACKAGE_ROOT, "dist/main.js");
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\``);
  if (fs.statSync(main).mtimeMs < newestUnder(path.join(PACKAGE_ROOT, "src"))) {
    throw new Error(`${main} is older than src/: run \`npm run build\``);
  }
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? "", ...env },
    cwd: PACKAGE_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (c, s) => resolve({ code: c, signal: s })),
  );
  clearTimeout(timer);
  if (timedOut)
    throw new Error(`the server was still running after ${timeoutMs} ms; stdout: ${stdout} stderr: ${stderr}`);
  return { code, signal, stdout, stderr };
}
