import type Database from "better-sqlite3";
import type { Clock } from "../../domain/clock.js";
import type { ReviewStore } from "../../domain/review-store.js";
import { sqliteAuditorKeys } from "./auditor-keys.js";
import { sqliteChangeLedger } from "./change-ledger.js";
import { sqliteConfigKeeping } from "./config-keeping.js";
import { SqliteConnection } from "./connection.js";
import { sqliteDecisionLog } from "./decision-log.js";
import { sqliteDeliveryInbox } from "./delivery-inbox.js";
import type { TransactionGate } from "./group-commit.js";
import { sqliteLookupCache } from "./lookup-cache.js";
import { sqliteReviewRecords } from "./review-records.js";
import { sqliteSlackMemory } from "./slack-memory.js";

/**
 * The review store on the gate's SQLite file (see database.ts), its pieces on one connection;
 * `gate` is the connection's transaction gate (a test passes its own to watch the fsyncs).
 *
 * @example const store = sqliteStore(openDatabase(path), systemClock);
 */
export function sqliteStore(db: Database.Database, clock: Clock, gate?: TransactionGate): ReviewStore {
  return storeOn(new SqliteConnection(db, clock, gate));
}

function storeOn(c: SqliteConnection): ReviewStore {
  return {
    ...sqliteReviewRecords(c),
    ...sqliteDeliveryInbox(c),
    ...sqliteDecisionLog(c),
    ...sqliteSlackMemory(c),
    ...sqliteLookupCache(c),
    ...sqliteConfigKeeping(c),
    ...sqliteChangeLedger(c),
    ...sqliteAuditorKeys(c),
    transaction: (work) => c.transaction((bound) => work(storeOn(bound))),
  };
}
