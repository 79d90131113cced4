import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../src/domain/clock.js";
import { PgConnection } from "../../src/store/postgres/connection.js";
import { isConnectionLost, surviveLostConnections } from "../../src/store/postgres/lost-connections.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";

let db: TestDatabase;
const log = pino({ level: "silent" });
const pools: pg.Pool[] = [];

beforeAll(async () => {
  db = await postgresUrl();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await db.drop();
});

/** Ends one backend from a connection of its own, and waits until it is gone. */
async function terminate(pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  try {
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    for (let i = 0; i < 100; i++) {
      const { rows } = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid]);
      if (rows.length === 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await admin.end();
  }
}

const pidOf = async (q: { query: pg.Pool["query"] }) =>
  (await q.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid ?? 0;

function guarded(max = 1): pg.Pool {
  const pool = surviveLostConnections(new pg.Pool({ connectionString: db.url, max }), log, "test");
  pools.push(pool);
  return pool;
}

describe("surviveLostConnections", () => {
  it("a checked-out client whose connection the server ends between statements fails its next statement; the process goes on", async () => {
    const pool = guarded();
    const client = await pool.connect();
    const errors: unknown[] = [];
    // Without a listener for life, this 'error' would be unhandled: the process would exit.
    client.on("error", (e) => errors.push(e));
    await terminate(await pidOf(client));
    await expect(client.query("SELECT 1")).rejects.toSatisfy(isConnectionLost);
    client.release(new Error("lost"));
    expect(errors.length).toBeGreaterThan(0);
    expect((await pool.query("SELECT 2 AS n")).rows).toEqual([{ n: 2 }]);
  });

  it("an unguarded pool's checked-out client has no listener of its own between statements (the fault the guard closes)", async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    pools.push(pool);
    const client = await pool.connect();
    expect(client.listenerCount("error")).toBe(0);
    client.release();
    const mine = guarded();
    const held = await mine.connect();
    expect(held.listenerCount("error")).toBeGreaterThan(0);
    held.release();
  });

  it("a statement on the pool whose connection the server ends while it runs is sent again on a fresh connection", async () => {
    const pool = guarded();
    const before = await pidOf(pool);
    const running = pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid, pg_sleep(0.5)");
    await new Promise((r) => setTimeout(r, 150));
    await terminate(before);
    const after = (await running).rows[0]?.pid;
    expect(after).toBeGreaterThan(0);
    expect(after).not.toBe(before);
  });

  it("a transaction cut before its COMMIT runs again from the start, once, and commits once", async () => {
    const pool = guarded(2);
    await pool.query("CREATE TABLE IF NOT EXISTS t_once (n INT)");
    const conn = new PgConnection(pool, systemClock);
    let runs = 0;
    await conn.transaction(async (tx) => {
      runs++;
      await tx.changed("INSERT INTO t_once VALUES ($1)", [runs]);
      const [{ pid = 0 } = {}] = await tx.rows<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      if (runs === 1) await terminate(pid);
    });
    expect(runs).toBe(2);
    expect((await pool.query("SELECT n FROM t_once")).rows).toEqual([{ n: 2 }]);
  });

  it("tells a lost connection from a statement's own fault", () => {
    expect(isConnectionLost(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe(true);
    expect(isConnectionLost(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionLost(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isConnectionLost(new AggregateError([Object.assign(new Error(""), { code: "ECONNREFUSED" })], ""))).toBe(
      true,
    );
  });
});
