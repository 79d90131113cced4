import type pg from "pg";
import { type Migration, pendingMigrations, SCHEMA_VERSION_TABLE } from "../migrations.js";
import { POSTGRES_MIGRATIONS } from "./migrations.js";

/** The advisory lock every replica takes to migrate: one migrates, the others wait, then find nothing to do. */
export const MIGRATION_LOCK = 7_150_015;

/**
 * Brings a PostgreSQL database up to date under `pg_advisory_lock`: the gate's migrations, each
 * in its own transaction and recorded in `gate_schema_version`, then `alsoUnderLock` (the
 * checkpointer's own setup, which takes no lock itself). A database newer than the code is
 * refused with DATABASE_TOO_NEW.
 *
 * @example await migratePostgres(pool, "GATE_DATABASE_URL", () => saver.setup());
 */
export async function migratePostgres(
  pool: pg.Pool,
  where: string,
  alsoUnderLock: () => Promise<void> = async () => {},
  migrations: ReadonlyArray<Migration<pg.ClientBase>> = POSTGRES_MIGRATIONS,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await client.query(SCHEMA_VERSION_TABLE);
      const { rows } = await client.query<{ v: number }>(
        "SELECT COALESCE(MAX(version), 0)::int AS v FROM gate_schema_version",
      );
      for (const m of pendingMigrations(migrations, rows[0]?.v ?? 0, where)) {
        await client.query("BEGIN");
        try {
          await m.up(client);
          await client.query("INSERT INTO gate_schema_version (version, name, applied_at) VALUES ($1, $2, $3)", [
            m.version,
            m.name,
            new Date().toISOString(),
          ]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        }
      }
      await alsoUnderLock();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
