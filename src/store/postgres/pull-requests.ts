import type pg from "pg";
import type { PullRequestRows } from "../pull-request-store.js";

/** `gate_pull_requests` in PostgreSQL. */
export function pgPullRequestRows(pool: pg.Pool): PullRequestRows {
  return {
    put: async (reviewId, gz) => {
      await pool.query(
        `INSERT INTO gate_pull_requests (review_id, json_gz) VALUES ($1, $2)
         ON CONFLICT (review_id) DO UPDATE SET json_gz = excluded.json_gz`,
        [reviewId, gz],
      );
    },
    get: async (reviewId) =>
      (await pool.query<{ json_gz: Buffer }>("SELECT json_gz FROM gate_pull_requests WHERE review_id = $1", [reviewId]))
        .rows[0]?.json_gz,
    delete: async (reviewId) => {
      await pool.query("DELETE FROM gate_pull_requests WHERE review_id = $1", [reviewId]);
    },
  };
}

/**
 * Deletes every checkpoint of a settled review's thread but the newest, with their pending
 * writes and the channel values only they referenced (PostgresSaver keeps each channel's
 * versions in `checkpoint_blobs`), in one transaction. Returns the rows removed.
 *
 * @example await prunePgCheckpoints(pool, "r-1") // 31
 */
export async function prunePgCheckpoints(pool: pg.Pool, threadId: string): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ checkpoint_id: string; versions: Record<string, string> | null }>(
      `SELECT checkpoint_id, checkpoint -> 'channel_versions' AS versions FROM checkpoints
       WHERE thread_id = $1 AND checkpoint_ns = '' ORDER BY checkpoint_id DESC LIMIT 1`,
      [threadId],
    );
    const latest = rows[0];
    if (!latest) {
      await client.query("COMMIT");
      return 0;
    }
    const writes = await client.query("DELETE FROM checkpoint_writes WHERE thread_id = $1 AND checkpoint_id <> $2", [
      threadId,
      latest.checkpoint_id,
    ]);
    const checkpoints = await client.query("DELETE FROM checkpoints WHERE thread_id = $1 AND checkpoint_id <> $2", [
      threadId,
      latest.checkpoint_id,
    ]);
    const kept = Object.entries(latest.versions ?? {});
    const blobs = await client.query(
      `DELETE FROM checkpoint_blobs b WHERE b.thread_id = $1 AND NOT EXISTS (
         SELECT 1 FROM unnest($2::text[], $3::text[]) AS k(channel, version)
         WHERE k.channel = b.channel AND k.version = b.version AND b.checkpoint_ns = '')`,
      [threadId, kept.map(([c]) => c), kept.map(([, v]) => String(v))],
    );
    await client.query("COMMIT");
    return (writes.rowCount ?? 0) + (checkpoints.rowCount ?? 0) + (blobs.rowCount ?? 0);
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}
