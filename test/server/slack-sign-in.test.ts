import { describe, expect, it } from "vitest";
import { defined } from "../helpers/defined.js";
import { stackWithEvidence } from "./auditor-helpers.js";
import { stacksClosedAfterEach, type Stack } from "./helpers.js";
import { CLIENT_ID, PUBLIC_URL, SIGN_IN_ENV, slackSignsIn } from "./slack-sign-in-helpers.js";

const start = stacksClosedAfterEach();

/** `GET /signin/slack`: Slack's authorize URL and the state cookie (`name=value`). */
async function startSignIn(s: Stack, next = "/evidence") {
  const res = await fetch(`${s.base}/signin/slack?next=${encodeURIComponent(next)}`, { redirect: "manual" });
  expect(res.status).toBe(302);
  const location = new URL(defined(res.headers.get("location"), "the redirect"));
  const setCookie = defined(res.headers.get("set-cookie"), "the state cookie");
  expect(setCookie).toMatch(/^gate_slack_signin=[^;]+; HttpOnly; SameSite=Lax; Path=\/signin\/slack; Max-Age=600$/);
  return { location, stateCookie: setCookie.split(";")[0] ?? "" };
}

/** The audit log's entries by Slack members. */
async function slackEntries(s: Stack) {
  const rows = await s.server.gate.state.query(
    "SELECT review_id, actor, action, outcome, detail FROM gate_audit WHERE actor LIKE 'slack:%' ORDER BY seq",
  );
  return rows as Array<{ review_id: string; actor: string; action: string; outcome: string; detail: string }>;
}

describe("Sign in with Slack (OpenID Connect) on the auditor's pages", () => {
  it("a member of the gate's workspace signs in, reads /evidence and /review, and each step is audited", async () => {
    const { s, review } = await stackWithEvidence(start, SIGN_IN_ENV);
    const slack = defined(s.slack, "the Slack fake");
    // The 401 page offers Slack.
    const denied = await fetch(`${s.base}/evidence`);
    expect(denied.status).toBe(401);
    expect(await denied.text()).toContain('href="/signin/slack?next=%2Fevidence"');

    const { location, stateCookie } = await startSignIn(s, `/review?id=${review.id}`);
    expect(`${location.origin}${location.pathname}`).toBe("https://slack.com/openid/connect/authorize");
    const q = location.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("scope")).toBe("openid profile email");
    expect(q.get("client_id")).toBe(CLIENT_ID);
    expect(q.get("redirect_uri")).toBe(`${PUBLIC_URL}/signin/slack/callback`);
    expect(q.get("team")).toBe("T1");
    const state = defined(q.get("state"), "state");
    const nonce = defined(q.get("nonce"), "nonce");
    expect(state).toMatch(/^[\w-]{32}$/);
    expect(nonce).toMatch(/^[\w-]{32}$/);
    expect(nonce).not.toBe(state);

    slackSignsIn(slack, nonce, "UKIM", "T1");
    const back = await fetch(`${s.base}/signin/slack/callback?code=good-code&state=${state}`, {
      headers: { cookie: stateCookie },
      redirect: "manual",
    });
    expect(back.status).toBe(200);
    expect(await back.text()).toContain("Signed in with Slack as Kim Auditor");
    const cookies = back.headers.getSetCookie();
    const session = defined(
      cookies.find((c) => c.startsWith("gate_session=slack.UKIM.T1.")),
      `a session cookie in ${cookies}`,
    );
    expect(session).toContain("HttpOnly; SameSite=Strict; Path=/; Max-Age=28800");
    expect(cookies).toContain("gate_slack_signin=; HttpOnly; SameSite=Lax; Path=/signin/slack; Max-Age=0");
    // The code went to Slack with the app's credentials and the same redirect URI; userInfo with the access token.
    const [exchange] = slack.callsTo("openid.connect.token");
    expect(exchange?.body).toMatchObject({ code: "good-code", redirect_uri: `${PUBLIC_URL}/signin/slack/callback` });
    expect(slack.callsTo("openid.connect.userInfo")[0]?.token).toBe("xoxp-openid-access");

    const headers = { cookie: defined(session.split(";")[0], "cookie") };
    const table = await fetch(`${s.base}/evidence`, { headers });
    expect(table.status).toBe(200);
    const html = await table.text();
    expect(html).toContain("Signed in as Kim Auditor");
    expect(html).toContain("2 changes shown");
    const page = await fetch(`${s.base}/review?id=${review.id}`, { headers });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(review.title);

    const entries = await slackEntries(s);
    expect(entries.map((e) => [e.actor, e.action, e.outcome, e.review_id])).toEqual([
      ["slack:UKIM", "signin", "session", ""],
      ["slack:UKIM", "view", "shown", ""],
      ["slack:UKIM", "view", "shown", review.id],
    ]);
    expect(JSON.parse(entries[0]?.detail ?? "{}")).toMatchObject({ name: "Kim Auditor", team: "T1", via: "slack" });

    // A forged or tampered Slack session is refused.
    const forged = defined(headers.cookie.replace("UKIM", "UBOSS"), "forged");
    expect((await fetch(`${s.base}/evidence`, { headers: { cookie: forged } })).status).toBe(401);
  });

  it("a member of another workspace gets 403 and no session; the refusal is audited", async () => {
    const { s } = await stackWithEvidence(start, SIGN_IN_ENV);
    const slack = defined(s.slack, "the Slack fake");
    const { location, stateCookie } = await startSignIn(s);
    slackSignsIn(slack, defined(location.searchParams.get("nonce"), "nonce"), "UOUTSIDER", "T2");
    const state = defined(location.searchParams.get("state"), "state");
    const back = await fetch(`${s.base}/signin/slack/callback?code=good-code&state=${state}`, {
      headers: { cookie: stateCookie },
      redirect: "manual",
    });
    expect(back.status).toBe(403);
    expect(await back.text()).toContain("Only members of the gate&#39;s own Slack workspace");
    expect(back.headers.getSetCookie().filter((c) => c.startsWith("gate_session="))).toEqual([]);
    const entries = await slackEntries(s);
    expect(entries.map((e) => [e.actor, e.action, e.outcome])).toEqual([["slack:UOUTSIDER", "signin", "refused"]]);
  });

  it("a wrong or missing state, or a nonce that does not match, gets 400: no exchange, nothing stored", async () => {
    const { s } = await stackWithEvidence(start, SIGN_IN_ENV);
    const slack = defined(s.slack, "the Slack fake");
    const { location, stateCookie } = await startSignIn(s);
    const state = defined(location.searchParams.get("state"), "state");
    slackSignsIn(slack, defined(location.searchParams.get("nonce"), "nonce"), "UKIM", "T1");
    const tries: Array<[string, Record<string, string>]> = [
      // Another browser's callback: no state cookie (a login CSRF).
      [`code=good-code&state=${state}`, {}],
      [`code=good-code&state=${"x".repeat(32)}`, { cookie: stateCookie }],
      [`code=good-code`, { cookie: stateCookie }],
      [`state=${state}`, { cookie: stateCookie }],
      // A state cookie whose MAC does not hold.
      [`code=good-code&state=${state}`, { cookie: `${stateCookie.slice(0, -4)}AAAA` }],
    ];
    for (const [query, headers] of tries) {
      const res = await fetch(`${s.base}/signin/slack/callback?${query}`, { headers, redirect: "manual" });
      expect(res.status, query).toBe(400);
      expect(await res.text()).toContain("start again");
      expect(res.headers.getSetCookie().filter((c) => c.startsWith("gate_session="))).toEqual([]);
    }
    expect(slack.callsTo("openid.connect.token")).toEqual([]);

    // The right state but an id_token for another sign-in's nonce: refused after the exchange.
    slackSignsIn(slack, "n".repeat(32), "UKIM", "T1");
    const replay = await fetch(`${s.base}/signin/slack/callback?code=good-code&state=${state}`, {
      headers: { cookie: stateCookie },
    });
    expect(replay.status).toBe(400);
    expect(replay.headers.getSetCookie().filter((c) => c.startsWith("gate_session="))).toEqual([]);
    expect(slack.callsTo("openid.connect.userInfo")).toEqual([]);
    // A code Slack refuses.
    const bad = await fetch(`${s.base}/signin/slack/callback?code=stale-code&state=${state}`, {
      headers: { cookie: stateCookie },
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("invalid_code");
    expect(await slackEntries(s)).toEqual([]);
  });

  it("GATE_SLACK_SIGNIN_ALLOW lets in only the users and user groups' members it names", async () => {
    const { s } = await stackWithEvidence(start, { ...SIGN_IN_ENV, GATE_SLACK_SIGNIN_ALLOW: "UKIM,SAUDIT" });
    const slack = defined(s.slack, "the Slack fake");
    slack.userGroups.set("SAUDIT", ["UPAT"]);
    const signInAs = async (user: string) => {
      const { location, stateCookie } = await startSignIn(s);
      slackSignsIn(slack, defined(location.searchParams.get("nonce"), "nonce"), user, "T1");
      const state = defined(location.searchParams.get("state"), "state");
      const res = await fetch(`${s.base}/signin/slack/callback?code=good-code&state=${state}`, {
        headers: { cookie: stateCookie },
      });
      const session = res.headers.getSetCookie().some((c) => c.startsWith("gate_session=slack."));
      return [res.status, session];
    };
    expect(await signInAs("UKIM")).toEqual([200, true]);
    expect(await signInAs("UPAT")).toEqual([200, true]);
    expect(await signInAs("UELSE")).toEqual([403, false]);
    expect(slack.callsTo("usergroups.users.list").map((c) => c.body.usergroup)).toContain("SAUDIT");
    expect((await slackEntries(s)).map((e) => [e.actor, e.outcome])).toEqual([
      ["slack:UKIM", "session"],
      ["slack:UPAT", "session"],
      ["slack:UELSE", "refused"],
    ]);
  });

  it("Slack's error=access_denied (the person cancelled) gets a page saying so, and no session", async () => {
    const { s } = await stackWithEvidence(start, SIGN_IN_ENV);
    const { location, stateCookie } = await startSignIn(s);
    const state = defined(location.searchParams.get("state"), "state");
    const res = await fetch(`${s.base}/signin/slack/callback?error=access_denied&state=${state}`, {
      headers: { cookie: stateCookie },
    });
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(html).toContain("cancelled (Slack answered access_denied)");
    expect(html).toContain("Sign in with Slack");
    expect(res.headers.getSetCookie().filter((c) => c.startsWith("gate_session="))).toEqual([]);
    expect(defined(s.slack, "fake").callsTo("openid.connect.token")).toEqual([]);
    expect(await slackEntries(s)).toEqual([]);
  });

  it("off unless configured: no Slack link, /signin/slack is not served", async () => {
    const { s } = await stackWithEvidence(start);
    const denied = await fetch(`${s.base}/evidence`);
    expect(denied.status).toBe(401);
    expect(await denied.text()).not.toContain("/signin/slack");
    expect((await fetch(`${s.base}/signin/slack`, { redirect: "manual" })).status).toBe(404);
    // A Slack-looking session cookie is nobody's.
    const res = await fetch(`${s.base}/evidence`, {
      headers: { cookie: "gate_session=slack.U1.T1.a.99999999999999.x" },
    });
    expect(res.status).toBe(401);
  });
});
