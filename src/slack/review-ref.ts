import { escapeMrkdwn, truncatePlain } from "./mrkdwn.js";
import { prKey } from "../domain/pull-request.js";

/** What `/gate status <ref>` accepts, normalised to what `ReviewService.status` takes. */
export type ReviewRef = { ok: true; ref: string } | { ok: false; why: string };

// Owners have no dots; a repository name is never "." or "..".
const REPO = "[A-Za-z0-9_-]+/(?!\\.\\.?(?:[#/?|>]|$))[A-Za-z0-9_.-]+";
const PR_REF = new RegExp(`^(${REPO})#(\\d{1,9})$`);
const PR_URL = new RegExp(`^<?https://github\\.com/(${REPO})/pull/(\\d{1,9})(?:[/?#][^\\s>|]*)?(?:\\|[^>]*)?>?$`);
/** A pull request URL on another GitHub web address (GitHub Enterprise Server). */
function webPrUrl(webUrl: string): RegExp {
  const host = webUrl.replace(/\/+$/, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^<?${host}/(${REPO})/pull/(\\d{1,9})(?:[/?#][^\\s>|]*)?(?:\\|[^>]*)?>?$`);
}
const SHORT = /^#(\d{1,9})$/;
const REVIEW_ID = /^r-[A-Za-z0-9_-]{1,64}$/;

/**
 * Parses a PR or review reference: `owner/repo#123`, a PR URL (Slack wraps it in `<…>`), `#123`
 * (with a default repository) or a review id `r-…`. Returns `owner/repo#123` or the id.
 *
 * @example parseReviewRef("#12", "acme/web") // { ok: true, ref: "acme/web#12" }
 */
export function parseReviewRef(input: string, defaultRepo?: string, webUrl?: string): ReviewRef {
  const text = input.trim();
  const pr = PR_REF.exec(text) ?? PR_URL.exec(text) ?? (webUrl ? webPrUrl(webUrl).exec(text) : null);
  if (pr) return { ok: true, ref: prKey({ repo: pr[1] ?? "", number: Number(pr[2]) }) };
  const short = SHORT.exec(text);
  if (short) {
    if (!defaultRepo)
      return {
        ok: false,
        why: `\`${text}\` needs a repository: no default repository is set, so write owner/repo#${short[1]}`,
      };
    return { ok: true, ref: prKey({ repo: defaultRepo, number: Number(short[1]) }) };
  }
  if (REVIEW_ID.test(text)) return { ok: true, ref: text };
  return {
    ok: false,
    why: `\`${escapeMrkdwn(truncatePlain(text, 80))}\` is not a pull request or a review: use owner/repo#123, a PR URL, #123 or a review id (r-…)`,
  };
}
