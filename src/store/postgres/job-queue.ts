import type { Logger } from "pino";
import type pg from "pg";
import type { HeldJob, JobHandler, ReplicaCoordination, ReviewJob, ReviewJobs } from "../../domain/review-jobs.js";
import type { ReviewStore } from "../../domain/review-store.js";
import { AdvisoryLocks } from "./advisory-locks.js";
import { JobNotifications } from "./job-notifications.js";
import { pgClientOf } from "./pg-store.js";

/** What runs a statement: the pool, or a transaction's checked-out client. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/**
 * The job table (PostgreSQL migration 2). `key` is what one job at a time may hold a
 * lease on (the review, the PR of a close, the delivery of a register job); a job is taken by
 * setting `locked_by` and `locked_until`, renewed while it runs, and deleted when it is done.
 */
export const JOBS_TABLE = `
CREATE TABLE gate_jobs (
  id BIGSERIAL PRIMARY KEY,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  job_json TEXT NOT NULL,
  run_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  locked_by TEXT,
  locked_until TIMESTAMPTZ,
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX gate_jobs_ready ON gate_jobs (run_at, id);
CREATE INDEX gate_jobs_key ON gate_jobs (key);
`;

/** The channel a new job is announced on, so idle replicas take it at once instead of at their next poll. */
const CHANNEL = "gate_jobs";
/**
 * A job that failed (or whose holder died) this many times is not run again: its review goes to a
 * person instead (`handOver`), or, for a job of no single review, it is dropped with an error.
 */
const MAX_ATTEMPTS = 5;
/** The longest back-off between two attempts of a failing job. */
const MAX_BACKOFF_MS = 10 * 60_000;

/** What is done instead of a job that failed too many times: its review handed to a person, if it has one. */
function handOver(job: ReviewJob, attempts: number): ReviewJob | undefined {
  if (job.kind !== "review" && job.kind !== "rerun" && job.kind !== "decision") return undefined;
  const why = `its ${job.kind} job failed, or the replica running it stopped, ${attempts - 1} times`;
  return { kind: "hand_over", reviewId: job.reviewId, why };
}
/** Takes are serialised by this transaction-level advisory lock (see `take`). */
const TAKE_LOCK = 0x6a6f6273; // "jobs"
/**
 * A job `j` that may be taken now: due, not leased (or its lease expired), and no other job of
 * its review (or PR) holds a live lease.
 */
const READY = `j.run_at <= clock_timestamp() AND (j.locked_until IS NULL OR j.locked_until < clock_timestamp())
  AND NOT EXISTS (SELECT 1 FROM gate_jobs o WHERE o.key = j.key AND o.id <> j.id AND o.locked_until >= clock_timestamp())`;

/** The queue's settings (GATE_REPLICA_ID, GATE_JOB_LEASE) and what it runs on. */
export interface PgJobQueueOptions {
  pool: pg.Pool;
  /** GATE_REPLICA_ID: who holds a lease. */
  replicaId: string;
  /** GATE_JOB_LEASE in ms: a job whose holder stops renewing it is taken by another replica after this. */
  leaseMs: number;
  log: Logger;
  /** The client a store transaction runs on (to write a job inside it); undefined outside one. */
  clientOf?: (tx: ReviewStore) => Queryable | undefined;
  /** How long an idle worker waits between polls when no notification came. */
  pollMs?: number;
  /** The first back-off after a failed attempt (doubling each time, at most 10 minutes); 1 s by default. */
  retryBaseMs?: number;
}

interface JobRow {
  id: string;
  job_json: string;
  attempts: number;
}

function keyOf(job: ReviewJob): string {
  if (job.kind === "close" || job.kind === "label") return `pr:${job.pr}`;
  if (job.kind === "recover") return "recover";
  if (job.kind === "register") return `delivery:${job.deliveryId}`;
  return `review:${job.reviewId}`;
}

/**
 * Review jobs in a PostgreSQL table that every replica takes from: `SELECT … FOR UPDATE SKIP
 * LOCKED` under a lease (`locked_by`, `locked_until`) that a heartbeat renews every third of
 * GATE_JOB_LEASE while the job runs. A job is not taken while another job of the same review (or
 * PR) holds a live lease, so one review runs on one replica at a time; a job whose holder died is
 * taken over once its lease has expired. A finished job's row is deleted. Each replica runs
 * GATE_CONCURRENCY workers, woken by LISTEN/NOTIFY when a job is queued and by a poll otherwise.
 *
 * @example const jobs = new PgJobQueue({ pool, replicaId: "a", leaseMs: 60_000, log }).start(handler, 2);
 */
export class PgJobQueue implements ReviewJobs, ReplicaCoordination {
  private handler?: JobHandler;
  private concurrency = 0;
  private running = 0;
  private stopped = true;
  private closed = false;
  private ended = false;
  private pumping = false;
  private again = false;
  private timer?: NodeJS.Timeout;
  private listener?: JobNotifications;
  private readonly active = new Set<Promise<void>>();
  /** The heartbeats of the jobs this process holds, stopped by `close`. */
  private readonly beats = new Set<() => void>();
  private readonly locks: AdvisoryLocks;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly opts: PgJobQueueOptions) {
    this.locks = new AdvisoryLocks(opts.pool, opts.log);
  }

  private get pollMs(): number {
    return this.opts.pollMs ?? Math.min(1000, Math.max(50, Math.floor(this.opts.leaseMs / 4)));
  }

  private on(tx?: ReviewStore): Queryable {
    return (tx && this.opts.clientOf?.(tx)) ?? this.opts.pool;
  }

  async enqueue(job: ReviewJob, tx?: ReviewStore): Promise<void> {
    const db = this.on(tx);
    await db.query(`INSERT INTO gate_jobs (kind, key, job_json) VALUES ($1, $2, $3)`, [
      job.kind,
      keyOf(job),
      JSON.stringify(job),
    ]);
    // Delivered when the transaction commits (never, if it rolls back).
    await db.query(`SELECT pg_notify($1, '')`, [CHANNEL]);
  }

  /**
   * Queues `job` unless a job of its review (or PR) is queued or held already: a replica's start
   * queues what no job covers, without touching another replica's live work.
   */
  async adopt(job: ReviewJob): Promise<boolean> {
    const { rowCount } = await this.opts.pool.query(
      `INSERT INTO gate_jobs (kind, key, job_json)
       SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM gate_jobs WHERE key = $2)`,
      [job.kind, keyOf(job), JSON.stringify(job)],
    );
    if (rowCount) await this.opts.pool.query(`SELECT pg_notify($1, '')`, [CHANNEL]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * Writes `job` already leased to this replica (inside `tx`, with what it covers), and renews
   * the lease until `release`, which deletes it. Should this process die first, another replica
   * takes the job over once the lease expires (a decision received here, finished elsewhere).
   */
  async hold(job: ReviewJob, tx?: ReviewStore): Promise<HeldJob> {
    const { rows } = await this.on(tx).query<{ id: string }>(
      `INSERT INTO gate_jobs (kind, key, job_json, locked_by, locked_until, attempts)
       VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond', 1) RETURNING id`,
      [job.kind, keyOf(job), JSON.stringify(job), this.opts.replicaId, this.opts.leaseMs],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error("a held job was not written");
    const stop = this.heartbeat(id, job);
    return {
      release: async () => {
        stop();
        await this.complete(id, job);
      },
      abandon: stop,
    };
  }

  async dropQueued(reviewId: string, tx?: ReviewStore): Promise<void> {
    await this.on(tx).query(
      `DELETE FROM gate_jobs WHERE key = $1 AND kind IN ('review', 'rerun')
         AND (locked_until IS NULL OR locked_until < now())`,
      [keyOf({ kind: "review", reviewId })],
    );
  }

  /** Runs `work` holding the shared lock on `key` (`AdvisoryLocks.exclusive`). */
  exclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.locks.exclusive(key, work);
  }

  async depth(): Promise<number> {
    const { rows } = await this.opts.pool.query<{ n: string }>(`SELECT count(*) AS n FROM gate_jobs`);
    return Number(rows[0]?.n ?? 0);
  }

  /** Starts `concurrency` workers taking jobs for `handler`; returns the queue. */
  async start(handler: JobHandler, concurrency: number): Promise<this> {
    this.handler = handler;
    this.concurrency = concurrency;
    this.stopped = false;
    this.listener = new JobNotifications(this.opts.pool, CHANNEL, () => this.wake(), this.opts.log);
    await this.listener.listen();
    this.wake();
    return this;
  }

  /**
   * Resolves when this replica runs no job and the table holds none it could take now (jobs held
   * by other replicas, or queued for later, are not waited for).
   */
  async idle(): Promise<void> {
    for (;;) {
      if (this.running > 0 || this.pumping) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      if (this.stopped) return;
      const { rows } = await this.opts.pool.query(`SELECT 1 FROM gate_jobs j WHERE ${READY} LIMIT 1`);
      if (rows.length === 0 && this.running === 0 && !this.pumping) return;
      this.wake();
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }

  /** Stops taking jobs, waits for the running ones, and stops renewing the leases of jobs still held. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.active]);
    for (const stop of this.beats) stop();
    await this.listener?.stop();
  }

  /** Closes, then ends the lock pool: nothing of this queue runs after it (the gate's close). */
  async end(): Promise<void> {
    await this.close();
    if (this.ended) return;
    this.ended = true;
    await this.locks.end();
  }

  /** Takes jobs until every worker is busy or none is ready; then waits for a notification or the poll. */
  private wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.pump().finally(() => {
      this.pumping = false;
      if (this.again) {
        this.again = false;
        this.wake();
      } else {
        this.settleIdle();
      }
    });
  }

  private async pump(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    while (!this.stopped && this.running < this.concurrency) {
      let row: JobRow | undefined;
      try {
        row = await this.take();
      } catch (error) {
        this.opts.log.error({ err: error }, "cannot take a job");
        break;
      }
      if (!row) break;
      this.launch(row);
    }
    if (!this.stopped) {
      this.timer = setTimeout(() => this.wake(), this.pollMs);
      this.timer.unref();
    }
  }

  /**
   * Leases the oldest ready job whose review (or PR) no other job holds a live lease on. Takes
   * are serialised by an advisory lock for the transaction, so two replicas cannot each lease a
   * different job of the same review at once; SKIP LOCKED passes over rows another transaction
   * is renewing or deleting.
   */
  private async take(): Promise<JobRow | undefined> {
    const client = await this.opts.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock($1)", [TAKE_LOCK]);
      const { rows } = await client.query<JobRow>(
        `WITH next AS (
           SELECT j.id FROM gate_jobs j
           WHERE ${READY}
           ORDER BY j.run_at, j.id
           LIMIT 1
           FOR UPDATE SKIP LOCKED)
         UPDATE gate_jobs SET locked_by = $1, locked_until = clock_timestamp() + $2 * interval '1 millisecond',
           attempts = gate_jobs.attempts + 1
         FROM next WHERE gate_jobs.id = next.id
         RETURNING gate_jobs.id, gate_jobs.job_json, gate_jobs.attempts`,
        [this.opts.replicaId, this.opts.leaseMs],
      );
      await client.query("COMMIT");
      return rows[0];
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private launch(row: JobRow): void {
    this.running++;
    const job = JSON.parse(row.job_json) as ReviewJob;
    const work = this.runJob(row, job).finally(() => {
      this.running--;
      this.active.delete(work);
      if (this.stopped) this.settleIdle();
      else this.wake();
    });
    this.active.add(work);
  }

  private async runJob(row: JobRow, job: ReviewJob): Promise<void> {
    const handler = this.handler;
    if (!handler) throw new Error("a job was taken before the queue started");
    const log = this.opts.log.child({ jobId: row.id, job, attempt: row.attempts });
    let work = job;
    if (row.attempts > MAX_ATTEMPTS && job.kind !== "hand_over") {
      const instead = handOver(job, row.attempts);
      if (!instead) {
        log.error("job dropped: it failed, or its holder died, too many times");
        await this.complete(row.id, job).catch((error: unknown) => log.error({ err: error }, "cannot drop a job"));
        return;
      }
      log.error("job failed, or its holder died, too many times: its review goes to a person");
      work = instead;
    } else if (row.attempts > 1) log.warn("job taken over: its earlier holder failed or stopped renewing its lease");
    const stop = this.heartbeat(row.id, job);
    try {
      await handler(work);
      stop();
      await this.complete(row.id, job);
    } catch (error) {
      stop();
      log.error({ err: error }, "review job failed; trying again later");
      // Freed for any replica after a back-off: 2 s, 4 s, 8 s, ... at most 10 minutes. Never
      // dropped while it is a review's: after MAX_ATTEMPTS its review goes to a person.
      const backoff = Math.min(MAX_BACKOFF_MS, (this.opts.retryBaseMs ?? 1000) * 2 ** Math.min(row.attempts, 20));
      await this.opts.pool
        .query(
          `UPDATE gate_jobs SET locked_by = NULL, locked_until = NULL,
             run_at = now() + $3 * interval '1 millisecond' WHERE id = $1 AND locked_by = $2`,
          [row.id, this.opts.replicaId, backoff],
        )
        .catch((e: unknown) => log.error({ err: e }, "cannot free a failed job"));
    }
  }

  /** Renews a job's lease every third of GATE_JOB_LEASE; a lost lease is logged. Returns the stop. */
  private heartbeat(id: string, job: ReviewJob): () => void {
    const every = Math.max(10, Math.floor(this.opts.leaseMs / 3));
    let lost = false;
    const timer = setInterval(() => {
      void this.opts.pool
        .query(
          `UPDATE gate_jobs SET locked_until = now() + $3 * interval '1 millisecond' WHERE id = $1 AND locked_by = $2`,
          [id, this.opts.replicaId, this.opts.leaseMs],
        )
        .then((r) => {
          if (r.rowCount === 0 && !lost) {
            lost = true;
            clearInterval(timer);
            this.opts.log.warn({ jobId: id, job }, "job lease lost: another replica may have taken it over");
          }
        })
        .catch((error: unknown) => this.opts.log.warn({ err: error, jobId: id }, "cannot renew a job's lease"));
    }, every);
    timer.unref();
    const stop = () => {
      clearInterval(timer);
      this.beats.delete(stop);
    };
    this.beats.add(stop);
    return stop;
  }

  private async complete(id: string, job: ReviewJob): Promise<void> {
    const { rowCount } = await this.opts.pool.query(`DELETE FROM gate_jobs WHERE id = $1 AND locked_by = $2`, [
      id,
      this.opts.replicaId,
    ]);
    if (rowCount === 0) this.opts.log.warn({ jobId: id, job }, "a finished job's lease was lost before it was done");
  }

  private settleIdle(): void {
    if (this.running > 0 || this.pumping) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}

/**
 * The job queue of a PostgreSQL state: on its pool, writing jobs inside the store's
 * transactions (a store bound to one runs them on its client).
 *
 * @example const jobs = openJobQueue(state.pool, settings.jobs, log);
 */
export function openJobQueue(pool: pg.Pool, settings: { replicaId: string; leaseMs: number }, log: Logger): PgJobQueue {
  return new PgJobQueue({
    pool,
    ...settings,
    log,
    clientOf: (tx) => pgClientOf(tx),
  });
}
