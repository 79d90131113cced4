import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import type { Logger } from "pino";
import type { Clock } from "../../domain/clock.js";
import { GateError } from "../../domain/errors.js";
import { describeDatabase, type OpenState } from "../state.js";
import { GzipPullRequestStore } from "../pull-request-store.js";
import { migratePostgres } from "./migrate.js";
import { pgPullRequestRows, prunePgCheckpoints } from "./pull-requests.js";
import { pgStore } from "./pg-store.js";
import { surviveLostConnections } from "./lost-connections.js";

/**
 * The state on PostgreSQL: one pool, the gate's migrations and the checkpointer's setup under one
 * advisory lock; a server that cannot be reached fails with CONFIG_INVALID naming GATE_DATABASE_URL.
 *
 * @example const state = await postgresState("postgres://gate@db/gate", systemClock);
 */
export async function postgresState(url: string, clock: Clock, log?: Logger): Promise<OpenState> {
  // A connection the server drops (a restart, a failover, pg_terminate_backend) fails one operation, never the process.
  const pool = surviveLostConnections(new pg.Pool({ connectionString: url }), log, "gate");
  const checkpointer = new PostgresSaver(pool);
  const where = `GATE_DATABASE_URL ${describeDatabase({ kind: "postgres", url })}`;
  try {
    await migratePostgres(pool, where, () => checkpointer.setup());
  } catch (error) {
    await pool.end();
    if (error instanceof GateError) throw error;
    throw new GateError("CONFIG_INVALID", `${where}: cannot open it as the gate's database (${describeCause(error)})`, {
      cause: error,
    });
  }
  // `/healthz` asks on a connection of its own: a pool busy with reviews is not a database in trouble.
  const probe = surviveLostConnections(
    new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: HEALTH_TIMEOUT_MS }),
    log,
    "health",
  );
  return {
    kind: "postgres",
    pool,
    store: pgStore(pool, clock),
    pullRequests: new GzipPullRequestStore(pgPullRequestRows(pool)),
    checkpointer,
    pruneCheckpoints: (threadId) => prunePgCheckpoints(pool, threadId),
    query: async <Row>(sql: string) => (await pool.query(sql)).rows as Row[],
    health: () => withTimeout(probe.query("SELECT 1"), HEALTH_TIMEOUT_MS).then(() => undefined),
    close: async () => {
      await Promise.all([pool.end(), probe.end()]);
    },
  };
}

/** How long `/healthz` waits for the database's answer before it says the database does not answer. */
const HEALTH_TIMEOUT_MS = 700;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** pg's connection errors are sometimes an AggregateError with an empty message. */
function describeCause(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map(describeCause).join("; ");
  return error instanceof Error ? error.message || error.name : String(error);
}
