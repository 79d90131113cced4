import type { AuditorKeys } from "../../domain/store/auditor-keys.js";
import { AUDITOR_COLUMNS, type AuditorRow, toAuditor, withoutHash } from "../auditor-sql.js";
import type { SqliteConnection } from "./connection.js";

/**
 * The auditors and their hashed tokens, on SQLite (`gate_auditors`).
 *
 * @example await sqliteAuditorKeys(connection).auditors();
 */
export function sqliteAuditorKeys(c: SqliteConnection): AuditorKeys {
  const one = (where: string, value: string) => {
    const row = c.sql(`SELECT ${AUDITOR_COLUMNS} FROM gate_auditors WHERE ${where} = ?`).get(value) as
      | AuditorRow
      | undefined;
    return row ? toAuditor(row) : undefined;
  };
  return {
    async addAuditor(name, tokenHash) {
      await c.ready();
      const r = c
        .sql("INSERT OR IGNORE INTO gate_auditors (name, token_hash, created_at) VALUES (?, ?, ?)")
        .run(name, tokenHash, c.now());
      return r.changes === 1;
    },
    async auditors() {
      await c.ready();
      const rows = c.sql(`SELECT ${AUDITOR_COLUMNS} FROM gate_auditors ORDER BY name`).all() as AuditorRow[];
      return rows.map((r) => withoutHash(toAuditor(r)));
    },
    async revokeAuditor(name) {
      await c.ready();
      const r = c
        .sql("UPDATE gate_auditors SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL")
        .run(c.now(), name);
      return r.changes === 1;
    },
    async auditorByTokenHash(tokenHash) {
      await c.ready();
      return one("token_hash", tokenHash);
    },
    async auditorByName(name) {
      await c.ready();
      return one("name", name);
    },
    async auditorUsed(name) {
      await c.ready();
      c.sql("UPDATE gate_auditors SET last_used_at = ? WHERE name = ?").run(c.now(), name);
    },
  };
}
