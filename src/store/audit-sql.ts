/** The columns of an audit entry as `auditFor` returns it (not its chain's links). */
export const AUDIT_COLUMNS = "seq, review_id, at, actor, action, outcome, detail";

/**
 * One page of a chain's rows, in sequence order, with each review's PR, in SQL both databases
 * read alike; `nullChain` asks for the rows written without a chain (then the chain takes no
 * parameter).
 *
 * @example chainPageSql(false, "$1", "$2", "$3")
 */
export function chainPageSql(nullChain: boolean, chain: string, afterSeq: string, limit: string): string {
  return `SELECT a.seq, a.chain, a.review_id, a.at, a.actor, a.action, a.outcome, a.detail, a.prev_hash, a.hash,
      r.pr AS pr
    FROM gate_audit a LEFT JOIN gate_reviews r ON r.id = a.review_id
    WHERE ${nullChain ? "a.chain IS NULL" : `a.chain = ${chain}`} AND a.seq > ${afterSeq}
    ORDER BY a.seq LIMIT ${limit}`;
}

/**
 * What the chain adds to the audit log, in both databases (migration 6): each entry's chain, the
 * hash of the entry before it and its own (null only on rows written without them), an index to
 * walk a chain, and each chain's head (its last entry), which moves only forward.
 */
export const AUDIT_CHAIN_COLUMNS = `ALTER TABLE gate_audit ADD COLUMN chain TEXT;
ALTER TABLE gate_audit ADD COLUMN prev_hash TEXT;
ALTER TABLE gate_audit ADD COLUMN hash TEXT;
CREATE INDEX gate_audit_chain ON gate_audit (chain, seq);
CREATE TABLE gate_audit_heads (
  chain TEXT PRIMARY KEY,
  seq BIGINT NOT NULL,
  hash TEXT NOT NULL
);`;

/** The rows written before the chain, with their review's repository, for the migration to chain. */
export const UNCHAINED_ROWS = `SELECT a.seq, a.review_id, a.at, a.actor, a.action, a.outcome, a.detail, r.repo
  FROM gate_audit a LEFT JOIN gate_reviews r ON r.id = a.review_id ORDER BY a.seq`;

/**
 * The ids of the reviews whose status passes `statusTest` with an audit entry of `action`: each
 * review found by the status index, its entries by the review's (`auditedWithStatus`).
 *
 * @example auditedWithStatusSql("r.status IN (?)", "?")
 */
export function auditedWithStatusSql(statusTest: string, action: string): string {
  return `SELECT DISTINCT a.review_id FROM gate_reviews r JOIN gate_audit a ON a.review_id = r.id
    WHERE ${statusTest} AND a.action = ${action}`;
}
