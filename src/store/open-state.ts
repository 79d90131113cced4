import type Database from "better-sqlite3";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type { Clock } from "../domain/clock.js";
import type { PullRequestStore } from "../domain/pull-request-loader.js";
import type { ReviewStore } from "../domain/review-store.js";
import { openDatabase } from "./database.js";
import { pruneCheckpoints, SqlitePullRequestStore } from "./pull-request-store.js";
import { SqliteReviewStore } from "./review-store.js";

/** Where the gate's state lives: a SQLite file (one process), or PostgreSQL (several replicas). */
export type DatabaseSetting = { kind: "sqlite"; path: string };

/**
 * The gate's whole state on one database: the review store, the pull requests, the graph's
 * checkpointer, pruning of a settled review's checkpoints, and closing it all.
 */
export type OpenState = StateParts & { kind: "sqlite" /** The file's one connection. */; db: Database.Database };

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
 * Opens (creating and migrating) the state on the configured database.
 *
 * @example const state = await openState({ kind: "sqlite", path: ".gate/gate.db" }, systemClock);
 */
export async function openState(database: DatabaseSetting, clock: Clock): Promise<OpenState> {
  return sqliteState(openDatabase(database.path), clock);
}

function sqliteState(db: Database.Database, clock: Clock): OpenState {
  return {
    kind: "sqlite",
    db,
    store: new SqliteReviewStore(db, clock),
    pullRequests: new SqlitePullRequestStore(db),
    checkpointer: new SqliteSaver(db),
    pruneCheckpoints: async (threadId) => pruneCheckpoints(db, threadId),
    query: async <Row>(sql: string) => db.prepare(sql).all() as Row[],
    close: async () => {
      db.close();
    },
  };
}
