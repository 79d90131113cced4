import { spawn } from "node:child_process";
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
