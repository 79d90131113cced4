import { GateError } from "../domain/errors.js";
import { GITHUB_OWNER, isRepoName } from "../domain/github-names.js";
import { prKey } from "../domain/pull-request.js";

/** A pull request named by its repository and number. */
export interface PrRef {
  owner: string;
  repo: string;
  number: number;
}

const NUMBER = /^[1-9][0-9]{0,9}$/;

const SHORT_FORM = /^([^/\s#]+)\/([^/\s#]+)#([^\s#]+)$/;
const HASH_FORM = /^#([^\s#]+)$/;
const URL_PATH = /^\/([^/]+)\/([^/]+)\/pull\/([^/]+)(?:\/.*)?$/;

function invalid(text: string, why: string): GateError {
  const shown = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return new GateError(
    "PR_REF_INVALID",
    `"${shown}" is not a pull request reference: ${why} (use owner/repo#123, a PR URL, or #123)`,
  );
}

function validated(text: string, owner: string, repo: string, number: string): PrRef {
  if (!GITHUB_OWNER.test(owner)) throw invalid(text, `"${owner}" is not a valid owner name`);
  if (!isRepoName(repo)) {
    throw invalid(text, `"${repo}" is not a valid repository name`);
  }
  if (!NUMBER.test(number) || Number(number) > 2_147_483_647) {
    throw invalid(text, `"${number}" is not a pull request number`);
  }
  return { owner, repo, number: Number(number) };
}

/** Slack wraps links as `<url>` or `<url|label>`; keep the url. */
function unwrapSlackLink(text: string): string {
  const m = /^<([^|>]+)(?:\|[^>]*)?>$/.exec(text);
  return m?.[1] ?? text;
}

function fromUrl(text: string, raw: string): PrRef {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(text, "the URL does not parse");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalid(text, "only http(s) URLs name a PR");
  const m = URL_PATH.exec(url.pathname);
  if (!m) throw invalid(text, "the URL path is not /owner/repo/pull/<number>");
  return validated(text, decodeURIComponent(m[1] ?? ""), decodeURIComponent(m[2] ?? ""), m[3] ?? "");
}

/**
 * Parses how people write a pull request: `owner/repo#123`, a PR URL on any host (GitHub
 * Enterprise too; `/files` and the like are ignored), or `#123` with a default repository.
 * Throws `GateError("PR_REF_INVALID")` with a one-line reason otherwise.
 *
 * @example parsePrRef("https://github.com/acme/web/pull/7/files") // { owner: "acme", repo: "web", number: 7 }
 */
export function parsePrRef(text: string, defaultRepo?: string): PrRef {
  const trimmed = unwrapSlackLink(text.trim());
  if (trimmed === "") throw invalid(text, "it is empty");
  if (/^https?:\/\//i.test(trimmed)) return fromUrl(text, trimmed);
  const short = SHORT_FORM.exec(trimmed);
  if (short) return validated(text, short[1] ?? "", short[2] ?? "", short[3] ?? "");
  const hash = HASH_FORM.exec(trimmed);
  if (hash) {
    if (!defaultRepo) throw invalid(text, "#<number> needs a default repository");
    const [owner, repo, ...rest] = defaultRepo.split("/");
    if (owner === undefined || repo === undefined || rest.length > 0) {
      throw invalid(text, `the default repository "${defaultRepo}" is not owner/name`);
    }
    return validated(text, owner, repo, hash[1] ?? "");
  }
  throw invalid(text, "expected owner/repo#<number>, a PR URL, or #<number>");
}

/**
 * Formats a reference the way `parsePrRef` reads it.
 *
 * @example formatPrRef({ owner: "acme", repo: "web", number: 7 }) // "acme/web#7"
 */
export function formatPrRef(ref: PrRef): string {
  return prKey({ repo: `${ref.owner}/${ref.repo}`, number: ref.number });
}
