import type { AuditEntry, DecisionLog } from "../../domain/store/decision-log.js";
import { type DecisionRow, fromDecisionRow, PENDING_DECISIONS } from "../rows.js";
import type { SqliteConnection } from "./connection.js";

/**
 * Received decisions and the append-only audit log on SQLite (`gate_decisions`, `gate_audit`).
 *
 * @example await sqliteDecisionLog(connection).pendingDecisions("r-1");
 */
export function sqliteDecisionLog(c: SqliteConnection): DecisionLog {
  return {
    async storeDecision(reviewId, resume, door) {
      await c.ready();
      c.sql(`INSERT INTO gate_decisions (review_id, resume_json, door, received_at) VALUES (?, ?, ?, ?)`).run(
        reviewId,
        JSON.stringify(resume),
        door,
        c.now(),
      );
    },
    async pendingDecisions(reviewId) {
      await c.ready();
      const rows = (
        reviewId === undefined
          ? c.sql(`${PENDING_DECISIONS} ORDER BY seq`).all()
          : c.sql(`${PENDING_DECISIONS} AND review_id = ? ORDER BY seq`).all(reviewId)
      ) as DecisionRow[];
      return rows.map(fromDecisionRow);
    },
    async markApplied(reviewId) {
      await c.ready();
      const r = c
        .sql(`UPDATE gate_decisions SET applied_at = ? WHERE review_id = ? AND applied_at IS NULL`)
        .run(c.now(), reviewId);
      return r.changes > 0;
    },
    async audit(entry) {
      await c.ready();
      c.sql(`INSERT INTO gate_audit (review_id, at, actor, action, outcome, detail) VALUES (?, ?, ?, ?, ?, ?)`).run(
        entry.reviewId,
        c.now(),
        entry.actor,
        entry.action,
        entry.outcome,
        JSON.stringify(entry.detail ?? {}),
      );
    },
    async auditFor(reviewId) {
      await c.ready();
      const rows = c.sql(`SELECT * FROM gate_audit WHERE review_id = ? ORDER BY seq`).all(reviewId) as Array<
        Omit<AuditEntry, "detail"> & { detail: string }
      >;
      return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
    },
  };
}
