import { chainOf, chainedEntry, GENESIS_HASH } from "../../domain/audit-chain.js";
import type { AuditEntry, AuditInput, ChainedAuditRow, DecisionLog } from "../../domain/store/decision-log.js";
import { AUDIT_COLUMNS, auditedWithStatusSql, chainPageSql } from "../audit-sql.js";
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
      // In the caller's transaction when there is one (the head stays locked until it ends).
      await c.transaction((tx) => appendAudit(tx, entry));
    },
    async auditFor(reviewId) {
      const rows = await c.rows<Omit<AuditEntry, "detail" | "seq"> & { seq: string; detail: string }>(
        `SELECT ${AUDIT_COLUMNS} FROM gate_audit WHERE review_id = $1 ORDER BY seq`,
        [reviewId],
      );
      return rows.map((r) => ({ ...r, seq: Number(r.seq), detail: JSON.parse(r.detail) as Record<string, unknown> }));
    },
    async auditedWithStatus(action, ...statuses) {
      if (statuses.length === 0) return new Set();
      const rows = await c.rows<{ review_id: string }>(auditedWithStatusSql("r.status = ANY($1)", "$2"), [
        statuses,
        action,
      ]);
      return new Set(rows.map((r) => r.review_id));
    },
    async auditChains() {
      const chains = await c.rows<{ chain: string | null }>("SELECT DISTINCT chain FROM gate_audit ORDER BY chain");
      const heads = await c.rows<{ chain: string; seq: string; hash: string }>(
        "SELECT chain, seq, hash FROM gate_audit_heads ORDER BY chain",
      );
      return { chains: chains.map((r) => r.chain), heads: heads.map((h) => ({ ...h, seq: Number(h.seq) })) };
    },
    async auditChainPage(chain, afterSeq, limit) {
      const rows = await c.rows<Omit<ChainedAuditRow, "seq"> & { seq: string }>(
        chain === null ? chainPageSql(true, "", "$1", "$2") : chainPageSql(false, "$1", "$2", "$3"),
        chain === null ? [afterSeq, limit] : [chain, afterSeq, limit],
      );
      return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
    },
  };
}

/**
 * Appends one entry to its chain inside a transaction. The chain's head row is locked first
 * (SELECT ... FOR UPDATE, created if the chain is new): a second replica appending to the same
 * chain waits there until this transaction ends, then reads the head this one wrote, so the
 * chain never forks. The sequence number is taken under the lock, so a chain's order is its
 * sequence order.
 */
async function appendAudit(tx: PgConnection, entry: AuditInput): Promise<void> {
  const [review] = await tx.rows<{ repo: string }>("SELECT repo FROM gate_reviews WHERE id = $1", [entry.reviewId]);
  const chain = chainOf(review?.repo);
  await tx.changed(
    "INSERT INTO gate_audit_heads (chain, seq, hash) VALUES ($1, 0, $2) ON CONFLICT (chain) DO NOTHING",
    [chain, GENESIS_HASH],
  );
  const [head] = await tx.rows<{ hash: string }>("SELECT hash FROM gate_audit_heads WHERE chain = $1 FOR UPDATE", [
    chain,
  ]);
  const [next] = await tx.rows<{ seq: string }>("SELECT nextval(pg_get_serial_sequence('gate_audit', 'seq')) AS seq");
  const {
    fields: row,
    prevHash,
    hash,
  } = chainedEntry(entry, {
    seq: Number(next?.seq),
    chain,
    at: tx.now(),
    headHash: head?.hash,
  });
  await tx.changed(
    `INSERT INTO gate_audit (seq, chain, review_id, at, actor, action, outcome, detail, prev_hash, hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [row.seq, chain, row.review_id, row.at, row.actor, row.action, row.outcome, row.detail, prevHash, hash],
  );
  await tx.changed("UPDATE gate_audit_heads SET seq = $2, hash = $3 WHERE chain = $1", [chain, row.seq, hash]);
}
