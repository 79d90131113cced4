import pg from "pg";

/**
 * Runs one statement on a PostgreSQL server on a connection of its own (CREATE or DROP DATABASE
 * cannot run in a pool's transaction); used by the tests' helpers and the bench.
 *
 * @example await runAdmin("postgres://postgres@127.0.0.1:5432/test", "CREATE DATABASE gate_t_1");
 */
export async function runAdmin(server: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
