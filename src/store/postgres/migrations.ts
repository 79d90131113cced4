import type pg from "pg";
import { chainExisting, type UnchainedRow } from "../../domain/audit-chain.js";
import { AUDIT_CHAIN_COLUMNS, UNCHAINED_ROWS } from "../audit-sql.js";
import { AUDITORS_TABLE } from "../auditor-sql.js";
import { changesTable } from "../change-sql.js";
import type { Migration } from "../migrations.js";
import { tablesV1 } from "../schema-v1.js";
import { JOBS_TABLE } from "./job-queue.js";

/**
 * The gate's own PostgreSQL tables, as of the first release with PostgreSQL (LangGraph's
 * PostgresSaver adds `checkpoints`, `checkpoint_blobs`, `checkpoint_writes` and
 * `checkpoint_migrations`): the first schema's tables, the audit log's triggers, and the review
 * configurations (SQLite's second step).
 */
const SCHEMA_1 = `${tablesV1({
  ifNotExists: "",
  githubId: "BIGINT",
  serialKey: "BIGSERIAL PRIMARY KEY",
  bytes: "BYTEA",
  reviewExtras: "\n  seq BIGSERIAL NOT NULL,",
})}
-- Append-only: the database refuses every edit, deletion and truncation of the audit log.
CREATE FUNCTION gate_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'gate_audit is append-only';
END
$$;
CREATE TRIGGER gate_audit_no_update_or_delete BEFORE UPDATE OR DELETE ON gate_audit
  FOR EACH ROW EXECUTE FUNCTION gate_audit_append_only();
CREATE TRIGGER gate_audit_no_truncate BEFORE TRUNCATE ON gate_audit
  FOR EACH STATEMENT EXECUTE FUNCTION gate_audit_append_only();
-- Each distinct review configuration, once, by the sha256 of its JSON (graph states name it by digest).
CREATE TABLE gate_configs (
  digest TEXT PRIMARY KEY,
  json TEXT NOT NULL
);
`;

/**
 * The PostgreSQL schema, step by step (`gate_schema_version`, as in SQLite). Add a step at the
 * end; never edit a released one. Each step runs in its own transaction, under the migration lock.
 */
export const POSTGRES_MIGRATIONS: ReadonlyArray<Migration<pg.ClientBase>> = [
  {
    version: 1,
    name: "reviews, deliveries, audit (append-only), decisions, pull requests, Slack notes, people, licence cache, configurations",
    up: async (client) => {
      await client.query(SCHEMA_1);
    },
  },
  {
    version: 2,
    name: "the job queue every replica takes reviews from (gate_jobs)",
    up: async (client) => {
      await client.query(JOBS_TABLE);
    },
  },
  {
    version: 3,
    name: "reviews whose result is not published, indexed",
    up: async (client) => {
      // A replica's start (and a publish job) lists only these, not every settled review; the
      // condition is the store's UNPUBLISHED, so the planner sees that the index answers it.
      await client.query(`CREATE INDEX gate_reviews_unpublished ON gate_reviews (created_at, seq)
        WHERE result_json IS NOT NULL AND (published_json IS NULL OR published_json <> result_json)`);
    },
  },
  {
    version: 4,
    name: "deliveries whose review is not registered yet (the delivery inbox)",
    up: async (client) => {
      // Written with the delivery before GitHub's answer, deleted when the review is registered
      // after it; what is left when a replica stops is queued again by the next replica's start.
      await client.query(`CREATE TABLE gate_inbox (
        delivery_id TEXT PRIMARY KEY,
        entry_json TEXT NOT NULL,
        seq BIGSERIAL NOT NULL
      )`);
    },
  },
  {
    version: 5,
    name: "a published result is marked, not copied",
    up: async (client) => {
      // A settled review kept its result twice (the published copy, to compare); a mark says the same.
      await client.query(`ALTER TABLE gate_reviews ADD COLUMN result_published INTEGER NOT NULL DEFAULT 0;
        UPDATE gate_reviews SET result_published = 1 WHERE result_json IS NOT NULL AND published_json = result_json;
        DROP INDEX IF EXISTS gate_reviews_unpublished;
        ALTER TABLE gate_reviews DROP COLUMN published_json;
        CREATE INDEX gate_reviews_unpublished ON gate_reviews (created_at, seq) WHERE result_json IS NOT NULL AND result_published = 0;`);
    },
  },
  {
    version: 6,
    name: "the audit log as hash chains, one per repository owner, with their heads",
    up: chainAuditLog,
  },
  {
    version: 7,
    name: "the changes that reached a default branch (the evidence)",
    up: async (client) => {
      await client.query(changesTable(' COLLATE "C"'));
    },
  },
  {
    version: 8,
    name: "the auditors who may read the evidence pages, their tokens hashed",
    up: async (client) => {
      await client.query(AUDITORS_TABLE);
    },
  },
];

/** How many rows one UPDATE of migration 6 chains. */
const CHAIN_BATCH = 5000;

/**
 * Migration 6: the audit log's chain columns and heads (audit-sql.ts), then every row written
 * before it chained once, in sequence order (src/domain/audit-chain.ts). Its edit trigger is
 * disabled for those updates only, inside the migration's transaction (under the migration lock,
 * so no replica appends meanwhile).
 */
async function chainAuditLog(client: pg.ClientBase): Promise<void> {
  await client.query(`${AUDIT_CHAIN_COLUMNS}
    CREATE FUNCTION gate_audit_heads_forward() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'UPDATE' THEN
        RAISE EXCEPTION 'gate_audit_heads only moves forward';
      END IF;
      IF NEW.seq <= OLD.seq OR NEW.chain <> OLD.chain THEN
        RAISE EXCEPTION 'gate_audit_heads only moves forward';
      END IF;
      RETURN NEW;
    END
    $$;
    CREATE TRIGGER gate_audit_heads_forward BEFORE UPDATE OR DELETE ON gate_audit_heads
      FOR EACH ROW EXECUTE FUNCTION gate_audit_heads_forward();
    CREATE TRIGGER gate_audit_heads_no_truncate BEFORE TRUNCATE ON gate_audit_heads
      FOR EACH STATEMENT EXECUTE FUNCTION gate_audit_heads_forward();`);
  const { rows } = await client.query<Omit<UnchainedRow, "seq"> & { seq: string }>(UNCHAINED_ROWS);
  const { links, heads } = chainExisting(rows.map((r) => ({ ...r, seq: Number(r.seq) })));
  await client.query("ALTER TABLE gate_audit DISABLE TRIGGER gate_audit_no_update_or_delete");
  for (let i = 0; i < links.length; i += CHAIN_BATCH) {
    const batch = links.slice(i, i + CHAIN_BATCH);
    await client.query(
      `UPDATE gate_audit a SET chain = u.chain, prev_hash = u.prev_hash, hash = u.hash
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS u(seq, chain, prev_hash, hash)
       WHERE a.seq = u.seq`,
      [batch.map((l) => l.seq), batch.map((l) => l.chain), batch.map((l) => l.prevHash), batch.map((l) => l.hash)],
    );
  }
  await client.query("ALTER TABLE gate_audit ENABLE TRIGGER gate_audit_no_update_or_delete");
  for (const [chain, h] of heads) {
    await client.query("INSERT INTO gate_audit_heads (chain, seq, hash) VALUES ($1, $2, $3)", [chain, h.seq, h.hash]);
  }
}
