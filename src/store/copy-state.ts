import type Database from "better-sqlite3";
import type { BaseCheckpointSaver, CheckpointTuple, PendingWrite } from "@langchain/langgraph-checkpoint";
import type pg from "pg";
import { GateError } from "../domain/errors.js";

/**
 * The gate's own tables, in the order they are copied, with the order their rows keep. A table a
 * later migration adds belongs here too (a test compares this list with a fresh file's tables).
 */
export const COPIED_TABLES = [
  { name: "gate_reviews", order: "created_at, rowid" },
  { name: "gate_deliveries", order: "received_at, rowid" },
  { name: "gate_audit", order: "seq", serial: "seq" },
  { name: "gate_audit_heads", order: "rowid" },
  { name: "gate_decisions", order: "seq", serial: "seq" },
  { name: "gate_pull_requests", order: "rowid" },
  { name: "gate_slack_notes", order: "rowid" },
  { name: "gate_people", order: "rowid" },
  { name: "gate_license_cache", order: "rowid" },
  { name: "gate_configs", order: "rowid" },
  { name: "gate_inbox", order: "rowid" },
  { name: "gate_changes", order: "merged_at, key" },
  { name: "gate_auditors", order: "name" },
] as const;

/** What a copy moved: rows per table, and the checkpoints of each review's thread. */
export interface CopyReport {
  rows: Record<string, number>;
  threads: number;
  checkpoints: number;
}

/**
 * Copies a SQLite installation into an empty PostgreSQL database whose schema is in place (open
 * it with `openState` first): every row of the gate's tables in one transaction (the audit log
 * and the decisions keep their sequence numbers), then each review's checkpoints through the
 * checkpointer API, oldest first, with their pending writes. A target that holds any review,
 * delivery, audit entry or checkpoint is refused with DATABASE_NOT_EMPTY. Stop the gate first:
 * the copy reads the file as it is.
 *
 * @example await copySqliteToPostgres({ db, saver: new SqliteSaver(db) }, { pool, saver: pgState.checkpointer })
 */
export async function copySqliteToPostgres(
  source: { db: Database.Database; saver: BaseCheckpointSaver },
  target: { pool: pg.Pool; saver: BaseCheckpointSaver; where: string },
): Promise<CopyReport> {
  const { rows: held } = await target.pool.query<{ n: string }>(
    `SELECT (SELECT count(*) FROM gate_reviews) + (SELECT count(*) FROM gate_deliveries)
          + (SELECT count(*) FROM gate_audit) + (SELECT count(*) FROM checkpoints) AS n`,
  );
  if (Number(held[0]?.n ?? 0) > 0) {
    throw new GateError(
      "DATABASE_NOT_EMPTY",
      `${target.where} already holds reviews, deliveries, audit entries or checkpoints`,
    );
  }
  const rows: Record<string, number> = {};
  const client = await target.pool.connect();
  try {
    await client.query("BEGIN");
    for (const table of COPIED_TABLES) rows[table.name] = await copyTable(source.db, client, table);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
  const ids = source.db.prepare("SELECT id FROM gate_reviews ORDER BY created_at, rowid").all() as Array<{
    id: string;
  }>;
  let checkpoints = 0;
  for (const { id } of ids) checkpoints += await copyThread(source.saver, target.saver, id);
  return { rows, threads: ids.length, checkpoints };
}

async function copyTable(
  db: Database.Database,
  client: pg.PoolClient,
  table: { name: string; order: string; serial?: string },
): Promise<number> {
  const rows = db.prepare(`SELECT * FROM ${table.name} ORDER BY ${table.order}`).all() as Array<
    Record<string, unknown>
  >;
  for (const row of rows) {
    const columns = Object.keys(row);
    await client.query(
      `INSERT INTO ${table.name} (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
      columns.map((c) => row[c]),
    );
  }
  // Rows inserted with their own sequence numbers: the next one follows them.
  if (table.serial && rows.length > 0) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence('${table.name}', '${table.serial}'), (SELECT max(${table.serial}) FROM ${table.name}))`,
    );
  }
  return rows.length;
}

/** One thread's checkpoints, oldest first, each with its parent and its pending writes. */
async function copyThread(from: BaseCheckpointSaver, to: BaseCheckpointSaver, threadId: string): Promise<number> {
  const tuples: CheckpointTuple[] = [];
  for await (const tuple of from.list({ configurable: { thread_id: threadId } })) tuples.push(tuple);
  for (const tuple of tuples.reverse()) {
    const ns = (tuple.config.configurable?.checkpoint_ns as string | undefined) ?? "";
    const parent = tuple.parentConfig?.configurable?.checkpoint_id as string | undefined;
    const saved = await to.put(
      { configurable: { thread_id: threadId, checkpoint_ns: ns, ...(parent ? { checkpoint_id: parent } : {}) } },
      tuple.checkpoint,
      tuple.metadata ?? { source: "update", step: -1, parents: {} },
      tuple.checkpoint.channel_versions,
    );
    const byTask = new Map<string, PendingWrite[]>();
    for (const [taskId, channel, value] of tuple.pendingWrites ?? []) {
      byTask.set(taskId, [...(byTask.get(taskId) ?? []), [channel, value]]);
    }
    for (const [taskId, writes] of byTask) await to.putWrites(saved, writes, taskId);
  }
  return tuples.length;
}
