import type pg from "pg";
import type { Logger } from "pino";

/**
 * SQLSTATEs with which the server says it ended the session before the statement took effect:
 * `pg_terminate_backend` (57P01), a crash or fast shutdown (57P02), a server still starting
 * (57P03), and the connection classes (08xxx).
 */
const ENDED_BY_SERVER = /^(57P0[123]|08\d\d\d)$/;

/** Words node-postgres and Node use when the socket under a client went away. */
const SOCKET_LOST =
  /Connection terminated|connection timeout|ECONNRESET|ECONNREFUSED|EPIPE|Client has encountered a connection error|Connection ended/i;

/**
 * Whether `error` is a lost connection (the server ended the session, or the socket broke)
 * rather than a fault of the statement itself.
 *
 * @example isConnectionLost(Object.assign(new Error("terminating connection"), { code: "57P01" })) // true
 */
export function isConnectionLost(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === "string" && (ENDED_BY_SERVER.test(e.code) || SOCKET_LOST.test(e.code))) return true;
  if (Array.isArray(e.errors) && e.errors.some(isConnectionLost)) return true;
  return typeof e.message === "string" && SOCKET_LOST.test(e.message);
}

/**
 * Whether node-postgres refused to send the statement at all (its client had already lost its
 * connection), so that the statement, even a COMMIT, cannot have taken effect.
 */
export function neverSent(error: unknown): boolean {
  return error instanceof Error && /is not queryable/.test(error.message);
}

/** Whether the server itself reported the session's end in answer to the statement (so it did not take effect). */
function refusedByServer(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && ENDED_BY_SERVER.test(code);
}

/** A statement that only reads: safe to send again whatever happened to the first attempt. */
const READ_ONLY = /^\s*(SELECT|SHOW|VALUES)\b/i;

/** How many times a statement on the pool is sent again after a lost connection. */
const RETRIES = 2;

/**
 * Makes a pool survive lost connections. Every client it creates gets an `'error'` listener for
 * life, so a connection the server drops while a client is checked out between statements (a
 * publish lock, a transaction) fails that client's next statement instead of ending the process
 * (node-postgres listens only while a client is idle in the pool). Statements sent with
 * `pool.query` are sent again on a fresh connection when the connection was lost and the
 * statement cannot have taken effect (the server said so, or it only reads); anything else fails
 * that one operation with its error.
 *
 * @example const pool = surviveLostConnections(new pg.Pool({ connectionString }), log, "gate");
 */
export function surviveLostConnections(pool: pg.Pool, log: Logger | undefined, name: string): pg.Pool {
  pool.on("error", (error) => log?.warn({ err: error, pool: name }, "an idle PostgreSQL connection was lost"));
  pool.on("connect", (client) => {
    client.on("error", (error) => log?.warn({ err: error, pool: name }, "a PostgreSQL connection in use was lost"));
  });
  const send = pool.query.bind(pool) as (text: unknown, values?: unknown) => Promise<pg.QueryResult>;
  const query = async (text: unknown, values?: unknown): Promise<pg.QueryResult> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send(text, values);
      } catch (error) {
        const sql = typeof text === "string" ? text : ((text as { text?: string } | null)?.text ?? "");
        const again = isConnectionLost(error) && (refusedByServer(error) || neverSent(error) || READ_ONLY.test(sql));
        if (!again || attempt >= RETRIES) throw error;
        log?.warn({ err: error, pool: name, attempt: attempt + 1 }, "statement sent again after a lost connection");
      }
    }
  };
  // Only the promise forms are used by the gate and its checkpointer; a callback goes straight through.
  pool.query = ((text: unknown, values?: unknown, callback?: unknown) =>
    typeof values === "function" || typeof callback === "function"
      ? (send as (...args: unknown[]) => unknown)(text, values, callback)
      : query(text, values)) as pg.Pool["query"];
  return pool;
}
