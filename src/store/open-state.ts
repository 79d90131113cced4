import type Database from "better-sqlite3";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import pg from "pg";
import type { Logger } from "pino";
import type { Clock } from "../domain/clock.js";
import { GateError } from "../domain/errors.js";
import type { PullRequestStore } from "../domain/pull-request-loader.js";
import type { ReviewStore } from "../domain/review-store.js";
import { openDatabase } from "./database.js";
import { migratePostgres } from "./postgres/migrate.js";
import { pgPullRequestRows, prunePgCheckpoints } from "./postgres/pull-requests.js";
import { PgReviewStore } from "./postgres/review-store.js";
import { GzipPullRequestStore, pruneCheckpoints, sqlitePullRequestRows } from "./pull-request-store.js";
import { SqliteReviewStore } from "./review-store.js";

/** Where the gate's state lives: a SQLite file (one process), or PostgreSQL (several replicas). */
export type DatabaseSetting = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };

/**
 * The gate's whole state on one database: the review store, the pull requests, the graph's
 * checkpointer, pruning of a settled review's checkpoints, and closing it all.
 */
export type OpenState = StateParts &
  (
    | { kind: "sqlite" /** The file's one connection. */; db: Database.Database }
    | { kind: "postgres" /** The process's one pool, shared by the store and the checkpointer. */; pool: pg.Pool }
  );

interface StateParts {
  store: ReviewStore;
  pullRequests: PullRequestStore;
  checkpointer: BaseCheckpointSaver;
  /** Deletes every checkpoint of a settled review's thread but the newest; returns the rows removed. */
  pruneCheckpoints(threadId: string): Promise<number>;
  /** Runs one query without parameters, in SQL both databases read alike (tests and tools count rows with it). */
  query<Row>(sql: string): Promise<Row[]>;
  close(): Promise<void>;
}

/**
 * The database setting as a person may read it: the file, or the URL without its password.
 *
 * @example describeDatabase({ kind: "postgres", url: "postgres://gate:pw@db/gate" }) // "postgres://gate:***@db/gate"
 */
export function describeDatabase(database: DatabaseSetting): string {
  if (database.kind === "sqlite") return database.path;
  const url = new URL(database.url);
  if (url.password) url.password = "***";
  return url.toString();
}

/**
 * Opens (creating and migrating) the state on the configured database. PostgreSQL: one pool,
 * the gate's migrations and the checkpointer's setup under one advisory lock; a server that
 * cannot be reached fails with CONFIG_INVALID naming GATE_DATABASE_URL.
 *
 * @example const state = await openState({ kind: "sqlite", path: ".gate/gate.db" }, systemClock);
 */
export async function openState(database: DatabaseSetting, clock: Clock, log?: Logger): Promise<OpenState> {
  if (database.kind === "sqlite") return sqliteState(openDatabase(database.path), clock);
  return postgresState(database.url, clock, log);
}

function sqliteState(db: Database.Database, clock: Clock): OpenState {
  return {
    kind: "sqlite",
    db,
    store: new SqliteReviewStore(db, clock),
    pullRequests: new GzipPullRequestStore(sqlitePullRequestRows(db)),
    checkpointer: new SqliteSaver(db),
    pruneCheckpoints: async (threadId) => pruneCheckpoints(db, threadId),
    query: async <Row>(sql: string) => db.prepare(sql).all() as Row[],
    close: async () => {
      db.close();
    },
  };
}

async function postgresState(url: string, clock: Clock, log?: Logger): Promise<OpenState> {
  const pool = new pg.Pool({ connectionString: url });
  // An idle client the server dropped (a restart, a failover) is reported here, not thrown.
  pool.on("error", (error) => log?.warn({ err: error }, "a PostgreSQL connection failed"));
  const checkpointer = new PostgresSaver(pool);
  const where = `GATE_DATABASE_URL ${describeDatabase({ kind: "postgres", url })}`;
  try {
    await migratePostgres(pool, where, () => checkpointer.setup());
  } catch (error) {
    await pool.end();
    if (error instanceof GateError) throw error;
    throw new GateError("CONFIG_INVALID", `${where}: cannot open it as the gate's database (${describeCause(error)})`, {
      cause: error,
    });
  }
  return {
    kind: "postgres",
    pool,
    store: new PgReviewStore(pool, clock),
    pullRequests: new GzipPullRequestStore(pgPullRequestRows(pool)),
    checkpointer,
    pruneCheckpoints: (threadId) => prunePgCheckpoints(pool, threadId),
    query: async <Row>(sql: string) => (await pool.query(sql)).rows as Row[],
    close: () => pool.end(),
  };
}

/** pg's connection errors are sometimes an AggregateError with an empty message. */
function describeCause(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map(describeCause).join("; ");
  return error instanceof Error ? error.message || error.name : String(error);
}
