import type { ChangeLedger } from "../../domain/store/change-ledger.js";
import { type ChangeRow, changesPageSql, INSERT_COLUMNS, insertValues, toStoredChange } from "../change-sql.js";
import type { PgConnection } from "./connection.js";

/**
 * The changes that reached a default branch, on PostgreSQL (`gate_changes`).
 *
 * @example await pgChangeLedger(connection).changesPage({ repo: "acme/web" }, undefined, 1000);
 */
export function pgChangeLedger(c: PgConnection): ChangeLedger {
  return {
    async recordChange(change) {
      const values = insertValues(change, c.now());
      const marks = values.map((_, i) => `$${i + 1}`).join(", ");
      const n = await c.changed(
        `INSERT INTO gate_changes (${INSERT_COLUMNS}) VALUES (${marks}) ON CONFLICT (key) DO NOTHING`,
        values,
      );
      return n === 1;
    },
    async changesPage(filter, after, limit) {
      const { sql, params } = changesPageSql(filter, after, limit, (n) => `$${n}`);
      return (await c.rows<ChangeRow>(sql, params)).map(toStoredChange);
    },
  };
}
