import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { webApi } from "@slack/bolt";
import { GateError } from "../domain/errors.js";
import { SESSION_HOURS } from "../review/auditor-tokens.js";
import {
  isSlackMemberIds,
  type SignInState,
  type SlackMember,
  signInStateOf,
  signInStateValue,
  slackSessionValue,
} from "../review/slack-sessions.js";
import { boltLogger } from "../slack/bolt-logger.js";
import { escapeHtml, htmlPage, sendHtml } from "./html.js";
import type { GateRoute } from "./http-routes.js";
import { type AuditorPageDeps, cookie, localPath, SESSION_COOKIE, sessionCookieFlags, signInPage } from "./sign-in.js";

/** Slack's authorization endpoint for "Sign in with Slack" (OpenID Connect). */
export const SLACK_AUTHORIZE_URL = "https://slack.com/openid/connect/authorize";

/** The paths: where sign-in starts, and where Slack sends the browser back. */
export const SLACK_SIGNIN_PATH = "/signin/slack";
export const SLACK_CALLBACK_PATH = "/signin/slack/callback";

/** The cookie binding a sign-in under way to the browser that started it, and how long it holds. */
const STATE_COOKIE = "gate_slack_signin";
const STATE_MINUTES = 10;

/** What "Sign in with Slack" needs on top of the pages' own deps. */
export interface SlackSignInDeps extends AuditorPageDeps {
  slackSignIn: { key: Buffer; teamId: string };
  /** GATE_SLACK_CLIENT_ID and GATE_SLACK_CLIENT_SECRET: the Slack app's. */
  clientId: string;
  clientSecret: string;
  /** GATE_PUBLIC_URL, without its trailing slash: the redirect URI is under it. */
  publicUrl: string;
  /** SLACK_API_URL: where the Web API is (Slack's unless set; a loopback fake in tests). */
  apiUrl?: string | undefined;
  /** GATE_SLACK_SIGNIN_ALLOW: only these users and members of these user groups; empty: any member. */
  allow?: readonly string[];
  /** The user groups, among `groupIds`, a Slack user is in now (the bot's `usergroups.users.list`). */
  groupsOf?: (userId: string, groupIds: string[]) => Promise<string[]>;
}

/** The claims of an id_token (its payload, base64url JSON), or undefined when it is not a JWT. */
function idTokenClaims(idToken: string | undefined): Record<string, unknown> | undefined {
  const payload = idToken?.split(".")[1];
  if (!payload) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return claims && typeof claims === "object" ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Slack's error code of a failed Web API call (`invalid_code`, …), when Slack answered one. */
function slackError(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } }).data;
  return typeof data?.error === "string" ? data.error : undefined;
}

/** A sign-in that cannot go on: the status, what the person reads, and what the log says. */
class Refused extends GateError {
  constructor(
    readonly status: number,
    readonly problem: string,
    readonly why: string,
  ) {
    super("SIGNIN_REFUSED", why);
  }
}

/**
 * "Sign in with Slack" (OpenID Connect, Slack's "Sign in with Slack" docs) for members of the
 * gate's workspace. `GET /signin/slack?next=…` sends the browser to Slack's authorize endpoint
 * (scope `openid profile email`, a random `state` bound to this browser by a signed HttpOnly
 * cookie of STATE_MINUTES, a `nonce`, and `team`: the gate's workspace). `GET
 * /signin/slack/callback` checks the state, exchanges the code (`openid.connect.token`), checks the
 * id_token's nonce and audience, reads the user (`openid.connect.userInfo`) and lets in only a
 * member of the gate's workspace (and, with GATE_SLACK_SIGNIN_ALLOW, one it names or a member of a
 * user group it names): the same session cookie as a token's sign-in, for `slack:<user
 * id>`, audited as `signin`. Slack's `error` (a person who cancels) and anything wrong answer 4xx
 * with a page saying why, logged; a refused member of another workspace is audited too.
 */
export function slackSignInRoutes(deps: SlackSignInDeps): GateRoute[] {
  const { key, teamId } = deps.slackSignIn;
  const redirectUri = `${deps.publicUrl}${SLACK_CALLBACK_PATH}`;
  const secure = deps.publicUrl.startsWith("https://") ? "; Secure" : "";
  const client = new webApi.WebClient(undefined, {
    ...(deps.apiUrl ? { slackApiUrl: deps.apiUrl } : {}),
    logger: boltLogger(deps.log),
    retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 1000 },
    timeout: 10_000,
  });
  // SameSite=Lax: Slack's redirect back is a top-level navigation from slack.com, which a Strict cookie would miss.
  const stateCookie = (value: string, maxAge: number) =>
    `${STATE_COOKIE}=${value}; HttpOnly; SameSite=Lax; Path=${SLACK_SIGNIN_PATH}; Max-Age=${maxAge}${secure}`;
  const clearState = stateCookie("", 0);

  const refusedPage = (res: ServerResponse, refused: Refused, next = "/evidence") =>
    sendHtml(res, refused.status, signInPage(next, refused.problem, true), { "set-cookie": clearState });

  /** The member Slack says signed in, once the code is exchanged and the nonce holds. */
  const member = async (code: string, state: SignInState): Promise<SlackMember> => {
    let token: webApi.OpenIDConnectTokenResponse;
    try {
      token = await client.openid.connect.token({
        client_id: deps.clientId,
        client_secret: deps.clientSecret,
        code,
        redirect_uri: redirectUri,
      });
    } catch (error) {
      const code = slackError(error);
      if (code) throw new Refused(400, `Slack did not accept the sign-in (${code}); try again.`, `token: ${code}`);
      throw new Refused(502, "Slack could not be reached to finish the sign-in; try again.", String(error));
    }
    const claims = idTokenClaims(token.id_token);
    if (!token.access_token || !claims || claims.nonce !== state.nonce || claims.aud !== deps.clientId) {
      throw new Refused(400, "Slack's answer did not match this sign-in; try again.", "id_token: nonce or audience");
    }
    let info: webApi.OpenIDConnectUserInfoResponse;
    try {
      info = await client.openid.connect.userInfo({ token: token.access_token });
    } catch (error) {
      const code = slackError(error);
      throw new Refused(502, "Slack did not say who signed in; try again.", `userInfo: ${code ?? String(error)}`);
    }
    const userId = info["https://slack.com/user_id"] ?? claims["https://slack.com/user_id"];
    const team = info["https://slack.com/team_id"] ?? claims["https://slack.com/team_id"];
    if (!isSlackMemberIds(userId, team) || typeof userId !== "string" || typeof team !== "string") {
      throw new Refused(400, "Slack did not say who signed in; try again.", "userInfo: no user or team id");
    }
    return { userId, teamId: team, name: info.name ?? "" };
  };

  /** Whether GATE_SLACK_SIGNIN_ALLOW lets a member in: named, or in a named user group now. */
  const allowed = async (userId: string): Promise<boolean> => {
    const allow = deps.allow ?? [];
    if (allow.length === 0 || allow.includes(userId)) return true;
    const groups = allow.filter((id) => id.startsWith("S"));
    return groups.length > 0 && deps.groupsOf !== undefined && (await deps.groupsOf(userId, groups)).length > 0;
  };

  const callback = async (req: IncomingMessage, res: ServerResponse) => {
    const q = new URL(req.url ?? "/", "http://gate").searchParams;
    const held = signInStateOf(key, cookie(req, STATE_COOKIE) ?? "", deps.clock().getTime());
    const next = held?.next ?? "/evidence";
    const slackSaid = q.get("error");
    if (slackSaid !== null) {
      deps.log.info({ error: slackSaid.slice(0, 100) }, "Slack sign-in not completed");
      const problem =
        slackSaid === "access_denied"
          ? "Sign-in with Slack was cancelled (Slack answered access_denied): nothing was shared and you are not signed in."
          : `Slack did not sign you in (${slackSaid.slice(0, 100)}).`;
      return refusedPage(res, new Refused(401, problem, slackSaid), next);
    }
    const state = q.get("state");
    const code = q.get("code");
    if (!held || !state || state !== held.state || !code || code.length > 500) {
      const why = !held ? "no valid state cookie" : !code ? "no code" : "state does not match";
      deps.log.warn({ why }, "Slack sign-in refused");
      return refusedPage(
        res,
        new Refused(400, "This sign-in was not started here or took too long; start again.", why),
        next,
      );
    }
    let who: SlackMember;
    try {
      who = await member(code, held);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      deps.log.warn({ why: error.why }, "Slack sign-in refused");
      return refusedPage(res, error, next);
    }
    // A refusal is logged and audited with why, and answered 403 with no session.
    const refuse = async (why: string, message: string, code: string) => {
      deps.log.warn({ userId: who.userId, team: who.teamId }, `Slack sign-in refused: ${why}`);
      await deps.store.audit({
        reviewId: "",
        actor: `slack:${who.userId}`,
        action: "signin",
        outcome: "refused",
        detail: { team: who.teamId, why },
      });
      refusedPage(res, new Refused(403, message, code), next);
    };
    if (who.teamId !== teamId) {
      return refuse(
        "not a member of the gate's workspace",
        "Only members of the gate's own Slack workspace may sign in with Slack.",
        "team",
      );
    }
    if (!(await allowed(who.userId))) {
      return refuse(
        "not in GATE_SLACK_SIGNIN_ALLOW",
        "Your Slack account is not among those allowed to read the gate's evidence.",
        "allow",
      );
    }
    const expires = deps.clock().getTime() + SESSION_HOURS * 3_600_000;
    await deps.store.audit({
      reviewId: "",
      actor: `slack:${who.userId}`,
      action: "signin",
      outcome: "session",
      detail: { name: who.name, team: who.teamId, via: "slack", expires: new Date(expires).toISOString() },
    });
    // A page, not a redirect: the next request is then same-site, and carries the SameSite=Strict session.
    res.setHeader("set-cookie", [
      `${SESSION_COOKIE}=${slackSessionValue(key, who, expires)}; ${sessionCookieFlags(deps.publicUrl)}`,
      clearState,
    ]);
    sendHtml(
      res,
      200,
      htmlPage(
        "Signed in",
        `<meta http-equiv="refresh" content="0;url=${escapeHtml(next)}">
<p>Signed in with Slack as ${escapeHtml(who.name || who.userId)}. <a id="continue" href="${escapeHtml(next)}">Continue</a></p>`,
      ),
    );
  };

  return [
    {
      path: SLACK_SIGNIN_PATH,
      method: "GET",
      handler: (req, res) => {
        const next = localPath(new URL(req.url ?? "/", "http://gate").searchParams.get("next"));
        const state = randomBytes(24).toString("base64url");
        const nonce = randomBytes(24).toString("base64url");
        const expires = deps.clock().getTime() + STATE_MINUTES * 60_000;
        const authorize = new URL(SLACK_AUTHORIZE_URL);
        authorize.search = new URLSearchParams({
          response_type: "code",
          scope: "openid profile email",
          client_id: deps.clientId,
          redirect_uri: redirectUri,
          state,
          nonce,
          team: teamId,
        }).toString();
        res
          .writeHead(302, {
            location: authorize.toString(),
            "set-cookie": stateCookie(signInStateValue(key, { state, nonce, next }, expires), STATE_MINUTES * 60),
            "cache-control": "no-store",
          })
          .end();
      },
    },
    {
      path: SLACK_CALLBACK_PATH,
      method: "GET",
      handler: (req, res) => {
        callback(req, res).catch((error: unknown) => {
          deps.log.error({ err: error }, "Slack sign-in failed");
          if (!res.headersSent) sendHtml(res, 500, htmlPage("Error", "<p>Sign-in could not be completed.</p>"));
        });
      },
    },
  ];
}
