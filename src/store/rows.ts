import type { PendingDecision } from "../domain/store/decision-log.js";
import type { ReviewResult, ReviewStatus } from "../domain/review-result.js";
import type { ResumeValue, ReviewRecord } from "../domain/review.js";

/** A `gate_reviews` row as both databases return it (PostgreSQL's BIGINT columns made numbers first). */
export interface ReviewRow {
  id: string;
  pr: string;
  repo: string;
  number: number;
  head_sha: string;
  title: string;
  url: string;
  author: string;
  source: ReviewRecord["source"];
  source_json: string;
  status: ReviewStatus;
  created_at: string;
  updated_at: string;
  slack_channel: string | null;
  slack_ts: string | null;
  check_run_id: number | null;
  superseded_by: string | null;
  installation_id: number | null;
  result_json: string | null;
  /** 1 once the saved result was published (saving a different result sets it back to 0). */
  result_published: number;
  event_at: string | null;
  slack_post_started_at: string | null;
  slack_thread_ts: string | null;
}

/** A `gate_reviews` row as the port's record. */
export function toRecord(r: ReviewRow): ReviewRecord {
  return {
    id: r.id,
    pr: r.pr,
    repo: r.repo,
    number: r.number,
    headSha: r.head_sha,
    title: r.title,
    url: r.url,
    author: r.author,
    status: r.status,
    source: r.source,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    ...(r.slack_channel ? { slackChannel: r.slack_channel } : {}),
    ...(r.slack_ts ? { slackTs: r.slack_ts } : {}),
    ...(r.check_run_id !== null ? { checkRunId: r.check_run_id } : {}),
    ...(r.superseded_by ? { supersededBy: r.superseded_by } : {}),
    ...(r.installation_id !== null ? { installationId: r.installation_id } : {}),
    ...(r.event_at ? { eventAt: r.event_at } : {}),
    ...(r.slack_post_started_at ? { slackPostStartedAt: r.slack_post_started_at } : {}),
    ...(r.slack_thread_ts ? { slackThreadTs: r.slack_thread_ts } : {}),
  };
}

/**
 * A review whose saved result was not published. Said exactly as the partial index
 * `gate_reviews_unpublished` (migration 5 in either database) says it: a database uses that index
 * only for a query whose condition is the index's own, so the list reads only such reviews.
 */
export const UNPUBLISHED = "result_json IS NOT NULL AND result_published = 0";

/** A review still queued or running: the only kind whose saved result a queued or running one may replace. */
export const STILL_IN_PROGRESS = "status IN ('queued', 'running')";

/** A result that announces a review rather than concludes it. */
export const inProgress = (result: ReviewResult): boolean => result.status === "queued" || result.status === "running";

/** A `gate_decisions` row as a pending decision is read from it. */
export interface DecisionRow {
  review_id: string;
  resume_json: string;
  door: string;
}

/** The pending decisions, in the order they were received (`AND review_id = …` narrows it to one review). */
export const PENDING_DECISIONS = "SELECT review_id, resume_json, door FROM gate_decisions WHERE applied_at IS NULL";

/**
 * A pending decision row as the port's.
 *
 * @example fromDecisionRow({ review_id: "r-1", resume_json: '{"kind":"approve","by":"alice"}', door: "slack" })
 */
export function fromDecisionRow(r: DecisionRow): PendingDecision {
  return { reviewId: r.review_id, resume: JSON.parse(r.resume_json) as ResumeValue, door: r.door };
}
