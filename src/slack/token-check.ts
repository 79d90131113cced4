import { webApi } from "@slack/bolt";
import type { Logger } from "pino";
import { GateError, rootCauseMessage } from "../domain/errors.js";
import { boltLogger } from "./bolt-logger.js";

/** Who the bot token belongs to, as `auth.test` says: what Bolt would otherwise ask for itself. */
export interface SlackBotIdentity {
  botUserId: string;
  botId: string;
  /** The workspace the bot is installed in (`team_id`): the one whose members may sign in with Slack. */
  teamId?: string;
}

/**
 * `auth.test` errors that are Slack's own trouble, not the token's (Slack's method docs): the
 * token is then not known to be wrong.
 */
const SLACK_SIDE_ERRORS = new Set(["fatal_error", "internal_error", "service_unavailable", "request_timeout"]);

/** A few quick retries of a dropped connection or a 5xx (about 1.5 s), not the client's default half hour. */
const START_RETRIES = { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 1000 };

/** How long one `auth.test` may take before it counts as no answer. */
const START_TIMEOUT_MS = 10_000;

/**
 * Checks the bot token once, at start, with `auth.test` through Slack's own Web API client at
 * `apiUrl` (SLACK_API_URL; Slack's unless set), and returns the bot's ids. A token Slack refuses
 * (`invalid_auth`, `not_authed`, `account_inactive`, `token_revoked`, ...) is `CONFIG_INVALID`
 * naming SLACK_BOT_TOKEN; no answer (connection refused, DNS, a timeout, a 5xx after the retries)
 * or Slack's own error is `SERVICE_UNREACHABLE` naming the host and SLACK_API_URL.
 *
 * @example const bot = await checkSlackToken({ botToken: "xoxb-…", log }); // { botUserId: "U…", botId: "B…" }
 */
export async function checkSlackToken(cfg: {
  botToken: string;
  apiUrl?: string;
  log: Logger;
}): Promise<SlackBotIdentity> {
  const apiUrl = cfg.apiUrl ?? "https://slack.com/api/";
  const host = new URL(apiUrl).host;
  const client = new webApi.WebClient(cfg.botToken, {
    slackApiUrl: apiUrl,
    logger: boltLogger(cfg.log),
    retryConfig: START_RETRIES,
    timeout: START_TIMEOUT_MS,
    // A rate-limited check says so now rather than waiting out Slack's Retry-After.
    rejectRateLimitedCalls: true,
  });
  let answer: webApi.AuthTestResponse;
  try {
    answer = await client.auth.test();
  } catch (error) {
    const refused = platformError(error);
    if (refused !== undefined && !SLACK_SIDE_ERRORS.has(refused)) {
      throw new GateError(
        "CONFIG_INVALID",
        `SLACK_BOT_TOKEN: Slack at ${host} refused it (auth.test answered ${refused}); set it to the app's Bot User OAuth Token (xoxb-…, the app's OAuth & Permissions page; reinstall the app if it was revoked), or GATE_SLACK=off to run without Slack`,
        { cause: error },
      );
    }
    const what =
      refused !== undefined ? `auth.test answered ${refused}` : `auth.test got no answer (${noAnswer(error)})`;
    throw new GateError(
      "SERVICE_UNREACHABLE",
      `cannot reach Slack at ${host} (SLACK_API_URL) to check SLACK_BOT_TOKEN: ${what}`,
      { cause: error },
    );
  }
  if (!answer.user_id || !answer.bot_id) {
    throw new GateError(
      "CONFIG_INVALID",
      `SLACK_BOT_TOKEN: Slack at ${host} says it is not a bot token (auth.test named no bot); use the app's Bot User OAuth Token (xoxb-…)`,
    );
  }
  return { botUserId: answer.user_id, botId: answer.bot_id, ...(answer.team_id ? { teamId: answer.team_id } : {}) };
}

/**
 * What a failed Socket Mode start means: Slack refusing `SLACK_APP_TOKEN` (an `ok: false` answer
 * to `apps.connections.open`) becomes a `CONFIG_INVALID` naming it; anything else is returned as it is.
 *
 * @example await app.start().catch((e) => { throw appTokenRefusal(e, apiUrl); });
 */
export function appTokenRefusal(error: unknown, apiUrl = "https://slack.com/api/"): unknown {
  const refused = platformError(error);
  if (refused === undefined) return error;
  return new GateError(
    "CONFIG_INVALID",
    `SLACK_APP_TOKEN: Slack at ${new URL(apiUrl).host} refused it (apps.connections.open answered ${refused}); set it to an app-level token with connections:write (xapp-…, the app's Basic Information page), or unset it to receive Slack over HTTP`,
    { cause: error },
  );
}

/** The `error` of an `ok: false` answer, when Slack gave one (the error itself or one of its causes). */
function platformError(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (!("code" in e) || e.code !== webApi.ErrorCode.PlatformError) continue;
    const data: unknown = "data" in e ? e.data : undefined;
    const code = typeof data === "object" && data !== null && "error" in data ? data.error : undefined;
    return typeof code === "string" ? code : "an error";
  }
  return undefined;
}

/** What stood between us and Slack: the network's words, or the HTTP status a 5xx (or 429) left. */
function noAnswer(error: unknown): string {
  if (error instanceof Error && "code" in error && error.code === webApi.ErrorCode.HTTPError && "statusCode" in error)
    return `HTTP ${String(error.statusCode)}`;
  if (error instanceof Error && "code" in error && error.code === webApi.ErrorCode.RateLimitedError)
    return "rate limited";
  return rootCauseMessage(error);
}
