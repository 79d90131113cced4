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
   * Attempts at creating the check run, and the backoff unit between them (attempt n waits n²
   * units); every other request is retried by the client alone. Defaults: 3 attempts, 1000 ms.
   */
  retry?: { attempts?: number; baseMs?: number };
}

export function splitRepo(repo: string): { owner: string; repo: string } {
  const [owner, name, ...rest] = repo.split("/");
  if (!owner || !name || rest.length > 0) throw new Error(`review repo "${repo}" is not owner/name`);
  return { owner, repo: name };
}

export function statusOf(error: unknown): number | undefined {
  return typeof error === "object" && error !== null && "status" in error && typeof error.status === "number"
    ? error.status
    : undefined;
}

function isNotFound(error: unknown): boolean {
  return statusOf(error) === 404;
}

/** A failure worth another attempt: GitHub's side (5xx), too many requests, or no answer at all. */
export function isTransient(error: unknown): boolean {
  const status = statusOf(error);
  return status === undefined || status >= 500 || status === 429 || status === 408;
}

/** Waits attempt² backoff units before the next attempt at a create. */
export function backoff(attempt: number, baseMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, baseMs * attempt * attempt));
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
  const ids = runs.filter((r) => r.external_id === payload.external_id).map((r) => r.id);
  // The review's run is the first one made for it (see `retireIfLater`).
  return ids.length === 0 ? undefined : Math.min(...ids);
}

/**
 * GitHub has no "create unless one exists": two replicas that both lost their shared publish lock
 * (its connection ended midway) can each create a run for one review. The first one made (the
 * lowest id) is the review's; a later one, seeing it, retires itself (renamed, completed neutral,
 * pointing at the review's run) so that branch protection sees one run under the check's name.
 * True when `created` was retired.
 */
async function retireIfLater(
  octokit: Octokit,
  where: { owner: string; repo: string },
  payload: CheckRunPayload,
  created: number,
  log: Logger,
): Promise<boolean> {
  const first = await existingCheckRun(octokit, where, payload);
  if (first === undefined || first >= created) return false;
  await octokit.rest.checks.update({
    ...where,
    check_run_id: created,
    name: `${payload.name} (duplicate)`,
    status: "completed",
    conclusion: "neutral",
    output: {
      title: "Duplicate",
      summary: `Check run ${first} shows this review; this one was made twice by mistake.`,
    },
    actions: [],
  });
  log.warn({ checkRunId: created, keptCheckRunId: first }, "a second check run was made for the review: retired");
  return true;
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
    // Always sent: an empty list takes the buttons of a decided review away.
    actions: payload.actions,
  };
}

/**
 * The run to update: the recorded one, or one found by head, name and review id (a recorded run
 * that is gone is looked up again), with the annotations it does not have yet; undefined when
 * there is none.
 */
async function runToUpdate(
  octokit: Octokit,
  where: { owner: string; repo: string },
  review: ReviewRecord,
  payload: CheckRunPayload,
  log: Logger,
): Promise<{ id: number; pending: CheckAnnotation[] } | undefined> {
  const id = review.checkRunId ?? (await existingCheckRun(octokit, where, payload));
  if (id === undefined) return undefined;
  try {
    return { id, pending: await missingAnnotations(octokit, where, id, payload.annotations) };
  } catch (error) {
    if (!isNotFound(error)) throw error;
    log.warn({ checkRunId: id }, "the recorded check run is gone; creating a new one");
    const found = await existingCheckRun(octokit, where, payload);
    return found === undefined ? undefined : { id: found, pending: payload.annotations };
  }
}

/** Sends the first batch of annotations with the run's fields (`id`: update; none: create), then the rest. */
async function writeRun(
  octokit: Octokit,
  where: { owner: string; repo: string },
  payload: CheckRunPayload,
  run: { id?: number; pending: CheckAnnotation[] },
  log: Logger,
): Promise<number> {
  const [first = [], ...rest] = annotationBatches(run.pending);
  const output = { ...payload.output, annotations: first };
  let checkRunId = run.id;
  if (checkRunId === undefined) {
    // Never retried by the client: a create whose answer is lost is looked up again before the next attempt.
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
 * Creates or updates the review's check run. Every request is retried by the client (Octokit's
 * retry plugin); the create alone is not (it could make a second run), so a create that fails on
 * GitHub's side is tried again here, after looking the run up again: one retry layer per request.
 */
async function publishCheckRun(
  octokit: Octokit,
  review: ReviewRecord,
  payload: CheckRunPayload,
  log: Logger,
  retry: { attempts: number; baseMs: number },
): Promise<number> {
  const where = splitRepo(review.repo);
  for (let attempt = 1; ; attempt += 1) {
    const existing = await runToUpdate(octokit, where, review, payload, log);
    if (existing) return writeRun(octokit, where, payload, existing, log);
    try {
      const created = await writeRun(octokit, where, payload, { pending: payload.annotations }, log);
      // A run another replica made first is updated on the next turn instead.
      if (!(await retireIfLater(octokit, where, payload, created, log))) return created;
    } catch (error) {
      if (attempt >= retry.attempts || !isTransient(error)) throw error;
      log.warn({ err: error, attempt }, "creating the check run failed; looking it up and trying again");
      await backoff(attempt, retry.baseMs);
    }
  }
}

/**
 * Publishes a review to GitHub: a `compliance-gate` check run (App mode; created once, then
 * updated, annotations in batches of 50) or a commit status (token mode). Idempotent: a check run
 * is looked up (by head, name and the review id as external id) before one is created. Requests
 * are retried by the client; a create (which the client must not repeat) by `publishCheckRun`.
 *
 * @example const check = createCheckPublisher({ auth, log }); await check.publish(review, result);
 */
export function createCheckPublisher(opts: CheckPublisherOptions): Publisher {
  const attempts = opts.retry?.attempts ?? 3;
  const baseMs = opts.retry?.baseMs ?? 1000;
  return {
    name: "github-check",
    publish(review: ReviewRecord, result: ReviewResult): Promise<PublishReceipt> {
      const log = opts.log.child({ reviewId: review.id, pr: review.pr, headSha: review.headSha });
      return publishOnce(opts, review, result, log, { attempts, baseMs });
    },
  };
}

async function publishOnce(
  opts: CheckPublisherOptions,
  review: ReviewRecord,
  result: ReviewResult,
  log: Logger,
  retry: { attempts: number; baseMs: number },
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
  const checkRunId = await publishCheckRun(octokit, review, buildCheckRun(result, verdictOpts), log, retry);
  return { checkRunId };
}
