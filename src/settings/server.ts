import { z } from "zod";
import type { ApproverConfig } from "../domain/decision.js";
import { GateError } from "../domain/errors.js";
import { httpUrl, integer } from "./fields.js";
import type { GitHubCredentials, GitHubSettings } from "./github.js";
import type { SlackSettings } from "./slack.js";

/** The HTTP server's own settings. */
export interface ServerPortSettings {
  port: number;
  /** Reviews run at once in the background. */
  concurrency: number;
  /** GATE_PUBLIC_URL: where people reach this server; check runs link to its review page there. */
  publicUrl?: string;
}

/** @example serverSchema.parse({ PORT: "8080" }).port // 8080 */
export const serverSchema = z
  .object({
    PORT: integer(0).max(65535).default(3000),
    GATE_CONCURRENCY: integer(1).max(64).default(2),
    GATE_PUBLIC_URL: httpUrl.optional(),
  })
  .transform(
    (e): ServerPortSettings => ({
      port: e.PORT,
      concurrency: e.GATE_CONCURRENCY,
      ...(e.GATE_PUBLIC_URL ? { publicUrl: e.GATE_PUBLIC_URL.replace(/\/+$/, "") } : {}),
    }),
  );

/** Slack as the server runs it: off, or on with everything it needs. */
export type ServerSlack =
  | { enabled: false }
  | (Omit<SlackSettings, "enabled" | "botToken"> & { enabled: true; botToken: string; socketMode: boolean });

/** What `npm start` needs on top of the settings every entry point reads. */
export interface ServerSettings extends ServerPortSettings {
  webhookSecret: string;
  github: GitHubCredentials;
  reviewDrafts: boolean;
  /** GATE_PR_COMMENT: one summary comment on each reviewed PR, edited in place. */
  prComment: boolean;
  /** `GATE_PROTECTED_BRANCHES`: pushes to these are watched, as to each repository's default branch. */
  protectedBranches: string[];
  slack: ServerSlack;
}

/**
 * Checks that the settings hold everything the server needs: the webhook secret, GitHub
 * credentials and, unless `GATE_SLACK=off`, Slack's. Fails once, in one line listing every missing
 * setting with what to do; the Slack ones point at `npm run demo` and `GATE_SLACK=off`.
 *
 * @example const server = serverSettings(loadSettings(env));
 */
export function serverSettings(settings: {
  github: GitHubSettings;
  slack: SlackSettings;
  approvers: Required<ApproverConfig>;
  server: ServerPortSettings;
}): ServerSettings {
  const { github, slack } = settings;
  const problems: string[] = [];
  if (!github.webhookSecret)
    problems.push(
      "GITHUB_WEBHOOK_SECRET is not set (the secret of the GitHub App's or repository's webhook; every delivery is checked against it)",
    );
  if (!github.auth)
    problems.push("no GitHub credentials: set GATE_GITHUB_APP_ID with GATE_GITHUB_PRIVATE_KEY, or GITHUB_TOKEN");

  let serverSlack: ServerSlack = { enabled: false };
  if (slack.enabled) {
    const socketMode = slack.appToken !== undefined;
    const missing: string[] = [];
    if (!slack.botToken) missing.push("SLACK_BOT_TOKEN (xoxb-…)");
    if (!socketMode && !slack.signingSecret) missing.push("SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN for Socket Mode)");
    if (slack.channels.fallback === undefined && Object.keys(slack.channels.byRepo).length === 0) {
      missing.push("GATE_SLACK_CHANNEL (the channel id escalations go to)");
    }
    const { approvers, bySpecialty } = settings.approvers;
    if (approvers.length === 0 && Object.keys(bySpecialty).length === 0) {
      missing.push("GATE_APPROVERS (Slack user or user-group ids who may decide)");
    }
    if (missing.length > 0 || !slack.botToken) {
      problems.push(
        `Slack settings missing: ${missing.join(", ")}. Set them, or GATE_SLACK=off to run with GitHub and the CLI ` +
          "alone; `npm run demo` needs none of this",
      );
    } else {
      const { enabled: _enabled, botToken, ...rest } = slack;
      serverSlack = { ...rest, enabled: true, botToken, socketMode };
    }
  }
  if (slack.signIn && !slack.enabled)
    problems.push(
      "GATE_SLACK_CLIENT_ID is set but GATE_SLACK=off: Sign in with Slack needs Slack's bot token (the workspace is read with auth.test)",
    );
  if (slack.signIn && !settings.server.publicUrl)
    problems.push(
      "GATE_SLACK_CLIENT_ID is set without GATE_PUBLIC_URL: Slack sends the browser back to <GATE_PUBLIC_URL>/signin/slack/callback",
    );
  if (problems.length > 0 || !github.webhookSecret || !github.auth) {
    // One line, as every failure at start is (main.ts prints it after "gate: ").
    throw new GateError("CONFIG_INVALID", `cannot start the server: ${problems.join("; ")}`);
  }
  return {
    ...settings.server,
    webhookSecret: github.webhookSecret,
    github: github.auth,
    reviewDrafts: github.reviewDrafts,
    prComment: github.prComment,
    protectedBranches: github.protectedBranches,
    slack: serverSlack,
  };
}
