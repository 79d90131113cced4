import type { ServerResponse } from "node:http";
import { formatResult } from "../cli/format-result.js";
import type { ReviewRecord } from "../domain/review.js";
import { cardLink } from "../slack/card-link.js";
import { auditTable, decisionList, EVIDENCE_PATH } from "./review-html.js";
import { escapeHtml, htmlPage, sendHtml } from "./html.js";
import type { GateRoute } from "./http-routes.js";
import { type AuditorPageDeps, signedIn } from "./sign-in.js";

/** The path of a review's page: `/review?id=<review id>`. */
export const REVIEW_PAGE_PATH = "/review";

/** Review ids as the gate makes them (`r-` and hex); anything else is refused before the store is asked. */
const REVIEW_ID = /^r-[0-9a-f]{6,64}$/;

/**
 * A check run's "Details" link, always set: the review's Slack card once posted, else its page on
 * this server (GATE_PUBLIC_URL), else the pull request's own checks tab.
 *
 * @example detailsUrl({ publicUrl: "https://gate.example.com", slackCard: false })(review) // "https://gate.example.com/review?id=r-…"
 */
export function detailsUrl(opts: { publicUrl?: string | undefined; slackCard: boolean }) {
  return (review: ReviewRecord): string => {
    const card = opts.slackCard ? cardLink(review) : undefined;
    if (card) return card;
    if (opts.publicUrl) return `${opts.publicUrl}${REVIEW_PAGE_PATH}?${new URLSearchParams({ id: review.id })}`;
    return `${review.url.replace(/\/+$/, "")}/checks`;
  };
}

/**
 * `GET /review?id=<review id>`: the review's page for a signed-in auditor (src/server/sign-in.ts):
 * what `gate status` prints, its decisions and its audit entries, as HTML; the view is in the
 * audit log. 401 with the sign-in form (no review data) without a valid token or session; 400
 * for an id that is not one, 404 for a review the store does not hold.
 */
export function reviewPageRoute(deps: AuditorPageDeps): GateRoute {
  const page = (res: ServerResponse, status: number, title: string, body: string) =>
    sendHtml(res, status, htmlPage(title, body));
  return {
    path: REVIEW_PAGE_PATH,
    method: "GET",
    handler: signedIn(deps, async (req, res, viewer) => {
      const id = new URL(req.url ?? "/", "http://gate").searchParams.get("id") ?? "";
      if (!REVIEW_ID.test(id)) return page(res, 400, "Bad request", "<p>Name a review: /review?id=r-…</p>");
      const [review, result] = await Promise.all([deps.store.get(id), deps.store.lastResult(id)]);
      if (!review || !result) return page(res, 404, "No such review", `<p>No review ${escapeHtml(id)}.</p>`);
      await deps.store.audit({
        reviewId: id,
        actor: viewer.actor,
        action: "view",
        outcome: "shown",
        detail: { page: REVIEW_PAGE_PATH },
      });
      const entries = await deps.store.auditFor(id);
      page(
        res,
        200,
        `Review ${id}`,
        `<nav><a href="${EVIDENCE_PATH}">All changes</a></nav>
<h1>${escapeHtml(review.title)}</h1>
<p><a href="${escapeHtml(review.url)}">${escapeHtml(review.url)}</a></p>
<pre id="status">${escapeHtml(formatResult(result))}</pre>
<h2>Decisions</h2>${decisionList(result)}
<h2>Audit log</h2>${auditTable(entries)}`,
      );
    }),
  };
}
