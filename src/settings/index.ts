import type { ApproverConfig } from "../domain/decision.js";
import { describeIssues, GateError } from "../domain/errors.js";
import { approversSchema } from "./approver-settings.js";
import { claudeSchema, type ClaudeSettings } from "./claude.js";
import { cliSchema, type CliSettings } from "./cli.js";
import { coreSchema, type CoreSettings } from "./core.js";
import { presentIn, type Env } from "./fields.js";
import { githubSchema, type GitHubSettings } from "./github.js";
import { jobsSchema, type JobSettings } from "./jobs.js";
import { serverSchema, type ServerPortSettings } from "./server.js";
import { slackSchema, type SlackSettings } from "./slack.js";

export type { Env } from "./fields.js";
export type { LogLevel } from "./core.js";
export type { GitHubCredentials } from "./github.js";
export { serverSettings, type ServerSettings, type ServerSlack } from "./server.js";

/** Every setting, parsed once into typed values. README "Settings" lists each variable. */
export interface Settings extends CoreSettings {
  claude: ClaudeSettings;
  github: GitHubSettings;
  slack: SlackSettings;
  /** Who may decide, at every door. */
  approvers: Required<ApproverConfig>;
  server: ServerPortSettings;
  cli: CliSettings;
  /** The PostgreSQL job queue: leases and who holds them. */
  jobs: JobSettings;
}

/** One zod schema per concern, each from environment variables to typed values. */
function schemas(cwd: string) {
  return {
    core: coreSchema(cwd),
    claude: claudeSchema,
    github: githubSchema,
    slack: slackSchema,
    approvers: approversSchema,
    server: serverSchema,
    cli: cliSchema,
    jobs: jobsSchema,
  };
}

/**
 * Every environment variable the gate reads, from the schemas themselves (README "Settings"
 * documents each; a test compares the two).
 */
export const SETTING_NAMES: readonly string[] = Object.values(schemas(".")).flatMap((s) => Object.keys(s.in.shape));

/**
 * Reads every setting once, at start: blank variables count as unset, defaults apply, paths are
 * resolved against `cwd`. A bad value fails here with one `CONFIG_INVALID` error that names every
 * bad variable. The only reader of the environment: entry points pass `process.env`.
 *
 * @example const settings = loadSettings(process.env); settings.review.maxCycles // 2
 */
export function loadSettings(env: Env, cwd = process.cwd()): Settings {
  const present = presentIn(env);
  const s = schemas(cwd);
  // Each schema parses once: zod's generated fast parser would cost more to build than it saves.
  const once = { jitless: true };
  const core = s.core.safeParse(present, once);
  const claude = s.claude.safeParse(present, once);
  const github = s.github.safeParse(present, once);
  const slack = s.slack.safeParse(present, once);
  const approvers = s.approvers.safeParse(present, once);
  const server = s.server.safeParse(present, once);
  const cli = s.cli.safeParse(present, once);
  const jobs = s.jobs.safeParse(present, once);
  if (
    core.success &&
    claude.success &&
    github.success &&
    slack.success &&
    approvers.success &&
    server.success &&
    cli.success &&
    jobs.success
  ) {
    return {
      ...core.data,
      claude: claude.data,
      github: github.data,
      slack: slack.data,
      approvers: approvers.data,
      server: server.data,
      cli: cli.data,
      jobs: jobs.data,
    };
  }
  const issues = [core, claude, github, slack, approvers, server, cli, jobs].flatMap((r) => r.error?.issues ?? []);
  throw new GateError("CONFIG_INVALID", `invalid setting ${describeIssues({ issues })}`);
}
