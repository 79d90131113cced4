import type { ReviewRecord } from "../domain/review.js";
import type { ReviewStore } from "../domain/review-store.js";
import { formatResult } from "../cli/format-result.js";
import { cardLink } from "../slack/card-link.js";
import type { GateRoute } from "./http-routes.js";

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
 * `GET /review?id=<review id>`: the review's status as plain text, what `gate status` prints (the
 * `/gate status` view for someone following a check run's link). 400 for an id that is not one,
 * 404 for a review the store does not hold.
 */
export function reviewPageRoute(store: Pick<ReviewStore, "get" | "lastResult">): GateRoute {
  const text = (res: Parameters<GateRoute["handler"]>[1], status: number, body: string) =>
    res
      .writeHead(status, { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" })
      .end(body);
  return {
    path: REVIEW_PAGE_PATH,
    method: "GET",
    handler: (req, res) => {
      const id = new URL(req.url ?? "/", "http://gate").searchParams.get("id") ?? "";
      if (!REVIEW_ID.test(id)) return void text(res, 400, "name a review: /review?id=r-…\n");
      Promise.all([store.get(id), store.lastResult(id)]).then(
        ([review, result]) =>
          review && result
            ? text(res, 200, `${review.title}\n${review.url}\n\n${formatResult(result)}\n`)
            : text(res, 404, `no review ${id}\n`),
        () => text(res, 500, "the review could not be read\n"),
      );
    },
  };
}
