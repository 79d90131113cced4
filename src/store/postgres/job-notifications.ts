import type pg from "pg";
import type { Logger } from "pino";

/** How long a lost notification connection waits before it listens again. */
const RELISTEN_MS = 500;

/**
 * One connection LISTENing on a channel, calling `wake` on each notification. A connection the
 * server drops (a failover, `pg_terminate_backend`) is released and listened again after a short
 * pause, so idle replicas go back to taking new jobs at once instead of at their next poll.
 *
 * @example const n = new JobNotifications(pool, "gate_jobs", () => queue.wake(), log); await n.listen(); await n.stop();
 */
export class JobNotifications {
  private client?: pg.PoolClient;
  private stopped = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
    private readonly wake: () => void,
    private readonly log: Logger,
  ) {}

  /** Listens now; on failure says so and tries again later (the queue polls meanwhile). */
  async listen(): Promise<void> {
    if (this.stopped) return;
    let client: pg.PoolClient | undefined;
    try {
      client = await this.pool.connect();
      const mine = client;
      mine.on("notification", () => this.wake());
      mine.on("error", (error) => this.lost(mine, error));
      await mine.query(`LISTEN ${this.channel}`);
      this.client = mine;
      // Jobs queued while no one listened are taken now.
      this.wake();
    } catch (error) {
      if (client) this.lost(client, error);
      else this.again(error);
    }
  }

  /** Stops listening and hands the connection back. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    await client.query(`UNLISTEN ${this.channel}`).catch(() => undefined);
    client.release();
  }

  private lost(client: pg.PoolClient, error: unknown): void {
    if (this.client === client) this.client = undefined;
    // A broken client is destroyed, not handed out again; releasing twice would throw.
    try {
      client.release(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // already released
    }
    this.again(error);
  }

  private again(error: unknown): void {
    if (this.stopped || this.timer) return;
    this.log.warn({ err: error }, "job notifications lost; polling until listening again");
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.listen();
    }, RELISTEN_MS);
    this.timer.unref();
  }
}
