import type { ChangeLedger } from "../../domain/store/change-ledger.js";
import { type ChangeRow, changesPageSql, INSERT_COLUMNS, insertValues, toStoredChange } from "../change-sql.js";
import type { SqliteConnection } from "./connection.js";

/**
 * The changes that reached a default branch, on SQLite (`gate_changes`).
 *
 * @example await sqliteChangeLedger(connection).changesPage({ repo: "acme/web" }, undefined, 1000);
 */
export function sqliteChangeLedger(c: SqliteConnection): ChangeLedger {
  return {
    async recordChange(change) {
      await c.ready();
      const values = insertValues(change, c.now());
      const marks = values.map(() => "?").join(", ");
      return (
        c.sql(`INSERT OR IGNORE INTO gate_changes (${INSERT_COLUMNS}) VALUES (${marks})`).run(...values).changes === 1
      );
    },
    async changesPage(filter, after, limit) {
      await c.ready();
      const { sql, params } = changesPageSql(filter, after, limit, () => "?");
      return (c.sql(sql).all(...params) as ChangeRow[]).map(toStoredChange);
    },
  };
}
