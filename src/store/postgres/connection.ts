import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";
import type { Clock } from "../../domain/clock.js";
import type { ReviewRecord } from "../../domain/review.js";
import { isConnectionLost, neverSent } from "./lost-connections.js";
import { existsSql, insertOnceSql, type OnceTable } from "../once-keys.js";
import { type ReviewRow, toRecord } from "../rows.js";

/** A `gate_reviews` row as pg returns it: BIGINT columns as strings. */
export type PgReviewRow = Omit<ReviewRow, "check_run_id" | "installation_id"> & {
  check_run_id: string | null;
  installation_id: string | null;
};

/** BIGINT columns come back as strings (pg keeps every 64-bit value exact); ours fit a double. */
export function fromPg(r: PgReviewRow): ReviewRecord {
  return toRecord({
    ...r,
    check_run_id: r.check_run_id === null ? null : Number(r.check_run_id),
    installation_id: r.installation_id === null ? null : Number(r.installation_id),
  });
}

/** How many times a transaction cut by a lost connection is run again. */
const TRANSACTION_RETRIES = 2;

/** The transaction a piece of work runs in: its client, while it is open. */
interface OpenTransaction {
  client: pg.PoolClient;
  active: boolean;
}

/**
 * The gate's PostgreSQL pool as the store's pieces use it. Statements run on the pool;
 * `transaction` checks out one client and runs its work on it. Work inside a transaction that
 * uses the connection it started from (not the bound one) joins the transaction, as in SQLite.
 *
 * @example const c = new PgConnection(pool, systemClock); await c.rows("SELECT 1");
 */
export class PgConnection {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
    private readonly inside = new AsyncLocalStorage<OpenTransaction>(),
    /** The client of the transaction this connection is bound to (the one handed to a transaction's work). */
    private readonly client?: pg.PoolClient,
  ) {}

  now(): string {
    return this.clock().toISOString();
  }

  /**
   * Where statements run now: the open transaction's client inside one, else the pool. Other
   * tables' writes that must commit with the store's (a queued job) go there too.
   */
  db(): pg.Pool | pg.PoolClient {
    if (this.client) return this.client;
    const open = this.inside.getStore();
    return open?.active ? open.client : this.pool;
  }

  async rows<Row extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await this.db().query<Row>(sql, params)).rows;
  }

  async changed(sql: string, params: unknown[]): Promise<number> {
    return (await this.db().query(sql, params)).rowCount ?? 0;
  }

  /** Review records read with `SELECT * FROM gate_reviews` and `where`. */
  async reviews(where: string, params: unknown[]): Promise<ReviewRecord[]> {
    return (await this.rows<PgReviewRow>(`SELECT * FROM gate_reviews ${where}`, params)).map(fromPg);
  }

  /**
   * Runs `work` in one transaction on one checked-out client (READ COMMITTED: a conditional
   * UPDATE such as `claim` waits for a concurrent one and re-reads the row, so one of them wins).
   * A transaction whose connection was lost before its COMMIT was sent took no effect, and is run again from the start on a fresh connection, twice at most.
   */
  async transaction<T>(work: (bound: PgConnection) => Promise<T>): Promise<T> {
    if (this.client) return work(this);
    const open = this.inside.getStore();
    if (open?.active) return work(this.boundTo(open.client));
    for (let attempt = 0; ; attempt++) {
      const step = { committing: false };
      try {
        return await this.once(work, step);
      } catch (error) {
        if (attempt >= TRANSACTION_RETRIES || !isConnectionLost(error) || (step.committing && !neverSent(error)))
          throw error;
      }
    }
  }

  private async once<T>(work: (bound: PgConnection) => Promise<T>, step: { committing: boolean }): Promise<T> {
    const client = await this.pool.connect();
    const marker: OpenTransaction = { client, active: true };
    let broken: unknown;
    try {
      await client.query("BEGIN");
      try {
        const value = await this.inside.run(marker, () => work(this.boundTo(client)));
        step.committing = true;
        await client.query("COMMIT");
        return value;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollback: unknown) => {
          broken = rollback;
        });
        throw error;
      }
    } finally {
      marker.active = false;
      // A client whose rollback failed is not handed out again.
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  private boundTo(client: pg.PoolClient): PgConnection {
    return new PgConnection(this.pool, this.clock, this.inside, client);
  }

  /** Claims `key` in a write-once table; true when this call added it, false when it was there. */
  async insertOnce(table: OnceTable, key: string, value: string): Promise<boolean> {
    return (await this.changed(insertOnceSql(table, ["$1", "$2", "$3"]), [key, value, this.now()])) === 1;
  }

  /** Whether `key` was claimed in a write-once table. */
  async rowExists(table: OnceTable, key: string): Promise<boolean> {
    return (await this.rows(existsSql(table, "$1"), [key])).length > 0;
  }
}
