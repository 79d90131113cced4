import type { ResumeValue } from "../review.js";

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
  audit(entry: AuditInput): Promise<void>;
  auditFor(reviewId: string): Promise<AuditEntry[]>;
}
