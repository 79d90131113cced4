import type { ReviewSource } from "../../domain/review-source.js";
import type { ReviewResult, ReviewStatus } from "../../domain/review-result.js";
import type { ReviewRecords } from "../../domain/store/review-records.js";
import type { ReviewRecord } from "../../domain/review.js";
import { inProgress, type ReviewRow, STILL_IN_PROGRESS, toRecord, UNPUBLISHED } from "../rows.js";
import type { SqliteConnection } from "./connection.js";

/**
 * The review records on SQLite (`gate_reviews`).
 *
 * @example const records = sqliteReviewRecords(connection); await records.get("r-1");
 */
export function sqliteReviewRecords(c: SqliteConnection): ReviewRecords {
  const one = async (text: string, ...params: unknown[]): Promise<ReviewRecord | undefined> => {
    await c.ready();
    const row = c.sql(text).get(...params) as ReviewRow | undefined;
    return row ? toRecord(row) : undefined;
  };
  const all = async (text: string, ...params: unknown[]): Promise<ReviewRecord[]> => {
    await c.ready();
    return (c.sql(text).all(...params) as ReviewRow[]).map(toRecord);
  };
  const changed = async (text: string, ...params: unknown[]): Promise<number> => {
    await c.ready();
    return c.sql(text).run(...params).changes;
  };
  return {
    async register(input) {
      await c.ready();
      const now = c.now();
      const row = c
        .sql(
          `INSERT INTO gate_reviews (id, pr, repo, number, head_sha, title, url, author, source, source_json, status,
             created_at, updated_at, installation_id, event_at)
           VALUES (@id, @pr, @repo, @number, @headSha, @title, @url, @author, @kind, @sourceJson, 'queued', @now, @now, @inst, @eventAt)
           RETURNING *`,
        )
        .get({
          id: input.id,
          pr: input.pr,
          repo: input.repo,
          number: input.number,
          headSha: input.headSha,
          title: input.title ?? "",
          url: input.url ?? "",
          author: input.author ?? "",
          kind: input.source.kind,
          sourceJson: JSON.stringify(input.source),
          now,
          inst: input.installationId ?? null,
          eventAt: input.eventAt ?? null,
        }) as ReviewRow;
      return toRecord(row);
    },
    get: (id) => one(`SELECT * FROM gate_reviews WHERE id = ?`, id),
    async source(id) {
      await c.ready();
      const row = c.sql(`SELECT source_json FROM gate_reviews WHERE id = ?`).get(id) as
        | { source_json: string }
        | undefined;
      return row ? (JSON.parse(row.source_json) as ReviewSource) : undefined;
    },
    latestForPr: (pr) =>
      one(`SELECT * FROM gate_reviews WHERE pr = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`, pr),
    allForPr: (pr) => all(`SELECT * FROM gate_reviews WHERE pr = ? ORDER BY created_at DESC, rowid DESC`, pr),
    openForPr: (pr) =>
      all(
        `SELECT * FROM gate_reviews WHERE pr = ? AND status IN ('queued','running','waiting_for_human')
           ORDER BY created_at, rowid`,
        pr,
      ),
    withStatus: (...statuses: ReviewStatus[]) =>
      all(
        `SELECT * FROM gate_reviews WHERE status IN (${statuses.map(() => "?").join(",")}) ORDER BY created_at, rowid`,
        ...statuses,
      ),
    async setStatus(id, status) {
      await changed(`UPDATE gate_reviews SET status = ?, updated_at = ? WHERE id = ?`, status, c.now(), id);
    },
    async setStatusUnlessSuperseded(id, status) {
      const n = await changed(
        `UPDATE gate_reviews SET status = ?, updated_at = ?, result_published = 0 WHERE id = ? AND status NOT IN ('superseded', 'closed', 'merged_unapproved')`,
        status,
        c.now(),
        id,
      );
      return n === 1;
    },
    async claim(id, from, to) {
      const n = await changed(
        `UPDATE gate_reviews SET status = ?, updated_at = ? WHERE id = ? AND status = ?`,
        to,
        c.now(),
        id,
        from,
      );
      return n === 1;
    },
    async close(id) {
      await changed(`UPDATE gate_reviews SET status = 'closed', updated_at = ? WHERE id = ?`, c.now(), id);
    },
    async supersede(id, bySha) {
      await changed(
        `UPDATE gate_reviews SET status = 'superseded', superseded_by = ?, updated_at = ? WHERE id = ?`,
        bySha,
        c.now(),
        id,
      );
    },
    async saveResult(id, result) {
      const n = await changed(
        // Saving the result already published keeps it published; any other is not published yet.
        `UPDATE gate_reviews SET result_published = CASE WHEN result_json = @json THEN result_published ELSE 0 END,
           result_json = @json, updated_at = @now WHERE id = @id${inProgress(result) ? ` AND ${STILL_IN_PROGRESS}` : ""}`,
        { json: JSON.stringify(result), now: c.now(), id },
      );
      return n === 1;
    },
    async lastResult(id) {
      await c.ready();
      const row = c.sql(`SELECT result_json FROM gate_reviews WHERE id = ?`).get(id) as
        | { result_json: string | null }
        | undefined;
      return row?.result_json ? (JSON.parse(row.result_json) as ReviewResult) : undefined;
    },
    async recordReceipt(id, receipt) {
      await c.ready();
      c.sql(
        `UPDATE gate_reviews SET
             slack_channel = COALESCE(@slackChannel, slack_channel),
             slack_ts = COALESCE(@slackTs, slack_ts),
             slack_thread_ts = COALESCE(@slackThreadTs, slack_thread_ts),
             check_run_id = COALESCE(@checkRunId, check_run_id)
           WHERE id = @id`,
      ).run({
        id,
        slackChannel: receipt.slackChannel ?? null,
        slackTs: receipt.slackTs ?? null,
        slackThreadTs: receipt.slackThreadTs ?? null,
        checkRunId: receipt.checkRunId ?? null,
      });
    },
    async markPublished(id, result) {
      // Published is the last publish's result: a stale one published over the saved result (a
      // publish that lost its lock) leaves the saved one unpublished, so it is published again.
      await changed(
        `UPDATE gate_reviews SET result_published = CASE WHEN result_json = ? THEN 1 ELSE 0 END WHERE id = ?`,
        JSON.stringify(result),
        id,
      );
    },
    unpublished: (reviewId) =>
      reviewId === undefined
        ? all(`SELECT * FROM gate_reviews WHERE ${UNPUBLISHED} ORDER BY created_at, rowid`)
        : all(`SELECT * FROM gate_reviews WHERE id = ? AND ${UNPUBLISHED}`, reviewId),
  };
}
