import type Database from "better-sqlite3";
import type { Logger } from "pino";
import type { Clock } from "../domain/clock.js";
import { openDatabase } from "./database.js";
import { GzipPullRequestStore, pruneCheckpoints, sqlitePullRequestRows } from "./pull-request-store.js";
import { sqliteStore } from "./sqlite/sqlite-store.js";
import { TurnTakingSqliteSaver } from "./sqlite/turn-taking-saver.js";
import type { DatabaseSetting, OpenState } from "./state.js";

export { type DatabaseSetting, describeDatabase, type OpenState } from "./state.js";

/**
 * Opens (creating and migrating) the state on the configured database. PostgreSQL: one pool,
 * the gate's migrations and the checkpointer's setup under one advisory lock; a server that
 * cannot be reached fails with CONFIG_INVALID naming GATE_DATABASE_URL.
 *
 * @example const state = await openState({ kind: "sqlite", path: ".gate/gate.db" }, systemClock);
 */
export async function openState(database: DatabaseSetting, clock: Clock, log?: Logger): Promise<OpenState> {
  if (database.kind === "sqlite") return sqliteState(openDatabase(database.path), clock);
  // node-postgres and PostgresSaver are loaded only in PostgreSQL mode (a few hundred ms at start).
  const { postgresState } = await import("./postgres/open-postgres.js");
  return postgresState(database.url, clock, log);
}

function sqliteState(db: Database.Database, clock: Clock): OpenState {
  return {
    kind: "sqlite",
    db,
    store: sqliteStore(db, clock),
    pullRequests: new GzipPullRequestStore(sqlitePullRequestRows(db)),
    checkpointer: new TurnTakingSqliteSaver(db),
    pruneCheckpoints: async (threadId) => pruneCheckpoints(db, threadId),
    query: async <Row>(sql: string) => db.prepare(sql).all() as Row[],
    health: async () => void db.prepare("SELECT 1").get(),
    close: async () => {
      db.close();
    },
  };
}
