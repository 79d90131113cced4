import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";
import type { Clock } from "../../domain/clock.js";
import type { ReviewSource } from "../../domain/review-source.js";
import type { ReviewResult, ReviewStatus } from "../../domain/review-result.js";
import type { AuditEntry, AuditInput, InboxEntry, ReviewRegistration, ReviewStore } from "../../domain/review-store.js";
import type { PublishReceipt, ResumeValue, ReviewRecord } from "../../domain/review.js";
import {
  DELIVERIES,
  existsSql,
  insertInboxSql,
  insertOnceSql,
  type OnceTable,
  SLACK_NOTES,
  takeInboxSql,
} from "../once-keys.js";
import {
  type DecisionRow,
  decisionAudit,
  fromDecisionRow,
  type ReviewRow,
  toRecord,
  UNPUBLISHED,
} from "../review-store.js";

type PgReviewRow = Omit<ReviewRow, "check_run_id" | "installation_id"> & {
  check_run_id: string | null;
  installation_id: string | null;
};

/** BIGINT columns come back as strings (pg keeps every 64-bit value exact); ours fit a double. */
function fromPg(r: PgReviewRow): ReviewRecord {
  return toRecord({
    ...r,
    check_run_id: r.check_run_id === null ? null : Number(r.check_run_id),
    installation_id: r.installation_id === null ? null : Number(r.installation_id),
  });
}

/** The transaction a piece of work runs in: its client, while it is open. */
interface OpenTransaction {
  client: pg.PoolClient;
  active: boolean;
}

/**
 * The review store on PostgreSQL (the tables of `postgres/migrations.ts`), for several replicas
 * on one database. Statements run on the pool; `transaction` checks out one client and runs its
 * work on it. Work inside a transaction that calls the store it started from (not `tx`) joins
 * the transaction, as in SQLite.
 *
 * @example const store = new PgReviewStore(pool, systemClock);
 */
export class PgReviewStore implements ReviewStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
    private readonly inside = new AsyncLocalStorage<OpenTransaction>(),
    /** The client of the transaction this store is bound to (the `tx` handed to a transaction's work). */
    private readonly client?: pg.PoolClient,
  ) {}

  private now(): string {
    return this.clock().toISOString();
  }

  private db(): pg.Pool | pg.PoolClient {
    if (this.client) return this.client;
    const open = this.inside.getStore();
    return open?.active ? open.client : this.pool;
  }

  /**
   * Where this store's statements run now: the open transaction's client inside one, else the
   * pool. Other tables' writes that must commit with the store's (a queued job) go there too.
   */
  connection(): pg.Pool | pg.PoolClient {
    return this.db();
  }

  private async rows<Row extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await this.db().query<Row>(sql, params)).rows;
  }

  private async changed(sql: string, params: unknown[]): Promise<number> {
    return (await this.db().query(sql, params)).rowCount ?? 0;
  }

  private async reviews(where: string, params: unknown[]): Promise<ReviewRecord[]> {
    return (await this.rows<PgReviewRow>(`SELECT * FROM gate_reviews ${where}`, params)).map(fromPg);
  }

  async register(input: ReviewRegistration & { id: string; pr: string }): Promise<ReviewRecord> {
    const now = this.now();
    const [row] = await this.rows<PgReviewRow>(
      `INSERT INTO gate_reviews (id, pr, repo, number, head_sha, title, url, author, source, source_json, status,
         created_at, updated_at, installation_id, event_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'queued', $11, $11, $12, $13) RETURNING *`,
      [
        input.id,
        input.pr,
        input.repo,
        input.number,
        input.headSha,
        input.title ?? "",
        input.url ?? "",
        input.author ?? "",
        input.source.kind,
        JSON.stringify(input.source),
        now,
        input.installationId ?? null,
        input.eventAt ?? null,
      ],
    );
    if (!row) throw new Error(`registering review ${input.id} returned no row`);
    return fromPg(row);
  }

  async get(id: string): Promise<ReviewRecord | undefined> {
    return (await this.reviews("WHERE id = $1", [id]))[0];
  }

  async source(id: string): Promise<ReviewSource | undefined> {
    const [row] = await this.rows<{ source_json: string }>("SELECT source_json FROM gate_reviews WHERE id = $1", [id]);
    return row ? (JSON.parse(row.source_json) as ReviewSource) : undefined;
  }

  async latestForPr(pr: string): Promise<ReviewRecord | undefined> {
    return (await this.reviews("WHERE pr = $1 ORDER BY created_at DESC, seq DESC LIMIT 1", [pr]))[0];
  }

  allForPr(pr: string): Promise<ReviewRecord[]> {
    return this.reviews("WHERE pr = $1 ORDER BY created_at DESC, seq DESC", [pr]);
  }

  openForPr(pr: string): Promise<ReviewRecord[]> {
    return this.reviews(
      "WHERE pr = $1 AND status IN ('queued','running','waiting_for_human') ORDER BY created_at, seq",
      [pr],
    );
  }

  withStatus(...statuses: ReviewStatus[]): Promise<ReviewRecord[]> {
    return this.reviews("WHERE status = ANY($1) ORDER BY created_at, seq", [statuses]);
  }

  async setStatus(id: string, status: ReviewStatus): Promise<void> {
    await this.changed("UPDATE gate_reviews SET status = $1, updated_at = $2 WHERE id = $3", [status, this.now(), id]);
  }

  async setStatusUnlessSuperseded(id: string, status: ReviewStatus): Promise<boolean> {
    const n = await this.changed(
      "UPDATE gate_reviews SET status = $1, updated_at = $2 WHERE id = $3 AND status NOT IN ('superseded', 'closed')",
      [status, this.now(), id],
    );
    return n === 1;
  }

  /**
   * Runs `work` in one transaction on one checked-out client (READ COMMITTED: a conditional
   * UPDATE such as `claim` waits for a concurrent one and re-reads the row, so one of them wins).
   */
  transaction<T>(work: (tx: ReviewStore) => Promise<T>): Promise<T> {
    return this.atomically(work);
  }

  private async atomically<T>(work: (tx: PgReviewStore) => Promise<T>): Promise<T> {
    if (this.client) return work(this);
    const open = this.inside.getStore();
    if (open?.active) return work(this.bound(open.client));
    const client = await this.pool.connect();
    const marker: OpenTransaction = { client, active: true };
    let broken: unknown;
    try {
      await client.query("BEGIN");
      try {
        const value = await this.inside.run(marker, () => work(this.bound(client)));
        await client.query("COMMIT");
        return value;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollback: unknown) => {
          broken = rollback;
        });
        throw error;
      }
    } finally {
      marker.active = false;
      // A client whose rollback failed is not handed out again.
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  private bound(client: pg.PoolClient): PgReviewStore {
    return new PgReviewStore(this.pool, this.clock, this.inside, client);
  }

  async claim(id: string, from: ReviewStatus, to: ReviewStatus): Promise<boolean> {
    const n = await this.changed("UPDATE gate_reviews SET status = $1, updated_at = $2 WHERE id = $3 AND status = $4", [
      to,
      this.now(),
      id,
      from,
    ]);
    return n === 1;
  }

  async close(id: string): Promise<void> {
    await this.changed("UPDATE gate_reviews SET status = 'closed', updated_at = $1 WHERE id = $2", [this.now(), id]);
  }

  async supersede(id: string, bySha: string): Promise<void> {
    await this.changed(
      "UPDATE gate_reviews SET status = 'superseded', superseded_by = $1, updated_at = $2 WHERE id = $3",
      [bySha, this.now(), id],
    );
  }

  async saveResult(id: string, result: ReviewResult): Promise<void> {
    await this.changed("UPDATE gate_reviews SET result_json = $1, updated_at = $2 WHERE id = $3", [
      JSON.stringify(result),
      this.now(),
      id,
    ]);
  }

  async lastResult(id: string): Promise<ReviewResult | undefined> {
    const [row] = await this.rows<{ result_json: string | null }>(
      "SELECT result_json FROM gate_reviews WHERE id = $1",
      [id],
    );
    return row?.result_json ? (JSON.parse(row.result_json) as ReviewResult) : undefined;
  }

  async recordReceipt(id: string, receipt: PublishReceipt): Promise<void> {
    await this.changed(
      `UPDATE gate_reviews SET
         slack_channel = COALESCE($2, slack_channel),
         slack_ts = COALESCE($3, slack_ts),
         slack_thread_ts = COALESCE($4, slack_thread_ts),
         check_run_id = COALESCE($5, check_run_id)
       WHERE id = $1`,
      [
        id,
        receipt.slackChannel ?? null,
        receipt.slackTs ?? null,
        receipt.slackThreadTs ?? null,
        receipt.checkRunId ?? null,
      ],
    );
  }

  async recordSlackPostIntent(id: string, at: string): Promise<void> {
    await this.changed(
      "UPDATE gate_reviews SET slack_post_started_at = COALESCE(slack_post_started_at, $1) WHERE id = $2",
      [at, id],
    );
  }

  claimSlackNote(key: string, reviewId: string): Promise<boolean> {
    return this.insertOnce(SLACK_NOTES, key, reviewId);
  }

  async recordPerson(slackId: string, name: string): Promise<void> {
    await this.changed(
      `INSERT INTO gate_people (slack_id, name, at) VALUES ($1, $2, $3)
       ON CONFLICT (slack_id) DO UPDATE SET name = excluded.name, at = excluded.at`,
      [slackId, name, this.now()],
    );
  }

  async personName(slackId: string): Promise<string | undefined> {
    const [row] = await this.rows<{ name: string }>("SELECT name FROM gate_people WHERE slack_id = $1", [slackId]);
    return row?.name;
  }

  async markPublished(id: string, result: ReviewResult): Promise<void> {
    await this.changed("UPDATE gate_reviews SET published_json = $1 WHERE id = $2", [JSON.stringify(result), id]);
  }

  unpublished(reviewId?: string): Promise<ReviewRecord[]> {
    return reviewId === undefined
      ? this.reviews(`WHERE ${UNPUBLISHED} ORDER BY created_at, seq`, [])
      : this.reviews(`WHERE id = $1 AND ${UNPUBLISHED}`, [reviewId]);
  }

  recordDelivery(id: string, event: string, entry?: InboxEntry): Promise<boolean> {
    if (!entry) return this.insertOnce(DELIVERIES, id, event);
    // The delivery and its inbox entry are written together or not at all.
    return this.atomically(async (tx) => {
      if (!(await tx.insertOnce(DELIVERIES, id, event))) return false;
      await tx.changed(insertInboxSql("$1", "$2"), [id, JSON.stringify(entry)]);
      return true;
    });
  }

  async takeFromInbox(deliveryId: string): Promise<InboxEntry | undefined> {
    const [row] = await this.rows<{ entry_json: string }>(takeInboxSql("$1"), [deliveryId]);
    return row ? (JSON.parse(row.entry_json) as InboxEntry) : undefined;
  }

  async inboxDeliveries(): Promise<string[]> {
    const rows = await this.rows<{ delivery_id: string }>(`SELECT delivery_id FROM gate_inbox ORDER BY seq`);
    return rows.map((r) => r.delivery_id);
  }

  hasDelivery(id: string): Promise<boolean> {
    return this.rowExists(DELIVERIES, id);
  }

  /** Claims `key` in a write-once table; true when this call added it, false when it was there. */
  private async insertOnce(table: OnceTable, key: string, value: string): Promise<boolean> {
    return (await this.changed(insertOnceSql(table, ["$1", "$2", "$3"]), [key, value, this.now()])) === 1;
  }

  /** Whether `key` was claimed in a write-once table. */
  private async rowExists(table: OnceTable, key: string): Promise<boolean> {
    return (await this.rows(existsSql(table, "$1"), [key])).length > 0;
  }

  receiveDecision(reviewId: string, resume: ResumeValue, door: string): Promise<boolean> {
    return this.atomically(async (tx) => {
      if (!(await tx.claim(reviewId, "waiting_for_human", "running"))) return false;
      await tx.changed(
        "INSERT INTO gate_decisions (review_id, resume_json, door, received_at) VALUES ($1, $2, $3, $4)",
        [reviewId, JSON.stringify(resume), door, this.now()],
      );
      await tx.audit(decisionAudit(reviewId, resume, { received: door }));
      return true;
    });
  }

  async pendingDecisions(reviewId?: string): Promise<Array<{ reviewId: string; resume: ResumeValue; door: string }>> {
    const select = "SELECT review_id, resume_json, door FROM gate_decisions WHERE applied_at IS NULL";
    const rows =
      reviewId === undefined
        ? await this.rows<DecisionRow>(`${select} ORDER BY seq`)
        : await this.rows<DecisionRow>(`${select} AND review_id = $1 ORDER BY seq`, [reviewId]);
    return rows.map(fromDecisionRow);
  }

  async markDecisionApplied(reviewId: string, resume: ResumeValue, outcome: string): Promise<void> {
    await this.atomically(async (tx) => {
      const n = await tx.changed(
        "UPDATE gate_decisions SET applied_at = $1 WHERE review_id = $2 AND applied_at IS NULL",
        [this.now(), reviewId],
      );
      if (n > 0) await tx.audit(decisionAudit(reviewId, resume, { applied: outcome }));
    });
  }

  async audit(entry: AuditInput): Promise<void> {
    await this.changed(
      "INSERT INTO gate_audit (review_id, at, actor, action, outcome, detail) VALUES ($1, $2, $3, $4, $5, $6)",
      [entry.reviewId, this.now(), entry.actor, entry.action, entry.outcome, JSON.stringify(entry.detail ?? {})],
    );
  }

  async auditFor(reviewId: string): Promise<AuditEntry[]> {
    const rows = await this.rows<Omit<AuditEntry, "detail" | "seq"> & { seq: string; detail: string }>(
      "SELECT * FROM gate_audit WHERE review_id = $1 ORDER BY seq",
      [reviewId],
    );
    return rows.map((r) => ({ ...r, seq: Number(r.seq), detail: JSON.parse(r.detail) as Record<string, unknown> }));
  }

  async cachedLicense(key: string): Promise<string | null | undefined> {
    const [row] = await this.rows<{ license: string | null }>("SELECT license FROM gate_license_cache WHERE key = $1", [
      key,
    ]);
    return row === undefined ? undefined : row.license;
  }

  async keepConfig(digest: string, json: string): Promise<void> {
    await this.changed("INSERT INTO gate_configs (digest, json) VALUES ($1, $2) ON CONFLICT (digest) DO NOTHING", [
      digest,
      json,
    ]);
  }

  async configJson(digest: string): Promise<string | undefined> {
    const [row] = await this.rows<{ json: string }>("SELECT json FROM gate_configs WHERE digest = $1", [digest]);
    return row?.json;
  }

  async cacheLicense(key: string, license: string | null): Promise<void> {
    await this.changed(
      `INSERT INTO gate_license_cache (key, license, fetched_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET license = excluded.license, fetched_at = excluded.fetched_at`,
      [key, license, this.now()],
    );
  }
}
