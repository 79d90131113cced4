import { GateError } from "../domain/errors.js";

/**
 * One forward step of a database's schema. Versions start at 1 and rise by one; a step, once
 * released, never changes (a change is a new step).
 */
export interface Migration<Db> {
  version: number;
  name: string;
  up: (db: Db) => void | Promise<void>;
}

/** The one table both databases keep their schema version in (one row per migration applied). */
export const SCHEMA_VERSION_TABLE = `CREATE TABLE IF NOT EXISTS gate_schema_version (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;

/**
 * The migrations a database at version `current` still needs, in order. A database newer than
 * the code (a later release migrated it) is refused: this code would misread its tables.
 *
 * @example pendingMigrations(SQLITE_MIGRATIONS, 0, "GATE_DB gate.db") // every migration
 */
export function pendingMigrations<M extends { version: number }>(
  migrations: readonly M[],
  current: number,
  where: string,
): M[] {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${i + 1} is numbered ${m.version}`);
  });
  const known = migrations.length;
  if (current > known) {
    throw new GateError(
      "DATABASE_TOO_NEW",
      `${where} is at schema version ${current}, but this gate knows only up to ${known}`,
    );
  }
  return migrations.slice(current);
}
