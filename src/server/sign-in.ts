import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { Clock } from "../domain/clock.js";
import type { AuditorKey, ReviewStore } from "../domain/review-store.js";
import { auditorOfSession, auditorOfToken, SESSION_HOURS, sessionValue } from "../review/auditor-tokens.js";
import { slackMemberOfSession } from "../review/slack-sessions.js";
import { escapeHtml, htmlPage, sendHtml } from "./html.js";
import type { GateRoute } from "./http-routes.js";

/** The session cookie's name. */
export const SESSION_COOKIE = "gate_session";

/** What the auditor pages need: the store (auditors, evidence, audit log), the clock, the public URL. */
export interface AuditorPageDeps {
  store: ReviewStore;
  clock: Clock;
  /** GATE_PUBLIC_URL: an https one makes the cookie Secure. */
  publicUrl?: string | undefined;
  log: Logger;
  /**
   * "Sign in with Slack" when configured (src/server/slack-sign-in.ts): the key its sessions are
   * signed with and the gate's workspace, whose members alone are let in.
   */
  slackSignIn?: { key: Buffer; teamId: string } | undefined;
}

/** Who is reading a page: an auditor with a token, or a workspace member signed in with Slack. */
export interface Viewer {
  /** The audit log's actor: `auditor:<name>` or `slack:<user id>`. */
  actor: string;
  /** The name to greet them by. */
  name: string;
  /** The auditor's record, for a token's holder. */
  auditor?: AuditorKey;
}

/** A page's request handler once the viewer is known. */
export type SignedInHandler = (req: IncomingMessage, res: ServerResponse, viewer: Viewer) => Promise<void>;

/** The value of one cookie of a request. */
export function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

/**
 * The auditor a request comes from: `Authorization: Bearer gat_…`, or the session cookie
 * `/signin` set. Undefined without either, or when neither holds (unknown, revoked, expired).
 */
export async function requestAuditor(
  req: IncomingMessage,
  deps: Pick<AuditorPageDeps, "store" | "clock">,
): Promise<AuditorKey | undefined> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  if (bearer !== undefined) return auditorOfToken(deps.store, bearer);
  const session = cookie(req, SESSION_COOKIE);
  return session ? auditorOfSession(deps.store, session, deps.clock().getTime()) : undefined;
}

/**
 * Who a request comes from: an auditor (`requestAuditor`), or a member of the gate's workspace
 * whose Slack session cookie holds. Undefined for anyone else.
 */
export async function requestViewer(
  req: IncomingMessage,
  deps: Pick<AuditorPageDeps, "store" | "clock" | "slackSignIn">,
): Promise<Viewer | undefined> {
  const session = cookie(req, SESSION_COOKIE);
  if (session?.startsWith("slack.") && deps.slackSignIn && req.headers.authorization === undefined) {
    const { key, teamId } = deps.slackSignIn;
    const member = slackMemberOfSession(key, session, deps.clock().getTime(), teamId);
    return member ? { actor: `slack:${member.userId}`, name: member.name || member.userId } : undefined;
  }
  const auditor = await requestAuditor(req, deps);
  return auditor ? { actor: `auditor:${auditor.name}`, name: auditor.name, auditor } : undefined;
}

/** The flags of the session cookie: HttpOnly, SameSite=Strict, Secure when GATE_PUBLIC_URL is https. */
export function sessionCookieFlags(publicUrl: string | undefined): string {
  const secure = publicUrl?.startsWith("https://") ?? false;
  return `HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_HOURS * 3600}${secure ? "; Secure" : ""}`;
}

/** A path to come back to after sign-in: one of this server's, never another site's. */
export function localPath(next: string | null | undefined): string {
  return next && /^\/(?![/\\])[\x21-\x7e]*$/.test(next) ? next : "/evidence";
}

/**
 * The sign-in form (a token field, posted to /signin) and, when configured, the "Sign in with
 * Slack" link, with what to do next; no review data.
 */
export function signInPage(next: string, problem?: string, slack = false): string {
  const withSlack = slack
    ? `<p><a id="signin-slack" href="${escapeHtml(`/signin/slack?${new URLSearchParams({ next })}`)}">Sign in with Slack</a>
(members of the gate's Slack workspace).</p>\n`
    : "";
  return htmlPage(
    "Sign in: the gate's evidence",
    `<h1>Sign in to read the gate's evidence</h1>
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ""}
${withSlack}<p>These pages need an auditor's token: an operator makes one with <code>gate auditor add NAME</code>
(docs/operations.md, "How an auditor gets access"). Send it as <code>Authorization: Bearer gat_…</code>,
or sign in here once and the browser keeps a session for ${SESSION_HOURS} hours.</p>
<form method="post" action="/signin"><input type="hidden" name="next" value="${escapeHtml(next)}">
<label>Token <input type="password" name="token" autocomplete="off" required></label> <button type="submit">Sign in</button></form>
<p>Signed in already and sent here from Slack or GitHub? <a href="${escapeHtml(next)}">Open the page again</a>
(the session cookie is not sent on a link followed from another site).</p>`,
  );
}

/**
 * Wraps a page: it runs only for a signed-in auditor, and is stamped with their last use.
 * Anyone else gets 401 and the sign-in form, never the page's content.
 */
export function signedIn(deps: AuditorPageDeps, handler: SignedInHandler): GateRoute["handler"] {
  return (req, res) => {
    const failed = (error: unknown) => {
      deps.log.error({ err: error, path: req.url }, "auditor page failed");
      sendHtml(res, 500, htmlPage("Error", "<p>The page could not be read.</p>"));
    };
    requestViewer(req, deps)
      .then(async (viewer) => {
        if (!viewer) {
          const next = localPath(req.url);
          return sendHtml(res, 401, signInPage(next, undefined, deps.slackSignIn !== undefined), {
            "www-authenticate": 'Bearer realm="gate"',
          });
        }
        if (viewer.auditor) await deps.store.auditorUsed(viewer.auditor.name);
        await handler(req, res, viewer);
      }, failed)
      .catch(failed);
  };
}

/** Reads a small form body (at most 4 KB). */
function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
      if (text.length > 4096) {
        reject(new Error("form too large"));
        req.destroy();
      }
    });
    req.on("end", () => resolve(new URLSearchParams(text)));
    req.on("error", reject);
  });
}

/**
 * `GET /signin` (the form; with `?token=` it signs in as the POST does) and `POST /signin`
 * (`token`, `next`): a valid token sets the session cookie (HttpOnly, SameSite=Strict, Secure
 * when GATE_PUBLIC_URL is https, expiring after SESSION_HOURS) and redirects to `next`; a wrong one
 * answers 401 with the form again. Each sign-in is in the audit log.
 */
export function signInRoutes(deps: AuditorPageDeps): GateRoute[] {
  const slack = deps.slackSignIn !== undefined;
  const signIn = async (res: ServerResponse, token: string | null, next: string) => {
    const auditor = token ? await auditorOfToken(deps.store, token) : undefined;
    if (!auditor) return sendHtml(res, 401, signInPage(next, token ? "That token is not valid." : undefined, slack));
    const expires = deps.clock().getTime() + SESSION_HOURS * 3_600_000;
    await deps.store.auditorUsed(auditor.name);
    await deps.store.audit({
      reviewId: "",
      actor: `auditor:${auditor.name}`,
      action: "signin",
      outcome: "session",
      detail: { expires: new Date(expires).toISOString() },
    });
    const flags = sessionCookieFlags(deps.publicUrl);
    res
      .writeHead(303, {
        location: next,
        "set-cookie": `${SESSION_COOKIE}=${sessionValue(auditor, expires)}; ${flags}`,
        "cache-control": "no-store",
      })
      .end();
  };
  const failed = (res: ServerResponse) => (error: unknown) => {
    deps.log.error({ err: error }, "sign-in failed");
    sendHtml(res, 500, htmlPage("Error", "<p>Sign-in could not be completed.</p>"));
  };
  return [
    {
      path: "/signin",
      method: "GET",
      handler: (req, res) => {
        const q = new URL(req.url ?? "/", "http://gate").searchParams;
        const next = localPath(q.get("next"));
        if (!q.has("token")) return sendHtml(res, 200, signInPage(next, undefined, slack));
        signIn(res, q.get("token"), next).catch(failed(res));
      },
    },
    {
      path: "/signin",
      method: "POST",
      handler: (req, res) => {
        formBody(req)
          .then((form) => signIn(res, form.get("token"), localPath(form.get("next"))))
          .catch(failed(res));
      },
    },
  ];
}
