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

/**
 * The state on PostgreSQL: one pool, the gate's migrations and the checkpointer's setup under one
 * advisory lock; a server that cannot be reached fails with CONFIG_INVALID naming GATE_DATABASE_URL.
 *
 * @example const state = await postgresState("postgres://gate@db/gate", systemClock);
 */
export async function postgresState(url: string, clock: Clock, log?: Logger): Promise<OpenState> {
  const pool = new pg.Pool({ connectionString: url });
  // An idle client the server dropped (a restart, a failover) is reported here, not thrown.
  pool.on("error", (error) => log?.warn({ err: error }, "a PostgreSQL connection failed"));
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
  return {
    kind: "postgres",
    pool,
    store: pgStore(pool, clock),
    pullRequests: new GzipPullRequestStore(pgPullRequestRows(pool)),
    checkpointer,
    pruneCheckpoints: (threadId) => prunePgCheckpoints(pool, threadId),
    query: async <Row>(sql: string) => (await pool.query(sql)).rows as Row[],
    close: () => pool.end(),
  };
}

/** pg's connection errors are sometimes an AggregateError with an empty message. */
function describeCause(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map(describeCause).join("; ");
  return error instanceof Error ? error.message || error.name : String(error);
}
