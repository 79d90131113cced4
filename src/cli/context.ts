import type { Logger } from "pino";
import { buildGate, type Gate, type GateExtras } from "../build-gate.js";
import { createGitHubAuth, type GitHubAuth } from "../github/client.js";
import { createLogger } from "../logger.js";
import type { Settings } from "../settings/index.js";

/** What every command gets: settings, a logger on stderr (stdout is for results), the gate. */
export interface CliContext {
  settings: Settings;
  log: Logger;
  gate: Gate;
  /** Set when GitHub credentials are configured: `gate review owner/repo#n` reads the live PR. */
  github?: GitHubAuth;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Builds the CLI's context once per process, from settings `loadSettings` read. */
export function createCliContext(settings: Settings, extras: GateExtras = {}): CliContext {
  const log = createLogger({ level: settings.logLevel ?? "warn", base: false, destination: 2 });
  const github = settings.github.auth ? createGitHubAuth({ ...settings.github.auth, log }) : undefined;
  const gate = buildGate(settings, log, {
    ...(github ? { github } : {}),
    ...extras,
  });
  return {
    settings,
    log,
    gate,
    ...(github ? { github } : {}),
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  };
}
