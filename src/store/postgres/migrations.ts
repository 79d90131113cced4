import type pg from "pg";
import type { Migration } from "../migrations.js";

/**
 * The gate's own PostgreSQL tables, as of the first release with PostgreSQL (LangGraph's
 * PostgresSaver adds `checkpoints`, `checkpoint_blobs`, `checkpoint_writes` and
 * `checkpoint_migrations`). Times are ISO-8601 text, as in SQLite (they sort as they read).
 */
const SCHEMA_1 = `
CREATE TABLE gate_reviews (
  id TEXT PRIMARY KEY,
  seq BIGSERIAL NOT NULL,
  pr TEXT NOT NULL,
  repo TEXT NOT NULL,
  number INTEGER NOT NULL,
  head_sha TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  url TEXT NOT NULL DEFAULT '',
  author TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL,
  source_json TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  slack_channel TEXT,
  slack_ts TEXT,
  check_run_id BIGINT,
  superseded_by TEXT,
  installation_id BIGINT,
  result_json TEXT,
  published_json TEXT,
  event_at TEXT,
  slack_post_started_at TEXT,
  slack_thread_ts TEXT
);
CREATE INDEX gate_reviews_pr ON gate_reviews (pr, created_at);
CREATE INDEX gate_reviews_status ON gate_reviews (status);
CREATE TABLE gate_deliveries (
  id TEXT PRIMARY KEY,
  event TEXT NOT NULL,
  received_at TEXT NOT NULL
);
CREATE TABLE gate_audit (
  seq BIGSERIAL PRIMARY KEY,
  review_id TEXT NOT NULL,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  outcome TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX gate_audit_review ON gate_audit (review_id, seq);
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
CREATE TABLE gate_decisions (
  seq BIGSERIAL PRIMARY KEY,
  review_id TEXT NOT NULL,
  resume_json TEXT NOT NULL,
  door TEXT NOT NULL,
  received_at TEXT NOT NULL,
  applied_at TEXT
);
CREATE INDEX gate_decisions_pending ON gate_decisions (applied_at);
CREATE TABLE gate_pull_requests (
  review_id TEXT PRIMARY KEY,
  json_gz BYTEA NOT NULL
);
CREATE TABLE gate_slack_notes (
  key TEXT PRIMARY KEY,
  review_id TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE TABLE gate_people (
  slack_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE TABLE gate_license_cache (
  key TEXT PRIMARY KEY,
  license TEXT,
  fetched_at TEXT NOT NULL
);
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
];
