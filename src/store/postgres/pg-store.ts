import type pg from "pg";
import type { Clock } from "../../domain/clock.js";
import type { ReviewStore } from "../../domain/review-store.js";
import { pgAuditorKeys } from "./auditor-keys.js";
import { pgChangeLedger } from "./change-ledger.js";
import { pgConfigKeeping } from "./config-keeping.js";
import { PgConnection } from "./connection.js";
import { pgDecisionLog } from "./decision-log.js";
import { pgDeliveryInbox } from "./delivery-inbox.js";
import { pgLookupCache } from "./lookup-cache.js";
import { pgReviewRecords } from "./review-records.js";
import { pgSlackMemory } from "./slack-memory.js";

/** Each store's connection, for writes of other tables that must commit with the store's (a queued job). */
const CONNECTIONS = new WeakMap<ReviewStore, PgConnection>();

/**
 * The review store on PostgreSQL (the tables of `postgres/migrations.ts`), for several replicas
 * on one database, its pieces on one pool.
 *
 * @example const store = pgStore(pool, systemClock);
 */
export function pgStore(pool: pg.Pool, clock: Clock): ReviewStore {
  return storeOn(new PgConnection(pool, clock));
}

function storeOn(c: PgConnection): ReviewStore {
  const store: ReviewStore = {
    ...pgReviewRecords(c),
    ...pgDeliveryInbox(c),
    ...pgDecisionLog(c),
    ...pgSlackMemory(c),
    ...pgLookupCache(c),
    ...pgConfigKeeping(c),
    ...pgChangeLedger(c),
    ...pgAuditorKeys(c),
    transaction: (work) => c.transaction((bound) => work(storeOn(bound))),
  };
  CONNECTIONS.set(store, c);
  return store;
}

/**
 * Where a PostgreSQL store's statements run now (the open transaction's client inside one, else
 * the pool); undefined for a store that is not one.
 */
export function pgClientOf(store: ReviewStore): pg.Pool | pg.PoolClient | undefined {
  return CONNECTIONS.get(store)?.db();
}
