import pg from "pg";

/** Where the PostgreSQL tests run when GATE_TEST_POSTGRES_URL is not set: the local server's `test` database. */
export const DEFAULT_TEST_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";

/**
 * Whether the PostgreSQL test server answers (a real `SELECT 1`, within two seconds): the
 * reason it does not, or undefined when it does.
 *
 * @example await unreachable("postgres://postgres@127.0.0.1:5432/test") // undefined
 */
export async function unreachable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return undefined;
  } catch (error) {
    const e = error as Error & { code?: string; errors?: Error[] };
    return e.message || e.code || e.errors?.map((x) => x.message).join("; ") || String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Host and port of a URL, for a one-line message (never its password). */
export function where(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
}
