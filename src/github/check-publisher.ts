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
}

function splitRepo(repo: string): { owner: string; repo: string } {
  const [owner, name, ...rest] = repo.split("/");
  if (!owner || !name || rest.length > 0) throw new Error(`review repo "${repo}" is not owner/name`);
  return { owner, repo: name };
}

function isNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && "status" in error && error.status === 404;
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
  let checkRunId = review.checkRunId;
  let pending = payload.annotations;
  if (checkRunId !== undefined) {
    try {
      pending = await missingAnnotations(octokit, where, checkRunId, payload.annotations);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      log.warn({ checkRunId }, "the recorded check run is gone; creating a new one");
      checkRunId = undefined;
    }
  }
  const [first = [], ...rest] = annotationBatches(pending);
  const output = { ...payload.output, annotations: first };
  if (checkRunId === undefined) {
    const created = await octokit.rest.checks.create({ ...where, head_sha: payload.head_sha, ...runFields(payload), output });
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
 * updated, annotations in batches of 50) or a commit status (token mode). Idempotent.
 *
 * @example runner.addPublisher(createCheckPublisher({ auth, log }));
 */
export function createCheckPublisher(opts: CheckPublisherOptions): Publisher {
  return {
    name: "github-check",
    async publish(review: ReviewRecord, result: ReviewResult): Promise<PublishReceipt> {
      const log = opts.log.child({ reviewId: review.id, pr: review.pr, headSha: review.headSha });
      const detailsUrl = opts.detailsUrl?.(review);
      const askedWho = opts.askedWho?.(review);
      const verdictOpts: VerdictOptions = {
        headSha: review.headSha,
        ...(detailsUrl ? { detailsUrl } : {}),
        ...(askedWho ? { askedWho } : {}),
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
    },
  };
}
