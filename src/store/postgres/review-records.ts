import type { ReviewSource } from "../../domain/review-source.js";
import type { ReviewResult } from "../../domain/review-result.js";
import type { ReviewRecords } from "../../domain/store/review-records.js";
import { inProgress, STILL_IN_PROGRESS, UNPUBLISHED } from "../rows.js";
import { fromPg, type PgConnection, type PgReviewRow } from "./connection.js";

/**
 * The review records on PostgreSQL (`gate_reviews`).
 *
 * @example await pgReviewRecords(connection).get("r-1");
 */
export function pgReviewRecords(c: PgConnection): ReviewRecords {
  return {
    async register(input) {
      const now = c.now();
      const [row] = await c.rows<PgReviewRow>(
        `INSERT INTO gate_reviews (id, pr, repo, number, head_sha, title, url, author, source, source_json, status,
           created_at, updated_at, installation_id, event_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'queued', $11, $11, $12, $13) RETURNING *`,
        [
          input.id,
          input.pr,
          input.repo,
          input.number,
          input.headSha,
          input.title ?? "",
          input.url ?? "",
          input.author ?? "",
          input.source.kind,
          JSON.stringify(input.source),
          now,
          input.installationId ?? null,
          input.eventAt ?? null,
        ],
      );
      if (!row) throw new Error(`registering review ${input.id} returned no row`);
      return fromPg(row);
    },
    get: async (id) => (await c.reviews("WHERE id = $1", [id]))[0],
    async source(id) {
      const [row] = await c.rows<{ source_json: string }>("SELECT source_json FROM gate_reviews WHERE id = $1", [id]);
      return row ? (JSON.parse(row.source_json) as ReviewSource) : undefined;
    },
    latestForPr: async (pr) => (await c.reviews("WHERE pr = $1 ORDER BY created_at DESC, seq DESC LIMIT 1", [pr]))[0],
    allForPr: (pr) => c.reviews("WHERE pr = $1 ORDER BY created_at DESC, seq DESC", [pr]),
    openForPr: (pr) =>
      c.reviews("WHERE pr = $1 AND status IN ('queued','running','waiting_for_human') ORDER BY created_at, seq", [pr]),
    withStatus: (...statuses) => c.reviews("WHERE status = ANY($1) ORDER BY created_at, seq", [statuses]),
    async setStatus(id, status) {
      await c.changed("UPDATE gate_reviews SET status = $1, updated_at = $2 WHERE id = $3", [status, c.now(), id]);
    },
    async setStatusUnlessSuperseded(id, status) {
      const n = await c.changed(
        "UPDATE gate_reviews SET status = $1, updated_at = $2, result_published = 0 WHERE id = $3 AND status NOT IN ('superseded', 'closed', 'merged_unapproved')",
        [status, c.now(), id],
      );
      return n === 1;
    },
    async claim(id, from, to) {
      const n = await c.changed("UPDATE gate_reviews SET status = $1, updated_at = $2 WHERE id = $3 AND status = $4", [
        to,
        c.now(),
        id,
        from,
      ]);
      return n === 1;
    },
    async close(id) {
      await c.changed("UPDATE gate_reviews SET status = 'closed', updated_at = $1 WHERE id = $2", [c.now(), id]);
    },
    async supersede(id, bySha) {
      await c.changed(
        "UPDATE gate_reviews SET status = 'superseded', superseded_by = $1, updated_at = $2 WHERE id = $3",
        [bySha, c.now(), id],
      );
    },
    async saveResult(id, result) {
      // Saving the result already published keeps it published; any other is not published yet.
      const n = await c.changed(
        `UPDATE gate_reviews SET result_published = CASE WHEN result_json = $1 THEN result_published ELSE 0 END,
           result_json = $1, updated_at = $2 WHERE id = $3${inProgress(result) ? ` AND ${STILL_IN_PROGRESS}` : ""}`,
        [JSON.stringify(result), c.now(), id],
      );
      return n === 1;
    },
    async lastResult(id) {
      const [row] = await c.rows<{ result_json: string | null }>("SELECT result_json FROM gate_reviews WHERE id = $1", [
        id,
      ]);
      return row?.result_json ? (JSON.parse(row.result_json) as ReviewResult) : undefined;
    },
    async recordReceipt(id, receipt) {
      await c.changed(
        `UPDATE gate_reviews SET
           slack_channel = COALESCE($2, slack_channel),
           slack_ts = COALESCE($3, slack_ts),
           slack_thread_ts = COALESCE($4, slack_thread_ts),
           check_run_id = COALESCE($5, check_run_id)
         WHERE id = $1`,
        [
          id,
          receipt.slackChannel ?? null,
          receipt.slackTs ?? null,
          receipt.slackThreadTs ?? null,
          receipt.checkRunId ?? null,
        ],
      );
    },
    async markPublished(id, result) {
      // Published is the last publish's result: a stale one published over the saved result (a
      // publish that lost its lock) leaves the saved one unpublished, so it is published again.
      await c.changed(
        "UPDATE gate_reviews SET result_published = CASE WHEN result_json = $1 THEN 1 ELSE 0 END WHERE id = $2",
        [JSON.stringify(result), id],
      );
    },
    unpublished: (reviewId) =>
      reviewId === undefined
        ? c.reviews(`WHERE ${UNPUBLISHED} ORDER BY created_at, seq`, [])
        : c.reviews(`WHERE id = $1 AND ${UNPUBLISHED}`, [reviewId]),
  };
}
