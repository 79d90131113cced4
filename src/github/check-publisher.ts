import type { Octokit } from "@octokit/rest";
import type { Logger } from "pino";
import type { ReviewResult } from "../domain/review-result.js";
import type { PublishReceipt, Publisher, ReviewRecord } from "../domain/review.js";
import type { GitHubAuth } from "./client.js";
import {
  annotationBatches,
  buildCheckRun,
  buildCommitStatus,
  type CheckAnnotation,
  type CheckRunPayload,
  type VerdictOptions,
} from "./check-run.js";

export interface CheckPublisherOptions {
  auth: GitHubAuth;
  log: Logger;
  /** A link for the check's "Details" (e.g. the Slack message); none by default. */
  detailsUrl?: (review: ReviewRecord) => string | undefined;
  /** Who a waiting review waits for, for the check's title. */
  askedWho?: (review: ReviewRecord) => string | undefined;
  /** A decider's name for their id (Slack display name, GitHub login). */
  personName?: (id: string) => string | undefined;
  /**
   * Attempts at one publish, and the backoff unit between them (attempt n waits n² units), on
   * top of the client's own retries of each request. Defaults: 3 attempts, 1000 ms.
   */
  retry?: { attempts?: number; baseMs?: number };
}

function splitRepo(repo: string): { owner: string; repo: string } {
  const [owner, name, ...rest] = repo.split("/");
  if (!owner || !name || rest.length > 0) throw new Error(`review repo "${repo}" is not owner/name`);
  return { owner, repo: name };
}

function statusOf(error: unknown): number | undefined {
  return typeof error === "object" && error !== null && "status" in error && typeof error.status === "number"
    ? error.status
    : undefined;
}

function isNotFound(error: unknown): boolean {
  return statusOf(error) === 404;
}

/** A failure worth another attempt: GitHub's side (5xx), too many requests, or no answer at all. */
function isTransient(error: unknown): boolean {
  const status = statusOf(error);
  return status === undefined || status >= 500 || status === 429 || status === 408;
}

/** Runs a publish, again after a transient failure, up to `attempts` times with quadratic backoff. */
async function withBackoff<T>(attempts: number, baseMs: number, log: Logger, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isTransient(error)) throw error;
      const waitMs = baseMs * attempt * attempt;
      log.warn({ err: error, attempt, waitMs }, "publishing to GitHub failed; trying again");
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

/**
 * The gate's check run for this review on this head, if one exists: a create whose answer was
 * lost (a 502 after GitHub did the work) must be found, not made twice.
 */
async function existingCheckRun(
  octokit: Octokit,
  where: { owner: string; repo: string },
  payload: CheckRunPayload,
): Promise<number | undefined> {
  const runs = await octokit.paginate(octokit.rest.checks.listForRef, {
    ...where,
    ref: payload.head_sha,
    check_name: payload.name,
    filter: "all",
    per_page: 100,
  });
  return runs.find((r) => r.external_id === payload.external_id)?.id;
}

function annotationKey(a: {
  path: string;
  start_line: number;
  annotation_level?: string | null;
  title?: string | null;
  message?: string | null;
}): string {
  return JSON.stringify([a.path, a.start_line, a.annotation_level ?? "", a.title ?? "", a.message ?? ""]);
}

/** GitHub appends annotations on every update: send only those the run does not have yet. */
async function missingAnnotations(
  octokit: Octokit,
  where: { owner: string; repo: string },
  checkRunId: number,
  wanted: CheckAnnotation[],
): Promise<CheckAnnotation[]> {
  if (wanted.length === 0) return wanted;
  const existing = await octokit.paginate(octokit.rest.checks.listAnnotations, {
    ...where,
    check_run_id: checkRunId,
    per_page: 100,
  });
  const have = new Set(existing.map(annotationKey));
  return wanted.filter((a) => !have.has(annotationKey(a)));
}

function runFields(payload: CheckRunPayload) {
  return {
    name: payload.name,
    status: payload.status,
    ...(payload.conclusion ? { conclusion: payload.conclusion } : {}),
    ...(payload.details_url ? { details_url: payload.details_url } : {}),
    external_id: payload.external_id,
  };
}

async function publishCheckRun(
  octokit: Octokit,
  review: ReviewRecord,
  payload: CheckRunPayload,
  log: Logger,
): Promise<number> {
  const where = splitRepo(review.repo);
  let checkRunId = review.checkRunId ?? (await existingCheckRun(octokit, where, payload));
  let pending = payload.annotations;
  if (checkRunId !== undefined) {
    try {
      pending = await missingAnnotations(octokit, where, checkRunId, payload.annotations);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      log.warn({ checkRunId }, "the recorded check run is gone; creating a new one");
      checkRunId = await existingCheckRun(octokit, where, payload);
    }
  }
  const [first = [], ...rest] = annotationBatches(pending);
  const output = { ...payload.output, annotations: first };
  if (checkRunId === undefined) {
    // Never retried as is: a create whose answer is lost is looked up again before the next attempt.
    const created = await octokit.rest.checks.create({
      ...where,
      head_sha: payload.head_sha,
      ...runFields(payload),
      output,
      request: { retries: 0 },
    });
    checkRunId = created.data.id;
    log.info({ checkRunId, annotations: first.length }, "check run created");
  } else {
    await octokit.rest.checks.update({ ...where, check_run_id: checkRunId, ...runFields(payload), output });
    log.info({ checkRunId, annotations: first.length }, "check run updated");
  }
  for (const batch of rest) {
    await octokit.rest.checks.update({
      ...where,
      check_run_id: checkRunId,
      output: { ...payload.output, annotations: batch },
    });
  }
  return checkRunId;
}

/**
 * Publishes a review to GitHub: a `compliance-gate` check run (App mode; created once, then
 * updated, annotations in batches of 50) or a commit status (token mode). Idempotent: a check run
 * is looked up (by head, name and the review id as external id) before one is created, and a
 * publish that fails on GitHub's side is tried again with backoff within the process.
 *
 * @example runner.addPublisher(createCheckPublisher({ auth, log }));
 */
export function createCheckPublisher(opts: CheckPublisherOptions): Publisher {
  const attempts = opts.retry?.attempts ?? 3;
  const baseMs = opts.retry?.baseMs ?? 1000;
  return {
    name: "github-check",
    publish(review: ReviewRecord, result: ReviewResult): Promise<PublishReceipt> {
      const log = opts.log.child({ reviewId: review.id, pr: review.pr, headSha: review.headSha });
      return withBackoff(attempts, baseMs, log, () => publishOnce(opts, review, result, log));
    },
  };
}

async function publishOnce(
  opts: CheckPublisherOptions,
  review: ReviewRecord,
  result: ReviewResult,
  log: Logger,
): Promise<PublishReceipt> {
  const detailsUrl = opts.detailsUrl?.(review);
  const askedWho = opts.askedWho?.(review);
  const verdictOpts: VerdictOptions = {
    headSha: review.headSha,
    ...(detailsUrl ? { detailsUrl } : {}),
    ...(askedWho ? { askedWho } : {}),
    ...(opts.personName ? { personName: opts.personName } : {}),
  };
  // A repository webhook names no installation; the App then looks its installation up.
  const octokit =
    opts.auth.mode === "app" && review.installationId === undefined
      ? await opts.auth.forRepo(splitRepo(review.repo).owner, splitRepo(review.repo).repo)
      : await opts.auth.forInstallation(review.installationId);
  if (opts.auth.mode === "token") {
    const status = buildCommitStatus(result, verdictOpts);
    await octokit.rest.repos.createCommitStatus({ ...splitRepo(review.repo), ...status });
    log.info({ state: status.state }, "commit status set");
    return {};
  }
  const checkRunId = await publishCheckRun(octokit, review, buildCheckRun(result, verdictOpts), log);
  return { checkRunId };
}
