import pg from "pg";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LockLost, type ReviewJob } from "../../src/domain/review-jobs.js";
import { PgJobQueue } from "../../src/store/postgres/job-queue.js";
import { migratePostgres } from "../../src/store/postgres/migrate.js";
import { defined } from "../helpers/defined.js";
import { silentLog } from "../helpers/gate.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

let db: TestDatabase;
const pools: pg.Pool[] = [];
const queues: PgJobQueue[] = [];

beforeAll(async () => {
  db = await postgresUrl();
  // The gate's own migrations, the job table among them.
  await migratePostgres(newPool(), "the test database");
});

// Each test's replicas stop with it, whatever it asserted, so none takes the next test's jobs.
afterEach(async () => {
  for (const q of queues.splice(0)) await q.end();
});

afterAll(async () => {
  for (const p of pools) await p.end();
  await db.drop();
});

const firstPool = () => defined(pools[0], "the first pool");

function newPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: db.url, max: 6 });
  // Dropping the database at the end cuts connections still closing: expected, not a failure.
  pool.on("error", () => undefined);
  pools.push(pool);
  return pool;
}

/** A replica's queue on a pool of its own. */
function replica(replicaId: string, leaseMs = 3000, pool = newPool()) {
  const queue = new PgJobQueue({ pool, replicaId, leaseMs, log: silentLog, pollMs: 20 });
  queues.push(queue);
  return queue;
}

async function clear(): Promise<void> {
  await firstPool().query("DELETE FROM gate_jobs");
}

describe("PgJobQueue (the real PostgreSQL server)", () => {
  it("two replicas on two pools run every job exactly once, never two jobs of one review at once", async () => {
    await clear();
    const a = replica("a");
    const b = replica("b");
    const ran: Array<{ by: string; job: ReviewJob }> = [];
    const busy = new Set<string>();
    let overlap = 0;
    const handler = (by: string) => async (job: ReviewJob) => {
      // Every job queued here is of one review.
      const key = "reviewId" in job ? job.reviewId : job.kind;
      if (busy.has(key)) overlap++;
      busy.add(key);
      await tick(5);
      busy.delete(key);
      ran.push({ by, job });
    };
    // 40 jobs over 10 reviews (4 each), queued before and while both replicas take them.
    const jobs: ReviewJob[] = [];
    for (let i = 0; i < 40; i++) jobs.push({ kind: i % 2 ? "publish" : "review", reviewId: `r-${i % 10}` });
    for (const job of jobs.slice(0, 20)) await a.enqueue(job);
    await a.start(handler("a"), 3);
    await b.start(handler("b"), 3);
    for (const job of jobs.slice(20)) await b.enqueue(job);
    for (let waited = 0; ran.length < 40 && waited < 20_000; waited += 20) await tick(20);
    expect(ran).toHaveLength(40);
    expect(overlap).toBe(0);
    expect(new Set(ran.map((r) => r.by))).toEqual(new Set(["a", "b"]));
    const count = (r: string) =>
      ran.filter((x) => x.job.kind !== "close" && "reviewId" in x.job && x.job.reviewId === r);
    for (let i = 0; i < 10; i++) expect(count(`r-${i}`)).toHaveLength(4);
    // The last jobs' rows go when their handlers have returned.
    await a.idle();
    await b.idle();
    expect(await a.depth()).toBe(0);
  });

  it("depth counts queued and held jobs of every replica; a job queued in a rolled-back transaction does not exist", async () => {
    await clear();
    const a = replica("a");
    await a.enqueue({ kind: "review", reviewId: "r-1" });
    await a.enqueue({ kind: "close", pr: "acme/web#1" });
    const held = await a.hold({ kind: "decision", reviewId: "r-2" });
    expect(await replica("b").depth()).toBe(3);
    await held.release();
    expect(await a.depth()).toBe(2);
    const client = await firstPool().connect();
    try {
      await client.query("BEGIN");
      const inTx = new PgJobQueue({
        pool: firstPool(),
        replicaId: "a",
        leaseMs: 3000,
        log: silentLog,
        clientOf: () => client,
      });
      await inTx.enqueue({ kind: "review", reviewId: "r-3" }, {} as never);
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    expect(await a.depth()).toBe(2);
  });

  it("a held job is not taken while its lease lives; once it expires (its holder died) another replica takes it over", async () => {
    await clear();
    const dead = replica("dead", 60_000);
    await dead.hold({ kind: "decision", reviewId: "r-9" });
    // The holder dies: it renews nothing from now on.
    await dead.close();
    const ran: ReviewJob[] = [];
    const live = replica("live", 60_000);
    await live.start(async (job) => void ran.push(job), 2);
    await tick(300);
    expect(ran).toEqual([]);
    // The lease runs out (as 60 s later).
    await firstPool().query("UPDATE gate_jobs SET locked_until = now() - interval '1 second'");
    for (let waited = 0; ran.length === 0 && waited < 10_000; waited += 20) await tick(20);
    expect(ran).toEqual([{ kind: "decision", reviewId: "r-9" }]);
    await live.idle();
    expect(await live.depth()).toBe(0);
    await live.close();
  });

  it("a review's job that keeps failing is never dropped: after five attempts its review is handed to a person; a job of no review is dropped", async () => {
    await clear();
    const q = new PgJobQueue({
      pool: newPool(),
      replicaId: "q",
      leaseMs: 3000,
      log: silentLog,
      pollMs: 20,
      retryBaseMs: 1,
    });
    queues.push(q);
    const seen: ReviewJob[] = [];
    await q.start(async (job) => {
      seen.push(job);
      if (job.kind !== "hand_over") throw new Error("the database went away");
    }, 1);
    await q.enqueue({ kind: "review", reviewId: "r-poison" });
    await q.enqueue({ kind: "close", pr: "acme/web#1" });
    for (let waited = 0; (await q.depth()) > 0 && waited < 20_000; waited += 20) await tick(20);
    const ofReview = seen.filter((j) => j.kind !== "close");
    expect(ofReview.slice(0, 5)).toEqual(Array(5).fill({ kind: "review", reviewId: "r-poison" }));
    expect(ofReview.slice(5)).toEqual([
      {
        kind: "hand_over",
        reviewId: "r-poison",
        why: "its review job failed, or the replica running it stopped, 5 times",
      },
    ]);
    // The close job failed five times, then was dropped without a sixth run.
    expect(seen.filter((j) => j.kind === "close")).toHaveLength(5);
    expect(await q.depth()).toBe(0);
  });

  it("no job of a review is taken while another job of that review holds a live lease", async () => {
    await clear();
    const a = replica("a", 60_000);
    const held = await a.hold({ kind: "decision", reviewId: "r-5" });
    await a.enqueue({ kind: "publish", reviewId: "r-5" });
    await a.enqueue({ kind: "publish", reviewId: "r-6" });
    const ran: ReviewJob[] = [];
    const b = replica("b", 60_000);
    await b.start(async (job) => void ran.push(job), 2);
    for (let waited = 0; ran.length === 0 && waited < 10_000; waited += 20) await tick(20);
    await tick(200);
    expect(ran).toEqual([{ kind: "publish", reviewId: "r-6" }]);
    await held.release();
    for (let waited = 0; ran.length < 2 && waited < 10_000; waited += 20) await tick(20);
    expect(ran).toEqual([
      { kind: "publish", reviewId: "r-6" },
      { kind: "publish", reviewId: "r-5" },
    ]);
    await b.close();
    await a.close();
  });

  it("the heartbeat keeps a running job's lease: a job running for three leases is not taken by another replica", async () => {
    await clear();
    const runs: string[] = [];
    const slow = (by: string) => async () => {
      runs.push(by);
      await tick(900);
    };
    const a = replica("a", 300);
    await a.enqueue({ kind: "review", reviewId: "r-7" });
    await a.start(slow("a"), 1);
    for (let waited = 0; runs.length === 0 && waited < 10_000; waited += 20) await tick(20);
    const b = replica("b", 300);
    await b.start(slow("b"), 1);
    await a.idle();
    await b.idle();
    expect(runs).toEqual(["a"]);
    expect(await a.depth()).toBe(0);
    await a.close();
    await b.close();
  });

  it("a lost lease is logged, and the job's row is left to the replica that took it over", async () => {
    await clear();
    const warnings: string[] = [];
    const log = pino({ level: "warn" }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
    const pool = newPool();
    const a = new PgJobQueue({ pool, replicaId: "a", leaseMs: 150, log, pollMs: 20 });
    queues.push(a);
    const held = await a.hold({ kind: "decision", reviewId: "r-8" });
    // Another replica took it (as after a stall longer than the lease).
    await pool.query("UPDATE gate_jobs SET locked_by = 'b'");
    for (let waited = 0; warnings.length === 0 && waited < 5000; waited += 20) await tick(20);
    await held.release();
    expect(warnings).toContain("job lease lost: another replica may have taken it over");
    expect(await a.depth()).toBe(1);
  });

  it("dropQueued removes a superseded review's queued runs, not a run another replica holds, nor its decision", async () => {
    await clear();
    const a = replica("a", 60_000);
    await a.enqueue({ kind: "review", reviewId: "r-1" });
    await a.enqueue({ kind: "rerun", reviewId: "r-1" });
    await a.enqueue({ kind: "decision", reviewId: "r-1" });
    await a.enqueue({ kind: "review", reviewId: "r-2" });
    const held = await a.hold({ kind: "review", reviewId: "r-3" });
    await a.dropQueued("r-1");
    await a.dropQueued("r-3");
    const { rows } = await firstPool().query<{ job_json: string }>("SELECT job_json FROM gate_jobs ORDER BY id");
    expect(rows.map((r) => JSON.parse(r.job_json))).toEqual([
      { kind: "decision", reviewId: "r-1" },
      { kind: "review", reviewId: "r-2" },
      { kind: "review", reviewId: "r-3" },
    ]);
    await held.release();
  });

  it("exclusive: two replicas holding one key take turns; another key does not wait", async () => {
    const a = replica("a");
    const b = replica("b");
    const log: string[] = [];
    const hold = (q: PgJobQueue, key: string, name: string) =>
      q.exclusive(key, async () => {
        log.push(`${name}+`);
        await tick(150);
        log.push(`${name}-`);
      });
    await Promise.all([hold(a, "publish:r-1", "a1"), hold(b, "publish:r-1", "b1"), hold(b, "publish:r-2", "b2")]);
    // The two holders of publish:r-1 never overlap: each one's end comes right after its start.
    const r1 = log.filter((e) => !e.startsWith("b2"));
    expect(r1).toHaveLength(4);
    expect(r1[1]).toBe(r1[0]?.replace("+", "-"));
    expect(r1[3]).toBe(r1[2]?.replace("+", "-"));
    // publish:r-2 ran beside the first holder of publish:r-1, not after both.
    expect(log.indexOf("b2+")).toBeLessThan(log.indexOf(r1[1] ?? ""));
  });

  it("exclusive rejects with LockLost when its lock's connection ends during the work, with the work's own error as cause", async () => {
    const a = replica("a");
    const admin = firstPool();
    // Ends the connection holding this database's advisory lock: what a failover does to the holder.
    const endHolder = async () => {
      const { rows } = await admin.query<{ ok: boolean }>(
        `SELECT pg_terminate_backend(l.pid) AS ok FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()`,
      );
      expect(rows.map((r) => r.ok)).toEqual([true]);
      await tick(50);
    };
    const lost = await a
      .exclusive("publish:r-lost", async () => {
        await endHolder();
        return "done";
      })
      .catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(LockLost);
    expect((lost as LockLost).key).toBe("publish:r-lost");
    const failed = await a
      .exclusive("publish:r-lost", async () => {
        await endHolder();
        throw new Error("GitHub answered 502");
      })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(LockLost);
    expect(String((failed as LockLost).cause)).toMatch(/502/);
    // A hold that lasts to the end still answers with the work's value, or its error as it is.
    expect(await a.exclusive("publish:r-lost", async () => "kept")).toBe("kept");
    await expect(a.exclusive("publish:r-lost", async () => Promise.reject(new Error("own")))).rejects.toThrow(/^own$/);
  });

  it("exclusive never starves its work of connections: 30 holders at once over a pool of 3 all finish", async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 3 });
    pool.on("error", () => undefined);
    pools.push(pool);
    const q = replica("a", 3000, pool);
    const keys = Array.from({ length: 30 }, (_, i) => i);
    const done = await Promise.all(
      keys.map((i) =>
        q.exclusive(
          `publish:r-${i}`,
          async () => (await pool.query<{ n: number }>("SELECT $1::int AS n", [i])).rows[0]?.n,
        ),
      ),
    );
    expect(done).toEqual(keys);
  });
});
