import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import type Database from "better-sqlite3";
import type { Clock } from "../domain/clock.js";
import type { ReviewSource } from "../domain/review-source.js";
import type { ReviewResult, ReviewStatus } from "../domain/review-result.js";
import type { AuditEntry, AuditInput, InboxEntry, ReviewRegistration, ReviewStore } from "../domain/review-store.js";
import type { PublishReceipt, ResumeValue, ReviewRecord } from "../domain/review.js";
import {
  DELIVERIES,
  existsSql,
  insertInboxSql,
  insertOnceSql,
  type OnceTable,
  SLACK_NOTES,
  takeInboxSql,
} from "./once-keys.js";
import { type WalSync, walSync } from "./wal-sync.js";

/** A `gate_reviews` row as both databases return it (PostgreSQL's BIGINT columns made numbers first). */
export interface ReviewRow {
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

/** A `gate_reviews` row as the port's record. */
export function toRecord(r: ReviewRow): ReviewRecord {
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
 * A review whose saved result was not published. Said exactly as the partial index
 * `gate_reviews_unpublished` (migration 3 in either database) says it: a database uses that index
 * only for a query whose condition is the index's own, so the list reads only such reviews.
 */
export const UNPUBLISHED = "result_json IS NOT NULL AND (published_json IS NULL OR published_json <> result_json)";

/** A `gate_decisions` row as a pending decision is read from it. */
export interface DecisionRow {
  review_id: string;
  resume_json: string;
  door: string;
}

/**
 * A pending decision row as the port's.
 *
 * @example fromDecisionRow({ review_id: "r-1", resume_json: '{"kind":"approve","by":"alice"}', door: "slack" })
 */
export function fromDecisionRow(r: DecisionRow): { reviewId: string; resume: ResumeValue; door: string } {
  return { reviewId: r.review_id, resume: JSON.parse(r.resume_json) as ResumeValue, door: r.door };
}

/**
 * The audit entry of a decision received (through which door) or applied (with what result): the
 * same words in either database.
 *
 * @example decisionAudit("r-1", { kind: "approve", by: "alice" }, { received: "slack" })
 */
export function decisionAudit(
  reviewId: string,
  resume: ResumeValue,
  step: { received: string } | { applied: string },
): AuditInput {
  const base = { reviewId, actor: resume.by, action: resume.kind };
  if ("applied" in step) return { ...base, outcome: "applied", detail: { result: step.applied } };
  const detail = resume.kind === "info" ? { question: resume.question } : { note: resume.note ?? "" };
  return { ...base, outcome: "received", detail: { door: step.received, ...detail } };
}

/** The least time between the starts of two batches of transactions (`TransactionGate.due`). */
export const BATCH_SPACING_MS = 5;

/** How one transaction of a batch ended. */
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A transaction waiting for its batch (see `SqliteReviewStore.transaction`). */
interface Batched {
  work: (tx: ReviewStore) => Promise<unknown>;
  /**
   * The caller's async context: the work runs later, from the batch, but in it (with the
   * caller's AsyncLocalStorage values), as if it had run at once.
   */
  caller: AsyncResource;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Who holds the one SQLite connection's transaction. better-sqlite3 runs statements on one
 * connection, so while an asynchronous transaction is open every other caller waits for it
 * (its statements would otherwise land inside it, and be rolled back with it).
 */
export class TransactionGate {
  /**
   * @param flush how the WAL reaches the disk (see wal-sync.ts; a test wraps it to watch).
   * @param spacingMs the least time from one batch's start to the next's (see `due`).
   */
  constructor(
    private readonly flush?: (file: string) => Promise<void>,
    readonly spacingMs = BATCH_SPACING_MS,
  ) {}

  /** When (performance.now()) the last batch started. */
  lastBatch = Number.NEGATIVE_INFINITY;

  /**
   * How long a new batch waits before it starts: none when the last one started `spacingMs` ago
   * or more (a lone transaction commits at the end of its turn), else the rest of that time.
   * Transactions that come one after another (deliveries a client sends one by one, a
   * millisecond apart) then share a COMMIT and an fsync instead of paying one each: on the
   * development machine a delivery's transaction committed and fsynced alone costs about 220 µs
   * of CPU, one of a batch of 50 about 40 µs; a delivery waits at most `spacingMs` more.
   */
  due(now: number): number {
    return Math.max(0, this.lastBatch + this.spacingMs - now);
  }

  /** Settles when the open transaction ends; undefined when none is open. */
  open: Promise<void> | undefined;
  /** The open transaction's marker, seen by the work running inside it (it joins, never waits). */
  readonly inside = new AsyncLocalStorage<{ active: boolean }>();
  /** Transactions asked for during this turn of the event loop: they run together at its end. */
  readonly queued: Batched[] = [];
  /** A batch is due on the next check phase. */
  scheduled = false;
  private walOf: WalSync | null | undefined;
  /** The connection's WAL syncer, looked up once (null: not a WAL file at NORMAL; commits sync themselves or never). */
  wal(db: Database.Database): WalSync | undefined {
    if (this.walOf === undefined) this.walOf = walSync(db, this.flush) ?? null;
    return this.walOf ?? undefined;
  }
}

/** Each connection's prepared statements by their text (a transaction's bound store shares its connection's). */
const PREPARED = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * The review store on the gate's SQLite file (`gate_reviews`, `gate_deliveries`, `gate_audit`,
 * `gate_decisions`, `gate_license_cache`; see database.ts). Statements run synchronously on
 * better-sqlite3 behind the asynchronous port; `transaction` holds the connection for its work.
 *
 * @example const store = new SqliteReviewStore(openDatabase(path), systemClock);
 */
export class SqliteReviewStore implements ReviewStore {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock,
    private readonly gate = new TransactionGate(),
    /** True for the store handed to a transaction's work: its statements run inside it. */
    private readonly bound = false,
  ) {}

  /**
   * The prepared statement for `text`, compiled once per connection (compiling is most of a small
   * statement's cost: a webhook's answer runs several, a review dozens).
   */
  private sql(text: string): Database.Statement {
    const statements = PREPARED.get(this.db) ?? new Map<string, Database.Statement>();
    PREPARED.set(this.db, statements);
    const statement = statements.get(text) ?? this.db.prepare(text);
    statements.set(text, statement);
    return statement;
  }

  private now(): string {
    return this.clock().toISOString();
  }

  /** Waits until no transaction holds the connection (unless this call is part of it). */
  private async ready(): Promise<void> {
    if (this.bound || this.gate.inside.getStore()?.active) return;
    while (this.gate.open) await this.gate.open;
  }

  async register(input: ReviewRegistration & { id: string; pr: string }): Promise<ReviewRecord> {
    await this.ready();
    const now = this.now();
    const row = this.sql(
      `INSERT INTO gate_reviews (id, pr, repo, number, head_sha, title, url, author, source, source_json, status,
           created_at, updated_at, installation_id, event_at)
         VALUES (@id, @pr, @repo, @number, @headSha, @title, @url, @author, @kind, @sourceJson, 'queued', @now, @now, @inst, @eventAt)
         RETURNING *`,
    ).get({
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
    }) as ReviewRow;
    return toRecord(row);
  }

  async get(id: string): Promise<ReviewRecord | undefined> {
    await this.ready();
    return this.row(id);
  }

  private row(id: string): ReviewRecord | undefined {
    const row = this.sql(`SELECT * FROM gate_reviews WHERE id = ?`).get(id) as ReviewRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  async source(id: string): Promise<ReviewSource | undefined> {
    await this.ready();
    const row = this.sql(`SELECT source_json FROM gate_reviews WHERE id = ?`).get(id) as
      | { source_json: string }
      | undefined;
    return row ? (JSON.parse(row.source_json) as ReviewSource) : undefined;
  }

  async latestForPr(pr: string): Promise<ReviewRecord | undefined> {
    await this.ready();
    const row = this.sql(`SELECT * FROM gate_reviews WHERE pr = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`).get(
      pr,
    ) as ReviewRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  async allForPr(pr: string): Promise<ReviewRecord[]> {
    await this.ready();
    const rows = this.sql(`SELECT * FROM gate_reviews WHERE pr = ? ORDER BY created_at DESC, rowid DESC`).all(
      pr,
    ) as ReviewRow[];
    return rows.map(toRecord);
  }

  async openForPr(pr: string): Promise<ReviewRecord[]> {
    await this.ready();
    const rows = this.sql(
      `SELECT * FROM gate_reviews WHERE pr = ? AND status IN ('queued','running','waiting_for_human')
         ORDER BY created_at, rowid`,
    ).all(pr) as ReviewRow[];
    return rows.map(toRecord);
  }

  async withStatus(...statuses: ReviewStatus[]): Promise<ReviewRecord[]> {
    await this.ready();
    const marks = statuses.map(() => "?").join(",");
    const rows = this.sql(`SELECT * FROM gate_reviews WHERE status IN (${marks}) ORDER BY created_at, rowid`).all(
      ...statuses,
    ) as ReviewRow[];
    return rows.map(toRecord);
  }

  async setStatus(id: string, status: ReviewStatus): Promise<void> {
    await this.ready();
    this.sql(`UPDATE gate_reviews SET status = ?, updated_at = ? WHERE id = ?`).run(status, this.now(), id);
  }

  async setStatusUnlessSuperseded(id: string, status: ReviewStatus): Promise<boolean> {
    await this.ready();
    const r = this.sql(
      `UPDATE gate_reviews SET status = ?, updated_at = ? WHERE id = ? AND status NOT IN ('superseded', 'closed')`,
    ).run(status, this.now(), id);
    return r.changes === 1;
  }

  /**
   * Runs `work` in one SQLite transaction: all of its writes, or none when it throws. While it is
   * open, this process's other callers wait for it; a transaction inside `work` joins it.
   *
   * Transactions are committed in batches (group commit). Those asked for during one turn of the
   * event loop (a burst of webhook deliveries read in one poll) run together on the turn's check
   * phase; when the last batch started less than the gate's `spacingMs` ago, they wait until
   * then, with every one asked for meanwhile (deliveries that arrive one by one). A batch runs
   * its transactions one after another, each in a savepoint of its own, under one BEGIN
   * IMMEDIATE (the write lock is taken at once, so a second process waits on the busy timeout
   * rather than failing at its first write) and one COMMIT. A transaction whose work throws is
   * rolled back to its savepoint and rejects alone; the others commit. Sharing the COMMIT writes
   * each changed page to the WAL once for the batch instead of once per transaction, and every
   * transaction of the batch then waits for the same fsync, which none of them could have had
   * sooner: a thread-pool fsync completes only after the turn that started it.
   */
  transaction<T>(work: (tx: ReviewStore) => Promise<T>): Promise<T> {
    if (this.bound || this.gate.inside.getStore()?.active) return work(this.bound ? this : this.boundStore());
    return new Promise<T>((resolve, reject) => {
      this.gate.queued.push({
        work,
        caller: new AsyncResource("gate.transaction"),
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      if (this.gate.scheduled) return;
      this.gate.scheduled = true;
      const wait = this.gate.due(performance.now());
      if (wait > 0) setTimeout(() => void this.runBatch(), wait);
      else setImmediate(() => void this.runBatch());
    });
  }

  /** Runs the queued transactions as one SQLite transaction, then waits for their shared fsync. */
  private async runBatch(): Promise<void> {
    this.gate.scheduled = false;
    while (this.gate.open) await this.gate.open;
    const batch = this.gate.queued.splice(0);
    if (batch.length === 0) return;
    this.gate.lastBatch = performance.now();
    let release = () => {};
    this.gate.open = new Promise<void>((resolve) => {
      release = resolve;
    });
    const outcomes: Outcome[] = [];
    /** A failure that ended SQLite's transaction itself (a full disk, an I/O error): it takes the whole batch. */
    let ended: { error: unknown } | undefined;
    try {
      this.sql("BEGIN IMMEDIATE").run();
      for (const item of batch) {
        const outcome = await this.runOne(item);
        outcomes.push(outcome);
        if (!outcome.ok && !this.db.inTransaction) {
          ended = outcome;
          break;
        }
      }
      if (!ended) this.sql("COMMIT").run();
    } catch (error) {
      // BEGIN or COMMIT failed: nothing of the batch is committed.
      if (this.db.inTransaction) this.sql("ROLLBACK").run();
      ended = { error };
    } finally {
      this.gate.open = undefined;
      release();
    }
    if (ended) {
      for (const item of batch) item.reject(ended.error);
      return;
    }
    // On disk before the callers hear of it (a webhook answers only after this): COMMIT under
    // synchronous = NORMAL does not wait for the disk; this fsync, shared with the batches
    // committing meanwhile and off the event loop, does (see wal-sync.ts).
    const wal = this.gate.wal(this.db);
    let unsynced: { error: unknown } | undefined;
    if (wal && outcomes.some((o) => o.ok)) {
      try {
        await wal.sync();
      } catch (error) {
        unsynced = { error };
      }
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i] as Outcome;
      if (!outcome.ok) item.reject(outcome.error);
      else if (unsynced) item.reject(unsynced.error);
      else item.resolve(outcome.value);
    });
  }

  /** One transaction of a batch, in a savepoint of its own. */
  private async runOne(item: Batched): Promise<Outcome> {
    const marker = { active: true };
    this.sql("SAVEPOINT gate_tx").run();
    try {
      const work = () => this.gate.inside.run(marker, () => item.work(this.boundStore()));
      return { ok: true, value: await item.caller.runInAsyncScope(work) };
    } catch (error) {
      if (this.db.inTransaction) this.sql("ROLLBACK TO gate_tx").run();
      return { ok: false, error };
    } finally {
      marker.active = false;
      if (this.db.inTransaction) this.sql("RELEASE gate_tx").run();
    }
  }

  private boundStore(): SqliteReviewStore {
    return new SqliteReviewStore(this.db, this.clock, this.gate, true);
  }

  async claim(id: string, from: ReviewStatus, to: ReviewStatus): Promise<boolean> {
    await this.ready();
    const r = this.sql(`UPDATE gate_reviews SET status = ?, updated_at = ? WHERE id = ? AND status = ?`).run(
      to,
      this.now(),
      id,
      from,
    );
    return r.changes === 1;
  }

  async close(id: string): Promise<void> {
    await this.ready();
    this.sql(`UPDATE gate_reviews SET status = 'closed', updated_at = ? WHERE id = ?`).run(this.now(), id);
  }

  async supersede(id: string, bySha: string): Promise<void> {
    await this.ready();
    this.sql(`UPDATE gate_reviews SET status = 'superseded', superseded_by = ?, updated_at = ? WHERE id = ?`).run(
      bySha,
      this.now(),
      id,
    );
  }

  async saveResult(id: string, result: ReviewResult): Promise<void> {
    await this.ready();
    this.sql(`UPDATE gate_reviews SET result_json = ?, updated_at = ? WHERE id = ?`).run(
      JSON.stringify(result),
      this.now(),
      id,
    );
  }

  async lastResult(id: string): Promise<ReviewResult | undefined> {
    await this.ready();
    const row = this.sql(`SELECT result_json FROM gate_reviews WHERE id = ?`).get(id) as
      | { result_json: string | null }
      | undefined;
    return row?.result_json ? (JSON.parse(row.result_json) as ReviewResult) : undefined;
  }

  async recordReceipt(id: string, receipt: PublishReceipt): Promise<void> {
    await this.ready();
    this.sql(
      `UPDATE gate_reviews SET
           slack_channel = COALESCE(@slackChannel, slack_channel),
           slack_ts = COALESCE(@slackTs, slack_ts),
           slack_thread_ts = COALESCE(@slackThreadTs, slack_thread_ts),
           check_run_id = COALESCE(@checkRunId, check_run_id)
         WHERE id = @id`,
    ).run({
      id,
      slackChannel: receipt.slackChannel ?? null,
      slackTs: receipt.slackTs ?? null,
      slackThreadTs: receipt.slackThreadTs ?? null,
      checkRunId: receipt.checkRunId ?? null,
    });
  }

  async recordSlackPostIntent(id: string, at: string): Promise<void> {
    await this.ready();
    this.sql(`UPDATE gate_reviews SET slack_post_started_at = COALESCE(slack_post_started_at, ?) WHERE id = ?`).run(
      at,
      id,
    );
  }

  claimSlackNote(key: string, reviewId: string): Promise<boolean> {
    return this.insertOnce(SLACK_NOTES, key, reviewId);
  }

  async recordPerson(slackId: string, name: string): Promise<void> {
    await this.ready();
    this.sql(`INSERT OR REPLACE INTO gate_people (slack_id, name, at) VALUES (?, ?, ?)`).run(slackId, name, this.now());
  }

  async personName(slackId: string): Promise<string | undefined> {
    await this.ready();
    const row = this.sql(`SELECT name FROM gate_people WHERE slack_id = ?`).get(slackId) as
      | { name: string }
      | undefined;
    return row?.name;
  }

  async markPublished(id: string, result: ReviewResult): Promise<void> {
    await this.ready();
    this.sql(`UPDATE gate_reviews SET published_json = ? WHERE id = ?`).run(JSON.stringify(result), id);
  }

  async unpublished(reviewId?: string): Promise<ReviewRecord[]> {
    await this.ready();
    const rows = (
      reviewId === undefined
        ? this.sql(`SELECT * FROM gate_reviews WHERE ${UNPUBLISHED} ORDER BY created_at, rowid`).all()
        : this.sql(`SELECT * FROM gate_reviews WHERE id = ? AND ${UNPUBLISHED}`).all(reviewId)
    ) as ReviewRow[];
    return rows.map(toRecord);
  }

  async recordDelivery(id: string, event: string, entry?: InboxEntry): Promise<boolean> {
    // The delivery and its inbox entry are written together or not at all.
    if (entry && !this.bound) return this.transaction((tx) => tx.recordDelivery(id, event, entry));
    if (!(await this.insertOnce(DELIVERIES, id, event))) return false;
    if (entry) this.sql(insertInboxSql("?", "?")).run(id, JSON.stringify(entry));
    return true;
  }

  async takeFromInbox(deliveryId: string): Promise<InboxEntry | undefined> {
    await this.ready();
    const row = this.sql(takeInboxSql("?")).get(deliveryId) as { entry_json: string } | undefined;
    return row ? (JSON.parse(row.entry_json) as InboxEntry) : undefined;
  }

  async inboxDeliveries(): Promise<string[]> {
    await this.ready();
    const rows = this.sql(`SELECT delivery_id FROM gate_inbox ORDER BY rowid`).all() as Array<{ delivery_id: string }>;
    return rows.map((r) => r.delivery_id);
  }

  hasDelivery(id: string): Promise<boolean> {
    return this.rowExists(DELIVERIES, id);
  }

  /** Claims `key` in a write-once table; true when this call added it, false when it was there. */
  private async insertOnce(table: OnceTable, key: string, value: string): Promise<boolean> {
    await this.ready();
    return this.sql(insertOnceSql(table, ["?", "?", "?"])).run(key, value, this.now()).changes === 1;
  }

  /** Whether `key` was claimed in a write-once table. */
  private async rowExists(table: OnceTable, key: string): Promise<boolean> {
    await this.ready();
    return this.sql(existsSql(table, "?")).get(key) !== undefined;
  }

  async receiveDecision(reviewId: string, resume: ResumeValue, door: string): Promise<boolean> {
    return this.transaction(async (tx) => {
      if (!(await tx.claim(reviewId, "waiting_for_human", "running"))) return false;
      this.sql(`INSERT INTO gate_decisions (review_id, resume_json, door, received_at) VALUES (?, ?, ?, ?)`).run(
        reviewId,
        JSON.stringify(resume),
        door,
        this.now(),
      );
      await tx.audit(decisionAudit(reviewId, resume, { received: door }));
      return true;
    });
  }

  async pendingDecisions(reviewId?: string): Promise<Array<{ reviewId: string; resume: ResumeValue; door: string }>> {
    await this.ready();
    const select = "SELECT review_id, resume_json, door FROM gate_decisions WHERE applied_at IS NULL";
    const rows = (
      reviewId === undefined
        ? this.sql(`${select} ORDER BY seq`).all()
        : this.sql(`${select} AND review_id = ? ORDER BY seq`).all(reviewId)
    ) as DecisionRow[];
    return rows.map(fromDecisionRow);
  }

  async markDecisionApplied(reviewId: string, resume: ResumeValue, outcome: string): Promise<void> {
    await this.transaction(async (tx) => {
      const r = this.sql(`UPDATE gate_decisions SET applied_at = ? WHERE review_id = ? AND applied_at IS NULL`).run(
        this.now(),
        reviewId,
      );
      if (r.changes > 0) await tx.audit(decisionAudit(reviewId, resume, { applied: outcome }));
    });
  }

  async audit(entry: AuditInput): Promise<void> {
    await this.ready();
    this.sql(`INSERT INTO gate_audit (review_id, at, actor, action, outcome, detail) VALUES (?, ?, ?, ?, ?, ?)`).run(
      entry.reviewId,
      this.now(),
      entry.actor,
      entry.action,
      entry.outcome,
      JSON.stringify(entry.detail ?? {}),
    );
  }

  async auditFor(reviewId: string): Promise<AuditEntry[]> {
    await this.ready();
    const rows = this.sql(`SELECT * FROM gate_audit WHERE review_id = ? ORDER BY seq`).all(reviewId) as Array<
      Omit<AuditEntry, "detail"> & { detail: string }
    >;
    return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
  }

  async cachedLicense(key: string): Promise<string | null | undefined> {
    await this.ready();
    const row = this.sql(`SELECT license FROM gate_license_cache WHERE key = ?`).get(key) as
      | { license: string | null }
      | undefined;
    return row === undefined ? undefined : row.license;
  }

  async cacheLicense(key: string, license: string | null): Promise<void> {
    await this.ready();
    this.sql(`INSERT OR REPLACE INTO gate_license_cache (key, license, fetched_at) VALUES (?, ?, ?)`).run(
      key,
      license,
      this.now(),
    );
  }

  async keepConfig(digest: string, json: string): Promise<void> {
    await this.ready();
    this.sql(`INSERT OR IGNORE INTO gate_configs (digest, json) VALUES (?, ?)`).run(digest, json);
  }

  async configJson(digest: string): Promise<string | undefined> {
    await this.ready();
    const row = this.sql(`SELECT json FROM gate_configs WHERE digest = ?`).get(digest) as { json: string } | undefined;
    return row?.json;
  }
}
