import type { ResumeValue } from "../review.js";
import type { ReviewStatus } from "../review-result.js";

/** One audit entry: who did what to which review, and what came of it. Append-only. */
export interface AuditEntry {
  seq: number;
  review_id: string;
  at: string;
  actor: string;
  action: string;
  outcome: string;
  detail: Record<string, unknown>;
}

/** An audit entry as it is appended (the store stamps the sequence number and the time). */
export interface AuditInput {
  reviewId: string;
  actor: string;
  action: string;
  outcome: string;
  detail?: Record<string, unknown>;
}

/**
 * An audit row as the chain's verifier reads it: every stored field, its links, and its review's
 * PR (null when no review has its id). `chain`, `prev_hash` and `hash` are null only on a row
 * written without them (by a gate older than the chain, or by hand).
 */
export interface ChainedAuditRow {
  seq: number;
  chain: string | null;
  review_id: string;
  at: string;
  actor: string;
  action: string;
  outcome: string;
  /** The stored JSON text, as stored. */
  detail: string;
  prev_hash: string | null;
  hash: string | null;
  pr: string | null;
}

/** A chain's head as recorded when its last entry was appended. */
export interface AuditChainHead {
  chain: string;
  seq: number;
  hash: string;
}

/** A decision received and not applied yet. */
export interface PendingDecision {
  reviewId: string;
  resume: ResumeValue;
  door: string;
}

/**
 * People's decisions as they are received and applied, and the append-only audit log. The store
 * keeps them; what the audit log says of each step is the decision code's
 * (src/review/audit-entries.ts).
 *
 * @example if (await tx.claim(id, "waiting_for_human", "running")) await tx.storeDecision(id, resume, "slack");
 */
export interface DecisionLog {
  /** Stores a received decision as not yet applied (after a crash, `pendingDecisions` finds it). */
  storeDecision(reviewId: string, resume: ResumeValue, door: string): Promise<void>;
  /**
   * Decisions received and not yet applied (after a crash), oldest first; only `reviewId`'s when
   * given. Reads only such decisions (an index holds them), never the applied history.
   */
  pendingDecisions(reviewId?: string): Promise<PendingDecision[]>;
  /** Marks a review's received decision applied; true when one was waiting (false: it was applied already). */
  markApplied(reviewId: string): Promise<boolean>;
  /**
   * Appends an entry to its chain (its review's repository owner, src/domain/audit-chain.ts):
   * stamped with the next sequence number and the time, it carries the hash of the chain's last
   * entry and its own, and becomes the chain's head. Appends to one chain take turns (a lock on
   * the chain's head until the transaction ends), so the chain never forks.
   */
  audit(entry: AuditInput): Promise<void>;
  auditFor(reviewId: string): Promise<AuditEntry[]>;
  /**
   * The ids of the reviews in one of `statuses` whose audit log holds an entry of `action`: one
   * query (each review's entries found by its index), so a sweep reads `auditFor` only for them.
   */
  auditedWithStatus(action: string, ...statuses: ReviewStatus[]): Promise<Set<string>>;
  /** Every chain the audit log holds (null: rows written without one) and every recorded head. */
  auditChains(): Promise<{ chains: Array<string | null>; heads: AuditChainHead[] }>;
  /** Up to `limit` rows of one chain (null: the unchained rows) after `afterSeq`, in sequence order. */
  auditChainPage(chain: string | null, afterSeq: number, limit: number): Promise<ChainedAuditRow[]>;
}
