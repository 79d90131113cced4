import { chainOf, chainedEntry } from "../../domain/audit-chain.js";
import type {
  AuditChainHead,
  AuditEntry,
  AuditInput,
  ChainedAuditRow,
  DecisionLog,
} from "../../domain/store/decision-log.js";
import { AUDIT_COLUMNS, auditedWithStatusSql, chainPageSql } from "../audit-sql.js";
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
      // Under SQLite's write lock (BEGIN IMMEDIATE, or a savepoint of the transaction holding it):
      // another process's append waits, so the head read here is the chain's last entry.
      c.db.transaction(() => appendAudit(c, entry)).immediate();
    },
    async auditFor(reviewId) {
      await c.ready();
      const rows = c
        .sql(`SELECT ${AUDIT_COLUMNS} FROM gate_audit WHERE review_id = ? ORDER BY seq`)
        .all(reviewId) as Array<Omit<AuditEntry, "detail"> & { detail: string }>;
      return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
    },
    async auditedWithStatus(action, ...statuses) {
      await c.ready();
      if (statuses.length === 0) return new Set();
      const rows = c
        .sql(auditedWithStatusSql(`r.status IN (${statuses.map(() => "?").join(",")})`, "?"))
        .all(...statuses, action) as Array<{ review_id: string }>;
      return new Set(rows.map((r) => r.review_id));
    },
    async auditChains() {
      await c.ready();
      const chains = c.sql("SELECT DISTINCT chain FROM gate_audit ORDER BY chain").all() as Array<{
        chain: string | null;
      }>;
      const heads = c.sql("SELECT chain, seq, hash FROM gate_audit_heads ORDER BY chain").all() as AuditChainHead[];
      return { chains: chains.map((r) => r.chain), heads };
    },
    async auditChainPage(chain, afterSeq, limit) {
      await c.ready();
      const sql = c.sql(chainPageSql(chain === null, "?", "?", "?"));
      return (chain === null ? sql.all(afterSeq, limit) : sql.all(chain, afterSeq, limit)) as ChainedAuditRow[];
    },
  };
}

/** Appends one entry to its chain: the caller holds the write lock. */
function appendAudit(c: SqliteConnection, entry: AuditInput): void {
  const review = c.sql("SELECT repo FROM gate_reviews WHERE id = ?").get(entry.reviewId) as
    | { repo: string }
    | undefined;
  const chain = chainOf(review?.repo);
  const head = c.sql("SELECT hash FROM gate_audit_heads WHERE chain = ?").get(chain) as { hash: string } | undefined;
  // The number AUTOINCREMENT would give, taken first: the hash covers it.
  const { seq } = c
    .sql(
      `SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'gate_audit'), 0),
                  COALESCE((SELECT MAX(seq) FROM gate_audit), 0)) + 1 AS seq`,
    )
    .get() as { seq: number };
  const { fields: row, prevHash, hash } = chainedEntry(entry, { seq, chain, at: c.now(), headHash: head?.hash });
  c.sql(
    `INSERT INTO gate_audit (seq, chain, review_id, at, actor, action, outcome, detail, prev_hash, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(seq, chain, row.review_id, row.at, row.actor, row.action, row.outcome, row.detail, prevHash, hash);
  c.sql(
    `INSERT INTO gate_audit_heads (chain, seq, hash) VALUES (?, ?, ?)
     ON CONFLICT (chain) DO UPDATE SET seq = excluded.seq, hash = excluded.hash`,
  ).run(chain, seq, hash);
}
