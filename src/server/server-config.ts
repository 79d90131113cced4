import { z } from "zod";
import { describeIssues, GateError } from "../domain/errors.js";
import type { GitHubAuthConfig } from "../github/client.js";
import { loadGitHubSettings } from "../github/github-settings.js";
import { isFullRepoName } from "../domain/github-names.js";

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"])
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

/** The settings only the server reads (the CLI needs none of them). README "Settings" lists them. */
const ServerEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  GITHUB_WEBHOOK_SECRET: z.string().min(1).optional(),
  GATE_REVIEW_DRAFTS: bool.default(false),
  GATE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  GATE_SLACK: z.enum(["on", "off"]).default("on"),
  SLACK_BOT_TOKEN: z.string().min(1).optional(),
  SLACK_SIGNING_SECRET: z.string().min(1).optional(),
  SLACK_APP_TOKEN: z.string().min(1).optional(),
  SLACK_API_URL: z.string().url().optional(),
  GATE_SLACK_CHANNEL: z.string().min(1).optional(),
  GATE_SLACK_CHANNELS: z.string().min(1).optional(),
  GATE_APPROVERS: z.string().optional(),
  GATE_APPROVERS_BY_SPECIALTY: z.string().optional(),
  GATE_GITHUB_TO_SLACK: z.string().optional(),
  GATE_DEFAULT_REPO: z
    .string()
    .refine(isFullRepoName, "must be owner/repo")
    .optional(),
});

export interface ServerConfig {
  port: number;
  webhookSecret: string;
  github: Omit<GitHubAuthConfig, "log">;
  reviewDrafts: boolean;
  concurrency: number;
  slack:
    | { enabled: false }
    | {
        enabled: true;
        botToken: string;
        signingSecret?: string;
        appToken?: string;
        socketMode: boolean;
        apiUrl?: string;
        channel?: string;
        channels?: string;
        approvers?: string;
        approversBySpecialty?: string;
        githubToSlack?: string;
        defaultRepo?: string;
      };
}

/**
 * Reads the server's settings. Missing or contradictory settings fail here, each named, with what
 * to do; the Slack ones point at `npm run demo` and `GATE_SLACK=off`.
 *
 * @example const server = loadServerConfig(process.env);
 */
export function loadServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = ServerEnvSchema.safeParse(present);
  if (!parsed.success) {
    throw new GateError("CONFIG_INVALID", `invalid setting ${describeIssues(parsed.error)}`);
  }
  const e = parsed.data;
  const problems: string[] = [];

  if (!e.GITHUB_WEBHOOK_SECRET) problems.push("GITHUB_WEBHOOK_SECRET (the secret of the GitHub App's or repository's webhook)");
  let github: ServerConfig["github"] | undefined;
  try {
    github = loadGitHubSettings(env);
    if (!github) problems.push("GitHub credentials: GATE_GITHUB_APP_ID with GATE_GITHUB_PRIVATE_KEY, or GITHUB_TOKEN");
  } catch (error) {
    problems.push((error as Error).message);
  }

  let slack: ServerConfig["slack"] = { enabled: false };
  if (e.GATE_SLACK === "on") {
    const socketMode = Boolean(e.SLACK_APP_TOKEN);
    const missing: string[] = [];
    if (!e.SLACK_BOT_TOKEN) missing.push("SLACK_BOT_TOKEN (xoxb-…)");
    if (!socketMode && !e.SLACK_SIGNING_SECRET) missing.push("SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN for Socket Mode)");
    if (!e.GATE_SLACK_CHANNEL && !e.GATE_SLACK_CHANNELS) missing.push("GATE_SLACK_CHANNEL (the channel id escalations go to)");
    if (!e.GATE_APPROVERS && !e.GATE_APPROVERS_BY_SPECIALTY) missing.push("GATE_APPROVERS (Slack user or user-group ids who may decide)");
    if (missing.length > 0) {
      problems.push(
        `Slack settings missing: ${missing.join(", ")}. Set them, or GATE_SLACK=off to run with GitHub and the CLI ` +
          `alone; \`npm run demo\` needs none of this`,
      );
    } else {
      slack = {
        enabled: true,
        botToken: e.SLACK_BOT_TOKEN!,
        socketMode,
        ...(e.SLACK_SIGNING_SECRET ? { signingSecret: e.SLACK_SIGNING_SECRET } : {}),
        ...(e.SLACK_APP_TOKEN ? { appToken: e.SLACK_APP_TOKEN } : {}),
        ...(e.SLACK_API_URL ? { apiUrl: e.SLACK_API_URL.endsWith("/") ? e.SLACK_API_URL : `${e.SLACK_API_URL}/` } : {}),
        ...(e.GATE_SLACK_CHANNEL ? { channel: e.GATE_SLACK_CHANNEL } : {}),
        ...(e.GATE_SLACK_CHANNELS ? { channels: e.GATE_SLACK_CHANNELS } : {}),
        ...(e.GATE_APPROVERS ? { approvers: e.GATE_APPROVERS } : {}),
        ...(e.GATE_APPROVERS_BY_SPECIALTY ? { approversBySpecialty: e.GATE_APPROVERS_BY_SPECIALTY } : {}),
        ...(e.GATE_GITHUB_TO_SLACK ? { githubToSlack: e.GATE_GITHUB_TO_SLACK } : {}),
        ...(e.GATE_DEFAULT_REPO ? { defaultRepo: e.GATE_DEFAULT_REPO } : {}),
      };
    }
  }
  if (problems.length > 0) {
    throw new GateError("CONFIG_INVALID", `cannot start the server:\n  - ${problems.join("\n  - ")}`);
  }
  return {
    port: e.PORT,
    webhookSecret: e.GITHUB_WEBHOOK_SECRET!,
    github: github!,
    reviewDrafts: e.GATE_REVIEW_DRAFTS,
    concurrency: e.GATE_CONCURRENCY,
    slack,
  };
}

/** Parses `login=U123,other=U456` (GitHub login → Slack user id). */
export function parseLoginMap(spec: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (spec ?? "").split(",").map((p) => p.trim()).filter(Boolean)) {
    const [login, id] = part.split("=").map((s) => s.trim());
    if (!login || !id || !/^[UW][A-Z0-9]+$/.test(id)) {
      throw new GateError("CONFIG_INVALID", `GATE_GITHUB_TO_SLACK: "${part}" is not login=U…`);
    }
    out[login] = id;
  }
  return out;
}
