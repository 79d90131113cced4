import type { AuditorKeys } from "../../domain/store/auditor-keys.js";
import { AUDITOR_COLUMNS, type AuditorRow, toAuditor, withoutHash } from "../auditor-sql.js";
import type { PgConnection } from "./connection.js";

/**
 * The auditors and their hashed tokens, on PostgreSQL (`gate_auditors`).
 *
 * @example await pgAuditorKeys(connection).auditors();
 */
export function pgAuditorKeys(c: PgConnection): AuditorKeys {
  const one = async (where: string, value: string) => {
    const [row] = await c.rows<AuditorRow>(`SELECT ${AUDITOR_COLUMNS} FROM gate_auditors WHERE ${where} = $1`, [value]);
    return row ? toAuditor(row) : undefined;
  };
  return {
    async addAuditor(name, tokenHash) {
      const n = await c.changed(
        "INSERT INTO gate_auditors (name, token_hash, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        [name, tokenHash, c.now()],
      );
      return n === 1;
    },
    async auditors() {
      const rows = await c.rows<AuditorRow>(`SELECT ${AUDITOR_COLUMNS} FROM gate_auditors ORDER BY name`);
      return rows.map((r) => withoutHash(toAuditor(r)));
    },
    async revokeAuditor(name) {
      const n = await c.changed("UPDATE gate_auditors SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL", [
        c.now(),
        name,
      ]);
      return n === 1;
    },
    auditorByTokenHash: (tokenHash) => one("token_hash", tokenHash),
    auditorByName: (name) => one("name", name),
    async auditorUsed(name) {
      await c.changed("UPDATE gate_auditors SET last_used_at = $1 WHERE name = $2", [c.now(), name]);
    },
  };
}
