import fs from "node:fs";
import type { Logger } from "pino";
import { buildGate, type Gate, type GateExtras } from "../build-gate.js";
import type { GitHubAuth } from "../github/client.js";
import { createLogger } from "../logger.js";
import type { Settings } from "../settings/index.js";

/** What every command gets: settings, a logger on stderr (stdout is for results), the gate. */
export interface CliContext {
  settings: Settings;
  log: Logger;
  /**
   * The gate, built on first use: that is when the database is opened (and created). A command
   * that refuses before it needs the gate writes nothing.
   */
  gate(): Promise<Gate>;
  /** Whether the database exists yet: a lookup in a database that does not exist finds nothing, without creating it. */
  hasDatabase(): boolean;
  /** Set when GitHub credentials are configured: `gate review owner/repo#n` reads the live PR. */
  github?: GitHubAuth;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Closes the gate's database if it was opened. */
  close(): Promise<void>;
}

/**
 * Builds the CLI's context once per process, from settings `loadSettings` read. Nothing is
 * opened or written until a command reads `ctx.gate`.
 *
 * @example const ctx = await createCliContext(loadSettings(process.env)); try { await (await ctx.gate()).store.get(id) } finally { await ctx.close() }
 */
export async function createCliContext(settings: Settings, extras: GateExtras = {}): Promise<CliContext> {
  const log = createLogger({ level: settings.logLevel ?? "warn", base: false, destination: 2 });
  // Octokit is loaded only when GitHub credentials are set: a fixture review never needs it.
  const github = settings.github.auth
    ? (await import("../github/client.js")).createGitHubAuth({ ...settings.github.auth, log })
    : undefined;
  let gate: Promise<Gate> | undefined;
  return {
    settings,
    log,
    gate: () => {
      gate ??= buildGate(settings, log, {
        ...(github ? { github } : {}),
        ...extras,
      });
      return gate;
    },
    hasDatabase: () =>
      gate !== undefined ||
      settings.database.kind === "postgres" ||
      settings.database.path === ":memory:" ||
      fs.existsSync(settings.database.path),
    ...(github ? { github } : {}),
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    close: async () => {
      // A gate that failed to open has nothing to close (the failure was reported where it was awaited).
      const opened = await gate?.catch(() => undefined);
      await opened?.close();
    },
  };
}

/**
 * A context over a gate already built (eval's own database, tests): its database is open.
 *
 * @example const evalCtx = contextOver(gate, { ...io, settings, log: ctx.log });
 */
export function contextOver(
  gate: Gate,
  parts: Pick<CliContext, "settings" | "log" | "out" | "err"> & { github?: GitHubAuth },
): CliContext {
  return { ...parts, gate: async () => gate, hasDatabase: () => true, close: () => gate.close() };
}
