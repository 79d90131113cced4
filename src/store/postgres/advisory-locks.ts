import type { Logger } from "pino";
import pg from "pg";
import { LockLost } from "../../domain/review-jobs.js";
import { surviveLostConnections } from "./lost-connections.js";

/** Connections for the locks: at most this many keys are held at once by one process. */
const LOCK_CONNECTIONS = 4;

/**
 * Session advisory locks shared by the replicas of one database, on a pool of their own so lock
 * holders never take the connections their work needs from the shared pool (a burst of
 * publishes would).
 *
 * @example const locks = new AdvisoryLocks(pool, log); await locks.exclusive("publish:r-1", work);
 */
export class AdvisoryLocks {
  private readonly pool: pg.Pool;

  constructor(shared: pg.Pool, log: Logger) {
    this.pool = surviveLostConnections(new pg.Pool({ ...shared.options, max: LOCK_CONNECTIONS }), log, "locks");
  }

  /**
   * Runs `work` holding a session advisory lock on `key` (on a connection of the lock pool, so a
   * process that dies drops it with its connection): replicas publishing one review take turns,
   * and the later one sees the earlier one's receipts (its check run, its card).
   */
  async exclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: unknown;
    try {
      await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key]).catch((error: unknown) => {
        broken = error;
        throw error;
      });
      let outcome: { value: T } | { error: unknown };
      try {
        outcome = { value: await work() };
      } catch (error) {
        outcome = { error };
      }
      // The unlock says whether the lock was still held: false, or no answer at all, means its
      // connection was lost during the work (the server dropped the lock with it).
      const held = await client
        .query<{ held: boolean }>("SELECT pg_advisory_unlock(hashtextextended($1, 0)) AS held", [key])
        .then(
          (r) => r.rows[0]?.held === true,
          (error: unknown) => {
            broken = error;
            return false;
          },
        );
      if (!held) throw new LockLost(key, "error" in outcome ? { cause: outcome.error } : undefined);
      if ("error" in outcome) throw outcome.error;
      return outcome.value;
    } finally {
      // A client whose lock or unlock failed is closed, which drops the lock.
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  /** Ends the lock connections (the gate's close). */
  end(): Promise<void> {
    return this.pool.end();
  }
}
