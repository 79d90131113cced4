import type { FakeSlackApi } from "../fakes/slack-api.js";

/** The Slack app of Sign in with Slack in these tests. */
export const CLIENT_ID = "1234567890.9876543210";
export const CLIENT_SECRET = "e2e-slack-client-secret-0123456789";
export const PUBLIC_URL = "http://gate.example.test";
/** The fake's auth.test says the bot is in team T1: the gate's workspace. */
export const SIGN_IN_ENV = {
  GATE_SLACK_CLIENT_ID: CLIENT_ID,
  GATE_SLACK_CLIENT_SECRET: CLIENT_SECRET,
  GATE_PUBLIC_URL: PUBLIC_URL,
};

/** An unsigned JWT with these claims (the gate reads the id_token Slack's token endpoint answered over TLS). */
function idToken(claims: Record<string, unknown>): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  return `${part({ alg: "RS256", typ: "JWT" })}.${part(claims)}.sig`;
}

/** Makes the fake Slack answer the OpenID Connect methods for `user` of `team`, with the nonce Slack was given. */
export function slackSignsIn(slack: FakeSlackApi, nonce: string, user: string, team: string, name = "Kim Auditor") {
  slack.on("openid.connect.token", (body) =>
    body.code === "good-code" && body.client_id === CLIENT_ID && body.client_secret === CLIENT_SECRET
      ? {
          ok: true,
          access_token: "xoxp-openid-access",
          token_type: "Bearer",
          id_token: idToken({
            iss: "https://slack.com",
            aud: CLIENT_ID,
            sub: user,
            nonce,
            "https://slack.com/user_id": user,
            "https://slack.com/team_id": team,
          }),
        }
      : { ok: false, error: "invalid_code" },
  );
  slack.on("openid.connect.userInfo", () => ({
    ok: true,
    sub: user,
    "https://slack.com/user_id": user,
    "https://slack.com/team_id": team,
    name,
    email: "kim@example.test",
  }));
}
