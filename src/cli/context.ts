import { pino, type Logger } from "pino";
import { buildGate, type Gate, type GateExtras } from "../build-gate.js";
import { loadConfig, type Config } from "../config.js";
import { createGitHubAuth, type GitHubAuth } from "../github/client.js";
import { loadGitHubSettings } from "../github/github-settings.js";
import { parseLoginMap } from "../server/server-config.js";
import { parseApprovers, parseApproversBySpecialty } from "../slack/approvers.js";

/** What every command gets: settings, a logger on stderr (stdout is for results), the gate. */
export interface CliContext {
  config: Config;
  log: Logger;
  gate: Gate;
  /** Set when GitHub credentials are configured: `gate review owner/repo#n` reads the live PR. */
  github?: GitHubAuth;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Builds the CLI's context once per process. */
export function createCliContext(env: NodeJS.ProcessEnv = process.env, extras: GateExtras = {}): CliContext {
  const config = loadConfig(env);
  const log = pino({ level: config.GATE_LOG_LEVEL, base: undefined }, pino.destination(2));
  const settings = loadGitHubSettings(env);
  const github = settings ? createGitHubAuth({ ...settings, log }) : undefined;
  // The decision policy's lists hold at this door too: `--by` must be an approver when lists are set.
  const approvers = {
    approvers: parseApprovers(env.GATE_APPROVERS),
    bySpecialty: parseApproversBySpecialty(env.GATE_APPROVERS_BY_SPECIALTY),
    githubToSlack: parseLoginMap(env.GATE_GITHUB_TO_SLACK),
  };
  const gate = buildGate(config, log, {
    ...(github ? { github } : {}),
    approvers,
    ...extras,
  });
  return {
    config,
    log,
    gate,
    ...(github ? { github } : {}),
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  };
}
