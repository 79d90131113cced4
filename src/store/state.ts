import type Database from "better-sqlite3";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type pg from "pg";
import type { PullRequestStore } from "../domain/pull-request-loader.js";
import type { ReviewStore } from "../domain/review-store.js";

/** Where the gate's state lives: a SQLite file (one process), or PostgreSQL (several replicas). */
export type DatabaseSetting = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };

/**
 * The gate's whole state on one database: the review store, the pull requests, the graph's
 * checkpointer, pruning of a settled review's checkpoints, and closing it all.
 */
export type OpenState = StateParts & (SqliteParts | PostgresParts);

interface SqliteParts {
  kind: "sqlite";
  /** The file's one connection. */
  db: Database.Database;
}

interface PostgresParts {
  kind: "postgres";
  /** The process's one pool, shared by the store and the checkpointer. */
  pool: pg.Pool;
}

interface StateParts {
  store: ReviewStore;
  pullRequests: PullRequestStore;
  checkpointer: BaseCheckpointSaver;
  /** Deletes every checkpoint of a settled review's thread but the newest; returns the rows removed. */
  pruneCheckpoints(threadId: string): Promise<number>;
  /** Runs one query without parameters, in SQL both databases read alike (tests and tools count rows with it). */
  query<Row>(sql: string): Promise<Row[]>;
  /**
   * Resolves when the database answers a statement now; rejects with what is wrong (`/healthz`).
   * PostgreSQL asks on a connection of its own, so a busy pool does not make the gate look down.
   */
  health(): Promise<void>;
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
