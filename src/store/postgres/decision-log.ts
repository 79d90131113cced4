import type { AuditEntry, DecisionLog } from "../../domain/store/decision-log.js";
import { type DecisionRow, fromDecisionRow, PENDING_DECISIONS } from "../rows.js";
import type { PgConnection } from "./connection.js";

/**
 * Received decisions and the append-only audit log on PostgreSQL (`gate_decisions`, `gate_audit`).
 *
 * @example await pgDecisionLog(connection).pendingDecisions("r-1");
 */
export function pgDecisionLog(c: PgConnection): DecisionLog {
  return {
    async storeDecision(reviewId, resume, door) {
      await c.changed(
        "INSERT INTO gate_decisions (review_id, resume_json, door, received_at) VALUES ($1, $2, $3, $4)",
        [reviewId, JSON.stringify(resume), door, c.now()],
      );
    },
    async pendingDecisions(reviewId) {
      const rows =
        reviewId === undefined
          ? await c.rows<DecisionRow>(`${PENDING_DECISIONS} ORDER BY seq`)
          : await c.rows<DecisionRow>(`${PENDING_DECISIONS} AND review_id = $1 ORDER BY seq`, [reviewId]);
      return rows.map(fromDecisionRow);
    },
    async markApplied(reviewId) {
      const n = await c.changed(
        "UPDATE gate_decisions SET applied_at = $1 WHERE review_id = $2 AND applied_at IS NULL",
        [c.now(), reviewId],
      );
      return n > 0;
    },
    async audit(entry) {
      await c.changed(
        "INSERT INTO gate_audit (review_id, at, actor, action, outcome, detail) VALUES ($1, $2, $3, $4, $5, $6)",
        [entry.reviewId, c.now(), entry.actor, entry.action, entry.outcome, JSON.stringify(entry.detail ?? {})],
      );
    },
    async auditFor(reviewId) {
      const rows = await c.rows<Omit<AuditEntry, "detail" | "seq"> & { seq: string; detail: string }>(
        "SELECT * FROM gate_audit WHERE review_id = $1 ORDER BY seq",
        [reviewId],
      );
      return rows.map((r) => ({ ...r, seq: Number(r.seq), detail: JSON.parse(r.detail) as Record<string, unknown> }));
    },
  };
}
