import type { ReviewResult, ReviewStatus } from "./review-result.js";
import type { ReviewSource } from "./review-source.js";
import type { PublishReceipt, ResumeValue, ReviewRecord } from "./review.js";

/** What registering a review needs. */
export interface ReviewRegistration {
  source: ReviewSource;
  repo: string;
  number: number;
  headSha: string;
  title?: string;
  url?: string;
  author?: string;
  installationId?: number;
  /** When the PR changed to this head, per GitHub (a webhook's `pull_request.updated_at`). */
  eventAt?: string;
}

/**
 * What a `pull_request` delivery asks of the gate, kept with the delivery until its review is
 * registered (the delivery inbox): written before GitHub gets its answer, taken (and deleted) by
 * the `register` job that registers the review after it.
 */
export interface InboxEntry {
  /** The review to register. */
  review: ReviewRegistration;
  /** An `edited` delivery that moved the PR to another base: the same head now has another diff. */
  baseChanged: boolean;
}

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
 * The gate's own state, whatever holds it (SQLite by default, PostgreSQL for several replicas):
 * reviews, webhook deliveries already seen, received decisions, the append-only audit log and
 * the licence cache. Every method is asynchronous; a unit of work that must be all-or-nothing
 * runs in `transaction`, on the `tx` it is given.
 *
 * @example await store.transaction(async (tx) => (await tx.recordDelivery(id, "pull_request")) && tx.register(r));
 */
export interface ReviewStore {
  /** Registers a review before it runs, so `status` can say "queued" (docs/design.md, reason 9). */
  register(input: ReviewRegistration & { id: string; pr: string }): Promise<ReviewRecord>;
  get(id: string): Promise<ReviewRecord | undefined>;
  source(id: string): Promise<ReviewSource | undefined>;
  /** The newest review of `owner/repo#n`. */
  latestForPr(pr: string): Promise<ReviewRecord | undefined>;
  /** Every review of `owner/repo#n`, newest first (a push or a re-run adds one). */
  allForPr(pr: string): Promise<ReviewRecord[]>;
  /** Reviews of a PR that are not finished (queued, running or waiting), oldest first. */
  openForPr(pr: string): Promise<ReviewRecord[]>;
  /** Reviews in any of these statuses, oldest first. */
  withStatus(...statuses: ReviewStatus[]): Promise<ReviewRecord[]>;
  setStatus(id: string, status: ReviewStatus): Promise<void>;
  /**
   * Sets a review's status unless a push superseded it or its PR was closed (such a review stays
   * so); false when it was.
   */
  setStatusUnlessSuperseded(id: string, status: ReviewStatus): Promise<boolean>;
  /**
   * Runs `work` in one transaction: all of its writes, or none when it throws. Inside, use only
   * `tx` (the same store, bound to the transaction); a transaction inside `work` joins this one.
   */
  transaction<T>(work: (tx: ReviewStore) => Promise<T>): Promise<T>;
  /**
   * Moves a review from one status to another only if it is still in `from`: the one winner of a
   * race (two clicks, two processes) gets true.
   */
  claim(id: string, from: ReviewStatus, to: ReviewStatus): Promise<boolean>;
  /** Ends a review because its PR was closed: no decision, it stops gating. */
  close(id: string): Promise<void>;
  supersede(id: string, bySha: string): Promise<void>;
  /** Saves the result the graph concluded (what should be published). */
  saveResult(id: string, result: ReviewResult): Promise<void>;
  lastResult(id: string): Promise<ReviewResult | undefined>;
  /** Records what a publisher created (a Slack message, a check run), so it is updated, never created twice. */
  recordReceipt(id: string, receipt: PublishReceipt): Promise<void>;
  /**
   * Records that a Slack card is about to be posted for this review (kept once set: the first
   * attempt's time), so a restart looks for that card before posting another.
   */
  recordSlackPostIntent(id: string, at: string): Promise<void>;
  /**
   * Claims one message of a PR's Slack thread (a mention per head, a decision, a reminder): true
   * the first time a key is claimed, false ever after, so a restart or a second publish never
   * says it twice.
   *
   * @example if (await store.claimSlackNote(`ask:acme/web#1:${sha}`, review.id)) await post(...);
   */
  claimSlackNote(key: string, reviewId: string): Promise<boolean>;
  /** Remembers a Slack user's display name (the newest wins). */
  recordPerson(slackId: string, name: string): Promise<void>;
  /** A Slack user's display name, when one was recorded. */
  personName(slackId: string): Promise<string | undefined>;
  /** Records that every publisher showed this result. */
  markPublished(id: string, result: ReviewResult): Promise<void>;
  /**
   * Reviews whose saved result differs from what was last published (a crash in between), oldest
   * first; only `reviewId`, if it is one, when given. Reads only such reviews (an index holds
   * them), never the settled history.
   */
  unpublished(reviewId?: string): Promise<ReviewRecord[]>;
  /**
   * Records a webhook delivery, with what it asks of the gate if anything (kept until
   * `takeFromInbox`); false when it was seen before (a redelivery: nothing is written).
   */
  recordDelivery(id: string, event: string, entry?: InboxEntry): Promise<boolean>;
  hasDelivery(id: string): Promise<boolean>;
  /** Takes a delivery's inbox entry: returns it and deletes it, once (undefined when none is left). */
  takeFromInbox(deliveryId: string): Promise<InboxEntry | undefined>;
  /** The deliveries whose inbox entry is not taken yet (a crash, a replica stopped), oldest first. */
  inboxDeliveries(): Promise<string[]>;
  /**
   * Takes a person's decision for a waiting review, durably, in one transaction: the review moves
   * waiting → running (the cross-process claim: false when another decision has it), the decision
   * is stored as not yet applied, and the audit log says "received". After a crash,
   * `pendingDecisions` finds it again.
   */
  receiveDecision(reviewId: string, resume: ResumeValue, door: string): Promise<boolean>;
  /**
   * Decisions received and not yet applied (after a crash), oldest first; only `reviewId`'s when
   * given. Reads only such decisions (an index holds them), never the applied history.
   */
  pendingDecisions(reviewId?: string): Promise<Array<{ reviewId: string; resume: ResumeValue; door: string }>>;
  /** Marks a review's received decision applied, with an "applied" audit entry, once. */
  markDecisionApplied(reviewId: string, resume: ResumeValue, outcome: string): Promise<void>;
  audit(entry: AuditInput): Promise<void>;
  auditFor(reviewId: string): Promise<AuditEntry[]>;
  /** The licence cache: undefined = never asked; null = asked, unknown. */
  cachedLicense(key: string): Promise<string | null | undefined>;
  cacheLicense(key: string, license: string | null): Promise<void>;
  /**
   * Keeps a review configuration's JSON under its digest, once: reviews that ran with the same
   * configuration share one copy (their graph state holds only the digest).
   */
  keepConfig(digest: string, json: string): Promise<void>;
  /** The configuration JSON kept under a digest; undefined when none was. */
  configJson(digest: string): Promise<string | undefined>;
}
