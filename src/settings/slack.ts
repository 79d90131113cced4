import { z } from "zod";
import { isFullRepoName } from "../domain/github-names.js";
import type { ChannelMap } from "../slack/channel-map.js";
import { duration, httpUrl, listOf } from "./fields.js";

/** Slack, as configured; `serverSettings` says what the server needs of it. */
export interface SlackSettings {
  /** `GATE_SLACK`: off runs with GitHub and the CLI alone. */
  enabled: boolean;
  botToken?: string;
  signingSecret?: string;
  /** An app-level token: Socket Mode. */
  appToken?: string;
  /** The Web API's address, with its trailing slash. */
  apiUrl?: string;
  /** Which channel each repository's cards go to (`GATE_SLACK_CHANNELS`, `GATE_SLACK_CHANNEL` for the rest). */
  channels: ChannelMap;
  /** The repository `/gate status #123` means. */
  defaultRepo?: string;
  /** `GATE_REMINDER_AFTER`: a review waiting this long is brought up again in its thread (unset: never). */
  reminderAfterMs?: number;
  /** `GATE_REMINDER_ESCALATE_TO`: who is mentioned when it has waited twice as long (Slack user or group ids). */
  escalateTo: string[];
  /**
   * `GATE_SLACK_CLIENT_ID` and `GATE_SLACK_CLIENT_SECRET`: "Sign in with Slack" on the auditor's
   * pages for members of the workspace (docs/operations.md, "How an auditor gets access"); unset: off.
   */
  signIn?: {
    clientId: string;
    clientSecret: string;
    /** `GATE_SLACK_SIGNIN_ALLOW`: only these users and members of these user groups; empty: any member of the workspace. */
    allow: string[];
  };
}

type Ctx = z.RefinementCtx;

/** `S123,U456`: who a reminder escalates to, or who may sign in with Slack. */
function slackIdList(value: string, ctx: Ctx, name = "GATE_REMINDER_ESCALATE_TO"): string[] {
  const ids = listOf(value);
  for (const id of ids.filter((i) => !/^[USW][A-Z0-9]+$/.test(i))) {
    ctx.addIssue({
      code: "custom",
      path: [name],
      message: `"${id}" is not a Slack user id (U…/W…) or user-group id (S…)`,
    });
  }
  return ids;
}

const CHANNEL = /^[CGD][A-Z0-9]+$/;

/** `acme/web=C1,acme/api=C2,*=C0`, with `GATE_SLACK_CHANNEL` as the fallback unless `*` names one. */
function channelMap(spec: string | undefined, channel: string | undefined, ctx: Ctx): ChannelMap {
  const byRepo: Record<string, string> = {};
  let fallback = channel;
  if (fallback !== undefined && !CHANNEL.test(fallback)) {
    ctx.addIssue({
      code: "custom",
      path: ["GATE_SLACK_CHANNEL"],
      message: `"${fallback}" is not a Slack channel id (C…)`,
    });
  }
  for (const part of listOf(spec ?? "")) {
    const eq = part.indexOf("=");
    const repo = part.slice(0, Math.max(eq, 0)).trim();
    const id = part.slice(eq + 1).trim();
    if (eq <= 0 || !CHANNEL.test(id) || (repo !== "*" && !isFullRepoName(repo))) {
      ctx.addIssue({
        code: "custom",
        path: ["GATE_SLACK_CHANNELS"],
        message: `"${part}" should be owner/repo=<channel id>, e.g. acme/web=C0123ABCD (or *=C… for all others)`,
      });
    } else if (repo === "*") fallback = id;
    else byRepo[repo.toLowerCase()] = id;
  }
  return { byRepo, ...(fallback !== undefined ? { fallback } : {}) };
}

/**
 * The Slack settings (README, Settings): tokens and channels, parsed into typed values; a
 * malformed channel id or map names its variable.
 *
 * @example slackSchema.parse({ GATE_SLACK_CHANNELS: "acme/web=C1" }).channels.byRepo // { "acme/web": "C1" }
 */
export const slackSchema = z
  .object({
    GATE_SLACK: z.enum(["on", "off"]).default("on"),
    SLACK_BOT_TOKEN: z.string().optional(),
    SLACK_SIGNING_SECRET: z.string().optional(),
    SLACK_APP_TOKEN: z.string().optional(),
    SLACK_API_URL: httpUrl.optional(),
    GATE_SLACK_CHANNEL: z.string().trim().optional(),
    GATE_SLACK_CHANNELS: z.string().optional(),
    GATE_DEFAULT_REPO: z.string().refine(isFullRepoName, "must be owner/repo").optional(),
    GATE_REMINDER_AFTER: duration.optional(),
    GATE_REMINDER_ESCALATE_TO: z.string().optional(),
    GATE_SLACK_CLIENT_ID: z
      .string()
      .trim()
      .regex(/^\d+\.\d+$/, "should be the Slack app's Client ID (digits.digits, Basic Information)")
      .optional(),
    GATE_SLACK_CLIENT_SECRET: z.string().trim().min(16, "should be the Slack app's Client Secret").optional(),
    GATE_SLACK_SIGNIN_ALLOW: z.string().optional(),
  })
  .superRefine((e, ctx) => {
    if ((e.GATE_SLACK_CLIENT_ID === undefined) !== (e.GATE_SLACK_CLIENT_SECRET === undefined)) {
      const missing = e.GATE_SLACK_CLIENT_ID === undefined ? "GATE_SLACK_CLIENT_ID" : "GATE_SLACK_CLIENT_SECRET";
      ctx.addIssue({
        code: "custom",
        path: [missing],
        message: "Sign in with Slack needs both GATE_SLACK_CLIENT_ID and GATE_SLACK_CLIENT_SECRET",
      });
    }
  })
  .transform(
    (e, ctx): SlackSettings => ({
      enabled: e.GATE_SLACK === "on",
      ...(e.SLACK_BOT_TOKEN ? { botToken: e.SLACK_BOT_TOKEN } : {}),
      ...(e.SLACK_SIGNING_SECRET ? { signingSecret: e.SLACK_SIGNING_SECRET } : {}),
      ...(e.SLACK_APP_TOKEN ? { appToken: e.SLACK_APP_TOKEN } : {}),
      ...(e.SLACK_API_URL ? { apiUrl: e.SLACK_API_URL.endsWith("/") ? e.SLACK_API_URL : `${e.SLACK_API_URL}/` } : {}),
      channels: channelMap(e.GATE_SLACK_CHANNELS, e.GATE_SLACK_CHANNEL, ctx),
      ...(e.GATE_DEFAULT_REPO ? { defaultRepo: e.GATE_DEFAULT_REPO } : {}),
      ...(e.GATE_REMINDER_AFTER ? { reminderAfterMs: e.GATE_REMINDER_AFTER } : {}),
      escalateTo: slackIdList(e.GATE_REMINDER_ESCALATE_TO ?? "", ctx),
      ...(e.GATE_SLACK_CLIENT_ID && e.GATE_SLACK_CLIENT_SECRET
        ? {
            signIn: {
              clientId: e.GATE_SLACK_CLIENT_ID,
              clientSecret: e.GATE_SLACK_CLIENT_SECRET,
              allow: slackIdList(e.GATE_SLACK_SIGNIN_ALLOW ?? "", ctx, "GATE_SLACK_SIGNIN_ALLOW"),
            },
          }
        : {}),
    }),
  );
