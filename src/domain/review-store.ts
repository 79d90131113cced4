import type { AuditorKeys } from "./store/auditor-keys.js";
import type { ChangeLedger } from "./store/change-ledger.js";
import type { ConfigKeeping } from "./store/config-keeping.js";
import type { DecisionLog } from "./store/decision-log.js";
import type { DeliveryInbox } from "./store/delivery-inbox.js";
import type { LookupCache } from "./store/lookup-cache.js";
import type { ReviewRecords } from "./store/review-records.js";
import type { SlackMemory } from "./store/slack-memory.js";

export type { AuditorKey, AuditorKeys, AuditorRecord } from "./store/auditor-keys.js";
export type { ChangeInput, ChangeLedger, StoredChange } from "./store/change-ledger.js";
export type { ConfigKeeping } from "./store/config-keeping.js";
export type { AuditEntry, AuditInput, DecisionLog, PendingDecision } from "./store/decision-log.js";
export type { DeliveryInbox, InboxEntry } from "./store/delivery-inbox.js";
export type { LookupCache } from "./store/lookup-cache.js";
export type { ReviewRecords, ReviewRegistration } from "./store/review-records.js";
export type { SlackMemory } from "./store/slack-memory.js";

/**
 * The gate's own state, whatever holds it (SQLite by default, PostgreSQL for several replicas),
 * as its pieces by role (each in domain/store/): review records and results, the delivery inbox,
 * decisions and the audit log, Slack's memory, the licence/advisory cache, the configuration
 * shelf, the changes that reached a default branch (the evidence), the auditors. Every method is asynchronous; a unit of work that must be all-or-nothing runs in
 * `transaction`, on the `tx` it is given.
 *
 * @example await store.transaction(async (tx) => (await tx.recordDelivery(id, "pull_request")) && tx.register(r));
 */
export interface ReviewStore
  extends ReviewRecords,
    DeliveryInbox,
    DecisionLog,
    SlackMemory,
    LookupCache,
    ConfigKeeping,
    ChangeLedger,
    AuditorKeys {
  /**
   * Runs `work` in one transaction: all of its writes, or none when it throws. Inside, use only
   * `tx` (the same store, bound to the transaction); a transaction inside `work` joins this one.
   */
  transaction<T>(work: (tx: ReviewStore) => Promise<T>): Promise<T>;
}
