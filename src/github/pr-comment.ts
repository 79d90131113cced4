import type { Octokit } from "@octokit/rest";
import type { Logger } from "pino";
import type { ReviewResult, ReviewStatus } from "../domain/review-result.js";
import type { PublishReceipt, Publisher, ReviewRecord } from "../domain/review.js";
import { backoff, isTransient, splitRepo, statusOf } from "./check-publisher.js";
import type { GitHubAuth } from "./client.js";
import { type DeciderLine, stepSummary } from "./step-summary.js";

/** The hidden first line that marks the gate's summary comment on a pull request. */
export const PR_COMMENT_MARKER = "<!-- compliance-gate:summary -->";

/** GitHub refuses a comment body longer than this (characters). */
const COMMENT_LIMIT = 65_536;

/** Findings listed in the comment; `gate status` lists the rest. */
const COMMENT_ROWS = 100;

/**
 * The results a comment shows: settled ones. A queued or running review has nothing to say yet, and
 * a superseded or closed one would overwrite what its PR's newer review said.
 */
const SHOWN: ReadonlySet<ReviewStatus> = new Set<ReviewStatus>(["waiting_for_human", "done", "merged_unapproved"]);

/**
 * The summary comment's body: the marker, then the step summary's Markdown (route, findings, coverage,
 * who can decide) naming the head it is about; cut to fit GitHub's limit.
 *
 * @example prCommentBody(review, result, []).startsWith(PR_COMMENT_MARKER) // true
 */
export function prCommentBody(
  review: ReviewRecord,
  result: ReviewResult,
  deciders: readonly DeciderLine[],
  personName?: (id: string) => string | undefined,
): string {
  const summary = stepSummary(result, {
    deciders,
    ...(personName ? { personName } : {}),
    headSha: review.headSha,
    maxRows: COMMENT_ROWS,
    restIn: `\`gate status ${result.review_id}\``,
  });
  const foot = "\n<sub>Edited in place on each push by the compliance gate.</sub>\n";
  const body = `${PR_COMMENT_MARKER}\n${summary}${foot}`;
  if (body.length <= COMMENT_LIMIT) return body;
  const tail = `\n\n…(cut to fit a comment: \`gate status ${result.review_id}\` has it all)\n`;
  return body.slice(0, COMMENT_LIMIT - tail.length) + tail;
}

export interface PrCommentPublisherOptions {
  auth: GitHubAuth;
  log: Logger;
  /** Who may decide the review (the lists the decision policy asks for), for the comment's last part. */
  deciders(review: ReviewRecord, result: ReviewResult): Promise<DeciderLine[]>;
  /** A decider's name for their id (Slack display name), shown beside the id. */
  personName?: (id: string) => string | undefined;
  /** Whether the review is still its PR's latest; an older one's result is not shown. All are by default. */
  isLatest?(review: ReviewRecord): Promise<boolean>;
  /** Attempts at creating the comment and the backoff unit between them, as the check publisher's. */
  retry?: { attempts?: number; baseMs?: number };
}

interface FoundComment {
  id: number;
  body: string;
}

/** Whose comments may be the gate's: a bot's (App mode), or the token's user's. */
type Author = { bot: true } | { login: string };

/**
 * The gate's summary comment on the PR, if there is one: the oldest whose body starts with the
 * marker and whose author is the gate (a bot in App mode, the token's user otherwise), so a person's
 * comment quoting or copying the marker is not taken for it.
 */
async function findComment(
  octokit: Octokit,
  where: { owner: string; repo: string; issue_number: number },
  author: Author,
): Promise<FoundComment | undefined> {
  const comments = await octokit.paginate(octokit.rest.issues.listComments, { ...where, per_page: 100 });
  const ours = comments.find(
    (c) =>
      (c.body ?? "").startsWith(PR_COMMENT_MARKER) &&
      ("bot" in author ? c.user?.type === "Bot" : c.user?.login === author.login),
  );
  return ours ? { id: ours.id, body: ours.body ?? "" } : undefined;
}

/**
 * "Resource not accessible by integration" (or "by personal access token"): the App or token lacks
 * the permission comments need, which no retry gives it.
 */
function lacksPermission(error: unknown): boolean {
  return statusOf(error) === 403 && error instanceof Error && /not accessible/i.test(error.message);
}

/**
 * Writes the summary: edits the gate's comment when the PR has one (not when it already says this),
 * else creates it. A create is never retried by the client (a lost answer would make two); it is
 * tried again here after looking the comment up again.
 */
async function writeComment(
  octokit: Octokit,
  where: { owner: string; repo: string; issue_number: number },
  body: string,
  ctx: { author: Author; log: Logger; retry: { attempts: number; baseMs: number } },
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const found = await findComment(octokit, where, ctx.author);
    if (found) {
      if (found.body === body) return;
      await octokit.rest.issues.updateComment({ owner: where.owner, repo: where.repo, comment_id: found.id, body });
      ctx.log.info({ commentId: found.id }, "PR summary comment updated");
      return;
    }
    try {
      const created = await octokit.rest.issues.createComment({ ...where, body, request: { retries: 0 } });
      ctx.log.info({ commentId: created.data.id }, "PR summary comment created");
      return;
    } catch (error) {
      if (attempt >= ctx.retry.attempts || !isTransient(error)) throw error;
      ctx.log.warn({ err: error, attempt }, "creating the PR comment failed; looking it up and trying again");
      await backoff(attempt, ctx.retry.baseMs);
    }
  }
}

/**
 * Publishes a review as ONE summary comment on its pull request, edited in place on each new head or
 * result (found by its hidden marker, `PR_COMMENT_MARKER`), never a new comment per push. Only
 * settled results are shown, and only the PR's latest review's. A failure is thrown to the publish
 * machinery (logged, published again later); it never touches the verdict or the check run. An App
 * or token without the permission comments need is told in the log on each publish, and nothing is retried.
 *
 * @example const comment = createPrCommentPublisher({ auth, log, deciders: async () => [] });
 */
export function createPrCommentPublisher(opts: PrCommentPublisherOptions): Publisher {
  const retry = { attempts: opts.retry?.attempts ?? 3, baseMs: opts.retry?.baseMs ?? 1000 };
  // The token's user, asked once (a failed answer is asked again next time).
  let tokenUser: Promise<string> | undefined;
  const authorFor = async (octokit: Octokit): Promise<Author> => {
    if (opts.auth.mode === "app") return { bot: true };
    tokenUser ??= octokit.rest.users.getAuthenticated().then((r) => r.data.login);
    try {
      return { login: await tokenUser };
    } catch (error) {
      tokenUser = undefined;
      throw error;
    }
  };
  return {
    name: "github-comment",
    async publish(review: ReviewRecord, result: ReviewResult): Promise<PublishReceipt> {
      if (!SHOWN.has(result.status)) return {};
      if (opts.isLatest && !(await opts.isLatest(review))) return {};
      const log = opts.log.child({ reviewId: review.id, pr: review.pr, headSha: review.headSha });
      const { owner, repo } = splitRepo(review.repo);
      const octokit =
        opts.auth.mode === "app" && review.installationId === undefined
          ? await opts.auth.forRepo(owner, repo)
          : await opts.auth.forInstallation(review.installationId);
      const body = prCommentBody(review, result, await opts.deciders(review, result), opts.personName);
      try {
        const author = await authorFor(octokit);
        await writeComment(octokit, { owner, repo, issue_number: review.number }, body, { author, log, retry });
      } catch (error) {
        if (!lacksPermission(error)) throw error;
        log.warn(
          { err: error },
          "no PR summary comment: the GitHub App (or token) lacks Pull requests: Read & write (grant it, or set GATE_PR_COMMENT=off)",
        );
      }
      return {};
    },
  };
}
