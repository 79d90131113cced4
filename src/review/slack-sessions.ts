import { createHmac, timingSafeEqual } from "node:crypto";

/** A workspace member signed in with Slack: their user and team ids and their name, as Slack gave them. */
export interface SlackMember {
  userId: string;
  teamId: string;
  name: string;
}

const SLACK_ID = /^[UWT][A-Z0-9]{1,30}$/;

/**
 * The key Slack sessions and sign-in states are signed with: derived from the Slack app's client
 * secret (GATE_SLACK_CLIENT_SECRET), which every replica holds. Regenerating the secret in the
 * app's settings ends every Slack session and every sign-in under way.
 */
export function slackSessionKey(clientSecret: string): Buffer {
  return createHmac("sha256", clientSecret).update("gate slack session v1").digest();
}

function mac(key: Buffer, body: string): string {
  return createHmac("sha256", key).update(body).digest("base64url");
}

function macHolds(key: Buffer, body: string, got: string): boolean {
  const want = Buffer.from(mac(key, body));
  const given = Buffer.from(got);
  return want.length === given.length && timingSafeEqual(want, given);
}

/**
 * A session cookie's value for a workspace member: `slack.<user>.<team>.<name>.<expiry>.<mac>`
 * (six parts, so never mistaken for an auditor's three), the name base64url, the MAC an
 * HMAC-SHA256 keyed with `slackSessionKey`.
 *
 * @example slackSessionValue(key, { userId: "U1", teamId: "T1", name: "Kim" }, Date.now() + 3_600_000)
 */
export function slackSessionValue(key: Buffer, member: SlackMember, expiresAtMs: number): string {
  const name = Buffer.from(member.name.slice(0, 80), "utf8").toString("base64url");
  const body = `slack.${member.userId}.${member.teamId}.${name}.${expiresAtMs}`;
  return `${body}.${mac(key, body)}`;
}

/**
 * The member a session cookie's value stands for, when it is a Slack session whose MAC holds,
 * that has not expired and is of `teamId` (the gate's workspace now). Undefined otherwise.
 */
export function slackMemberOfSession(
  key: Buffer,
  value: string,
  nowMs: number,
  teamId: string,
): SlackMember | undefined {
  const parts = value.split(".");
  if (parts.length !== 6 || parts[0] !== "slack") return undefined;
  const [, userId = "", team = "", name = "", expiry = "", got = ""] = parts;
  if (!SLACK_ID.test(userId) || !SLACK_ID.test(team) || team !== teamId) return undefined;
  if (!/^\d{1,16}$/.test(expiry) || Number(expiry) <= nowMs || !/^[\w-]{0,200}$/.test(name)) return undefined;
  if (!macHolds(key, parts.slice(0, 5).join("."), got)) return undefined;
  return { userId, teamId: team, name: Buffer.from(name, "base64url").toString("utf8") };
}

/** What a sign-in with Slack under way is bound to in the browser: its state, nonce and where to go next. */
export interface SignInState {
  state: string;
  nonce: string;
  next: string;
}

/**
 * The state cookie's value: `<state>.<nonce>.<next, base64url>.<expiry>.<mac>`; the callback
 * accepts Slack's `state` only with this cookie, so a sign-in started in another browser (a
 * login CSRF) fails.
 */
export function signInStateValue(key: Buffer, s: SignInState, expiresAtMs: number): string {
  const body = `${s.state}.${s.nonce}.${Buffer.from(s.next, "utf8").toString("base64url")}.${expiresAtMs}`;
  return `${body}.${mac(key, `state.${body}`)}`;
}

/** The sign-in a state cookie's value holds, when its MAC holds and it has not expired. */
export function signInStateOf(key: Buffer, value: string, nowMs: number): SignInState | undefined {
  const parts = value.split(".");
  if (parts.length !== 5) return undefined;
  const [state = "", nonce = "", next = "", expiry = "", got = ""] = parts;
  if (!/^[\w-]{16,100}$/.test(state) || !/^[\w-]{16,100}$/.test(nonce) || !/^[\w-]{0,2000}$/.test(next))
    return undefined;
  if (!/^\d{1,16}$/.test(expiry) || Number(expiry) <= nowMs) return undefined;
  if (!macHolds(key, `state.${parts.slice(0, 4).join(".")}`, got)) return undefined;
  return { state, nonce, next: Buffer.from(next, "base64url").toString("utf8") };
}

/** Whether a Slack user id is one (`U…` or `W…`) and a team id is one (`T…`). */
export function isSlackMemberIds(userId: unknown, teamId: unknown): boolean {
  return (
    typeof userId === "string" &&
    /^[UW][A-Z0-9]{1,30}$/.test(userId) &&
    typeof teamId === "string" &&
    /^T[A-Z0-9]{1,30}$/.test(teamId)
  );
}
