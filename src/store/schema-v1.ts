/** What differs between the two databases in the first schema's tables. */
export interface SchemaDialect {
  /** `IF NOT EXISTS ` in SQLite (a file made before versioning is adopted as it is), empty in PostgreSQL. */
  ifNotExists: string;
  /** An id GitHub gives (a check run, an installation): INTEGER in SQLite, BIGINT in PostgreSQL. */
  githubId: string;
  /** An increasing primary key: INTEGER AUTOINCREMENT in SQLite, BIGSERIAL in PostgreSQL. */
  serialKey: string;
  /** Binary: BLOB or BYTEA. */
  bytes: string;
  /** Extra columns of `gate_reviews` (PostgreSQL orders ties by a sequence; SQLite has its rowid). */
  reviewExtras: string;
}

/**
 * The gate's own tables as of schema version 1, one description for SQLite and PostgreSQL (the
 * audit log's append-only triggers are each database's own). Times are ISO-8601 text in both
 * (they sort as they read). Frozen: a change to a table is a new migration, never an edit here.
 *
 * @example db.exec(tablesV1(SQLITE))
 */
export function tablesV1(d: SchemaDialect): string {
  const table = (name: string, columns: string) => `CREATE TABLE ${d.ifNotExists}${name} (\n${columns}\n);`;
  const index = (name: string, on: string) => `CREATE INDEX ${d.ifNotExists}${name} ON ${on};`;
  return [
    table(
      "gate_reviews",
      `  id TEXT PRIMARY KEY,${d.reviewExtras}
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
  check_run_id ${d.githubId},
  superseded_by TEXT,
  installation_id ${d.githubId},
  result_json TEXT,
  published_json TEXT,
  event_at TEXT,
  slack_post_started_at TEXT,
  slack_thread_ts TEXT`,
    ),
    index("gate_reviews_pr", "gate_reviews (pr, created_at)"),
    index("gate_reviews_status", "gate_reviews (status)"),
    table("gate_deliveries", "  id TEXT PRIMARY KEY,\n  event TEXT NOT NULL,\n  received_at TEXT NOT NULL"),
    table(
      "gate_audit",
      `  seq ${d.serialKey},
  review_id TEXT NOT NULL,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  outcome TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '{}'`,
    ),
    index("gate_audit_review", "gate_audit (review_id, seq)"),
    // Decisions as received, before they are applied: a crash between the two is finished on restart.
    table(
      "gate_decisions",
      `  seq ${d.serialKey},
  review_id TEXT NOT NULL,
  resume_json TEXT NOT NULL,
  door TEXT NOT NULL,
  received_at TEXT NOT NULL,
  applied_at TEXT`,
    ),
    index("gate_decisions_pending", "gate_decisions (applied_at)"),
    // Each review's pull request, stored once (the graph's state keeps only its summary).
    table("gate_pull_requests", `  review_id TEXT PRIMARY KEY,\n  json_gz ${d.bytes} NOT NULL`),
    // What was said in a PR's Slack thread, once each (mentions per head, decisions, reminders).
    table("gate_slack_notes", "  key TEXT PRIMARY KEY,\n  review_id TEXT NOT NULL,\n  at TEXT NOT NULL"),
    // The Slack display names of people who decided, so checks and cards name them (not an id).
    table("gate_people", "  slack_id TEXT PRIMARY KEY,\n  name TEXT NOT NULL,\n  at TEXT NOT NULL"),
    table("gate_license_cache", "  key TEXT PRIMARY KEY,\n  license TEXT,\n  fetched_at TEXT NOT NULL"),
  ].join("\n");
}
