import type Database from "better-sqlite3";
import type { Clock } from "../domain/clock.js";
import type { ReviewSource } from "../domain/review-source.js";
import type { ReviewResult, ReviewStatus } from "../domain/review-result.js";
import type { PublishReceipt, ResumeValue, ReviewRecord } from "../domain/review.js";

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

interface ReviewRow {
  id: string;
  pr: string;
  repo: string;
  number: number;
  head_sha: string;
  title: string;
  url: string;
  author: string;
  source: "fixture" | "github";
  source_json: string;
  status: ReviewStatus;
  created_at: string;
  updated_at: string;
  slack_channel: string | null;
  slack_ts: string | null;
  check_run_id: number | null;
  superseded_by: string | null;
  installation_id: number | null;
  result_json: string | null;
  published_json: string | null;
  event_at: string | null;
  slack_post_started_at: string | null;
  slack_thread_ts: string | null;
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

function toRecord(r: ReviewRow): ReviewRecord {
  return {
    id: r.id,
    pr: r.pr,
    repo: r.repo,
    number: r.number,
    headSha: r.head_sha,
    title: r.title,
    url: r.url,
    author: r.author,
    status: r.status,
    source: r.source,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    ...(r.slack_channel ? { slackChannel: r.slack_channel } : {}),
    ...(r.slack_ts ? { slackTs: r.slack_ts } : {}),
    ...(r.check_run_id !== null ? { checkRunId: r.check_run_id } : {}),
    ...(r.superseded_by ? { supersededBy: r.superseded_by } : {}),
    ...(r.installation_id !== null ? { installationId: r.installation_id } : {}),
    ...(r.event_at ? { eventAt: r.event_at } : {}),
    ...(r.slack_post_started_at ? { slackPostStartedAt: r.slack_post_started_at } : {}),
    ...(r.slack_thread_ts ? { slackThreadTs: r.slack_thread_ts } : {}),
  };
}

/**
 * The app's tables: reviews, webhook deliveries already seen, the audit log, the licence cache.
 *
 * @example const store = new ReviewStore(openDatabase(path), systemClock);
 */
export class ReviewStore {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock,
  ) {}

  private now(): string {
    return this.clock().toISOString();
  }

  /** Registers a review before it runs, so `status` can say "queued" (docs/design.md, reason 9). */
  register(input: ReviewRegistration & { id: string; pr: string }): ReviewRecord {
    const now = this.now();
    this.db
      .prepare(
        `INSERT INTO gate_reviews (id, pr, repo, number, head_sha, title, url, author, source, source_json, status,
           created_at, updated_at, installation_id, event_at)
         VALUES (@id, @pr, @repo, @number, @headSha, @title, @url, @author, @kind, @sourceJson, 'queued', @now, @now, @inst, @eventAt)`,
      )
      .run({
        id: input.id,
        pr: input.pr,
        repo: input.repo,
        number: input.number,
        headSha: input.headSha,
        title: input.title ?? "",
        url: input.url ?? "",
        author: input.author ?? "",
        kind: input.source.kind,
        sourceJson: JSON.stringify(input.source),
        now,
        inst: input.installationId ?? null,
        eventAt: input.eventAt ?? null,
      });
    return this.get(input.id)!;
  }

  get(id: string): ReviewRecord | undefined {
    const row = this.db.prepare(`SELECT * FROM gate_reviews WHERE id = ?`).get(id) as ReviewRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  source(id: string): ReviewSource | undefined {
    const row = this.db.prepare(`SELECT source_json FROM gate_reviews WHERE id = ?`).get(id) as
      | { source_json: string }
      | undefined;
    return row ? (JSON.parse(row.source_json) as ReviewSource) : undefined;
  }

  /** The newest review of `owner/repo#n`. */
  latestForPr(pr: string): ReviewRecord | undefined {
    const row = this.db
      .prepare(`SELECT * FROM gate_reviews WHERE pr = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`)
      .get(pr) as ReviewRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Every review of `owner/repo#n`, newest first (a push or a re-run adds one). */
  allForPr(pr: string): ReviewRecord[] {
    const rows = this.db
      .prepare(`SELECT * FROM gate_reviews WHERE pr = ? ORDER BY created_at DESC, rowid DESC`)
      .all(pr) as ReviewRow[];
    return rows.map(toRecord);
  }

  /** Reviews of a PR that are not finished (queued, running or waiting), oldest first. */
  openForPr(pr: string): ReviewRecord[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM gate_reviews WHERE pr = ? AND status IN ('queued','running','waiting_for_human')
         ORDER BY created_at, rowid`,
      )
      .all(pr) as ReviewRow[];
    return rows.map(toRecord);
  }

  withStatus(...statuses: ReviewStatus[]): ReviewRecord[] {
    const marks = statuses.map(() => "?").join(",");
    const rows = this.db
      .prepare(`SELECT * FROM gate_reviews WHERE status IN (${marks}) ORDER BY created_at, rowid`)
      .all(...statuses) as ReviewRow[];
    return rows.map(toRecord);
  }

  setStatus(id: string, status: ReviewStatus): void {
    this.db.prepare(`UPDATE gate_reviews SET status = ?, updated_at = ? WHERE id = ?`).run(status, this.now(), id);
  }

  /**
   * Sets a review's status unless a push superseded it or its PR was closed (such a review stays
   * so); false when it was.
   */
  setStatusUnlessSuperseded(id: string, status: ReviewStatus): boolean {
    const r = this.db
      .prepare(
        `UPDATE gate_reviews SET status = ?, updated_at = ? WHERE id = ? AND status NOT IN ('superseded', 'closed')`,
      )
      .run(status, this.now(), id);
    return r.changes === 1;
  }

  /**
   * Runs `work` in one SQLite transaction: all of its writes, or none when it throws. `work` must
   * be synchronous (better-sqlite3 transactions cannot span an await).
   *
   * @example store.transaction(() => store.recordDelivery(id, "pull_request") && store.register(...));
   */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  /**
   * Moves a review from one status to another only if it is still in `from`: the one winner of a
   * race (two clicks, two processes) gets true.
   */
  claim(id: string, from: ReviewStatus, to: ReviewStatus): boolean {
    const r = this.db
      .prepare(`UPDATE gate_reviews SET status = ?, updated_at = ? WHERE id = ? AND status = ?`)
      .run(to, this.now(), id, from);
    return r.changes === 1;
  }

  /** Ends a review because its PR was closed: no decision, it stops gating. */
  close(id: string): void {
    this.db.prepare(`UPDATE gate_reviews SET status = 'closed', updated_at = ? WHERE id = ?`).run(this.now(), id);
  }

  supersede(id: string, bySha: string): void {
    this.db
      .prepare(`UPDATE gate_reviews SET status = 'superseded', superseded_by = ?, updated_at = ? WHERE id = ?`)
      .run(bySha, this.now(), id);
  }

  /** Saves the result the graph concluded (what should be published). */
  saveResult(id: string, result: ReviewResult): void {
    this.db
      .prepare(`UPDATE gate_reviews SET result_json = ?, updated_at = ? WHERE id = ?`)
      .run(JSON.stringify(result), this.now(), id);
  }

  lastResult(id: string): ReviewResult | undefined {
    const row = this.db.prepare(`SELECT result_json FROM gate_reviews WHERE id = ?`).get(id) as
      | { result_json: string | null }
      | undefined;
    return row?.result_json ? (JSON.parse(row.result_json) as ReviewResult) : undefined;
  }

  /** Records what a publisher created (a Slack message, a check run), so it is updated, never created twice. */
  recordReceipt(id: string, receipt: PublishReceipt): void {
    this.db
      .prepare(
        `UPDATE gate_reviews SET
           slack_channel = COALESCE(@slackChannel, slack_channel),
           slack_ts = COALESCE(@slackTs, slack_ts),
           slack_thread_ts = COALESCE(@slackThreadTs, slack_thread_ts),
           check_run_id = COALESCE(@checkRunId, check_run_id)
         WHERE id = @id`,
      )
      .run({
        id,
        slackChannel: receipt.slackChannel ?? null,
        slackTs: receipt.slackTs ?? null,
        slackThreadTs: receipt.slackThreadTs ?? null,
        checkRunId: receipt.checkRunId ?? null,
      });
  }

  /**
   * Records that a Slack card is about to be posted for this review (kept once set: the first
   * attempt's time), so a restart looks for that card before posting another.
   */
  recordSlackPostIntent(id: string, at: string): void {
    this.db
      .prepare(`UPDATE gate_reviews SET slack_post_started_at = COALESCE(slack_post_started_at, ?) WHERE id = ?`)
      .run(at, id);
  }

  /**
   * Claims one message of a PR's Slack thread (a mention per head, a decision, a reminder): true
   * the first time a key is claimed, false ever after, so a restart or a second publish never
   * says it twice.
   *
   * @example if (store.claimSlackNote(`ask:acme/web#1:${sha}`, review.id)) await post(...);
   */
  claimSlackNote(key: string, reviewId: string): boolean {
    const r = this.db
      .prepare(`INSERT OR IGNORE INTO gate_slack_notes (key, review_id, at) VALUES (?, ?, ?)`)
      .run(key, reviewId, this.now());
    return r.changes === 1;
  }

  /** Whether a thread message was claimed (see `claimSlackNote`). */
  hasSlackNote(key: string): boolean {
    return this.db.prepare(`SELECT 1 FROM gate_slack_notes WHERE key = ?`).get(key) !== undefined;
  }

  /** Remembers a Slack user's display name (the newest wins). */
  recordPerson(slackId: string, name: string): void {
    this.db
      .prepare(`INSERT OR REPLACE INTO gate_people (slack_id, name, at) VALUES (?, ?, ?)`)
      .run(slackId, name, this.now());
  }

  /** A Slack user's display name, when one was recorded. */
  personName(slackId: string): string | undefined {
    const row = this.db.prepare(`SELECT name FROM gate_people WHERE slack_id = ?`).get(slackId) as
      | { name: string }
      | undefined;
    return row?.name;
  }

  /** Records that every publisher showed this result. */
  markPublished(id: string, result: ReviewResult): void {
    this.db.prepare(`UPDATE gate_reviews SET published_json = ? WHERE id = ?`).run(JSON.stringify(result), id);
  }

  /** Reviews whose saved result differs from what was last published (a crash in between). */
  unpublished(): ReviewRecord[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM gate_reviews WHERE result_json IS NOT NULL
           AND (published_json IS NULL OR published_json <> result_json) ORDER BY created_at`,
      )
      .all() as ReviewRow[];
    return rows.map(toRecord);
  }

  /** Records a webhook delivery; false when it was seen before (a redelivery). */
  recordDelivery(id: string, event: string): boolean {
    const r = this.db
      .prepare(`INSERT OR IGNORE INTO gate_deliveries (id, event, received_at) VALUES (?, ?, ?)`)
      .run(id, event, this.now());
    return r.changes === 1;
  }

  hasDelivery(id: string): boolean {
    return this.db.prepare(`SELECT 1 FROM gate_deliveries WHERE id = ?`).get(id) !== undefined;
  }

  /**
   * Takes a person's decision for a waiting review, durably, in one transaction: the review moves
   * waiting → running (the cross-process claim: false when another decision has it), the decision
   * is stored as not yet applied, and the audit log says "received". After a crash, `pendingDecisions`
   * finds it again.
   *
   * @example if (!store.receiveDecision("r-1", { kind: "approve", by: "alice" }, "cli")) refuse("busy");
   */
  receiveDecision(reviewId: string, resume: ResumeValue, door: string): boolean {
    return this.transaction(() => {
      if (!this.claim(reviewId, "waiting_for_human", "running")) return false;
      this.db
        .prepare(`INSERT INTO gate_decisions (review_id, resume_json, door, received_at) VALUES (?, ?, ?, ?)`)
        .run(reviewId, JSON.stringify(resume), door, this.now());
      const detail = resume.kind === "info" ? { question: resume.question } : { note: resume.note ?? "" };
      this.audit({ reviewId, actor: resume.by, action: resume.kind, outcome: "received", detail: { door, ...detail } });
      return true;
    });
  }

  /** Decisions received and not yet applied, oldest first (after a crash). */
  pendingDecisions(): Array<{ reviewId: string; resume: ResumeValue; door: string }> {
    const rows = this.db
      .prepare(`SELECT review_id, resume_json, door FROM gate_decisions WHERE applied_at IS NULL ORDER BY seq`)
      .all() as Array<{ review_id: string; resume_json: string; door: string }>;
    return rows.map((r) => ({ reviewId: r.review_id, resume: JSON.parse(r.resume_json) as ResumeValue, door: r.door }));
  }

  /** Marks a review's received decision applied, with an "applied" audit entry, once. */
  markDecisionApplied(reviewId: string, resume: ResumeValue, outcome: string): void {
    this.transaction(() => {
      const r = this.db
        .prepare(`UPDATE gate_decisions SET applied_at = ? WHERE review_id = ? AND applied_at IS NULL`)
        .run(this.now(), reviewId);
      if (r.changes > 0)
        this.audit({
          reviewId,
          actor: resume.by,
          action: resume.kind,
          outcome: "applied",
          detail: { result: outcome },
        });
    });
  }

  audit(entry: {
    reviewId: string;
    actor: string;
    action: string;
    outcome: string;
    detail?: Record<string, unknown>;
  }): void {
    this.db
      .prepare(`INSERT INTO gate_audit (review_id, at, actor, action, outcome, detail) VALUES (?, ?, ?, ?, ?, ?)`)
      .run(entry.reviewId, this.now(), entry.actor, entry.action, entry.outcome, JSON.stringify(entry.detail ?? {}));
  }

  auditFor(reviewId: string): AuditEntry[] {
    const rows = this.db.prepare(`SELECT * FROM gate_audit WHERE review_id = ? ORDER BY seq`).all(reviewId) as Array<
      Omit<AuditEntry, "detail"> & { detail: string }
    >;
    return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
  }

  /** The licence cache: undefined = never asked; null = asked, unknown. */
  cachedLicense(key: string): string | null | undefined {
    const row = this.db.prepare(`SELECT license FROM gate_license_cache WHERE key = ?`).get(key) as
      | { license: string | null }
      | undefined;
    return row === undefined ? undefined : row.license;
  }

  cacheLicense(key: string, license: string | null): void {
    this.db
      .prepare(`INSERT OR REPLACE INTO gate_license_cache (key, license, fetched_at) VALUES (?, ?, ?)`)
      .run(key, license, this.now());
  }
}
