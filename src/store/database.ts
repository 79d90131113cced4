import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { GateError } from "../domain/errors.js";
import { type Migration, pendingMigrations, SCHEMA_VERSION_TABLE } from "./migrations.js";

/**
 * The app's own tables as of the first versioned release (LangGraph's SqliteSaver adds
 * `checkpoints` and `writes` in the same file). `IF NOT EXISTS` throughout: a file made before
 * versioning is adopted as it is.
 */
const SCHEMA_1 = `
CREATE TABLE IF NOT EXISTS gate_reviews (
  id TEXT PRIMARY KEY,
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
  check_run_id INTEGER,
  superseded_by TEXT,
  installation_id INTEGER,
  result_json TEXT,
  published_json TEXT,
  event_at TEXT,
  slack_post_started_at TEXT,
  slack_thread_ts TEXT
);
CREATE INDEX IF NOT EXISTS gate_reviews_pr ON gate_reviews (pr, created_at);
CREATE INDEX IF NOT EXISTS gate_reviews_status ON gate_reviews (status);
CREATE TABLE IF NOT EXISTS gate_deliveries (
  id TEXT PRIMARY KEY,
  event TEXT NOT NULL,
  received_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS gate_audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  review_id TEXT NOT NULL,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  outcome TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS gate_audit_review ON gate_audit (review_id, seq);
-- Append-only: the audit log refuses edits and deletions.
CREATE TRIGGER IF NOT EXISTS gate_audit_no_update BEFORE UPDATE ON gate_audit
  BEGIN SELECT RAISE(ABORT, 'gate_audit is append-only'); END;
CREATE TRIGGER IF NOT EXISTS gate_audit_no_delete BEFORE DELETE ON gate_audit
  BEGIN SELECT RAISE(ABORT, 'gate_audit is append-only'); END;
-- Decisions as received, before they are applied: a crash between the two is finished on restart.
CREATE TABLE IF NOT EXISTS gate_decisions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  review_id TEXT NOT NULL,
  resume_json TEXT NOT NULL,
  door TEXT NOT NULL,
  received_at TEXT NOT NULL,
  applied_at TEXT
);
CREATE INDEX IF NOT EXISTS gate_decisions_pending ON gate_decisions (applied_at);
-- Each review's pull request, stored once (the graph's state keeps only its summary).
CREATE TABLE IF NOT EXISTS gate_pull_requests (
  review_id TEXT PRIMARY KEY,
  json_gz BLOB NOT NULL
);
-- What was said in a PR's Slack thread, once each (mentions per head, decisions, reminders): a
-- restart never says it twice.
CREATE TABLE IF NOT EXISTS gate_slack_notes (
  key TEXT PRIMARY KEY,
  review_id TEXT NOT NULL,
  at TEXT NOT NULL
);
-- The Slack display names of people who decided, so checks and cards name them (not an id).
CREATE TABLE IF NOT EXISTS gate_people (
  slack_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS gate_license_cache (
  key TEXT PRIMARY KEY,
  license TEXT,
  fetched_at TEXT NOT NULL
);
`;

/** Columns added before versioning, for files created before them. */
function addEarlyColumns(db: Database.Database): void {
  const columns = new Set(
    (db.prepare("PRAGMA table_info(gate_reviews)").all() as Array<{ name: string }>).map((c) => c.name),
  );
  if (!columns.has("event_at")) db.exec("ALTER TABLE gate_reviews ADD COLUMN event_at TEXT");
  if (!columns.has("slack_post_started_at")) db.exec("ALTER TABLE gate_reviews ADD COLUMN slack_post_started_at TEXT");
  if (!columns.has("slack_thread_ts")) db.exec("ALTER TABLE gate_reviews ADD COLUMN slack_thread_ts TEXT");
}

/**
 * Opens (creating if needed) the gate's one SQLite file: WAL, a busy timeout for the CLI and the
 * server sharing it, and the app's tables. A path that cannot hold the database (a directory, a
 * file that is not SQLite, a folder that cannot be made) fails with CONFIG_INVALID naming
 * GATE_DB, and leaves behind no file or folder this call created.
 *
 * @example const db = openDatabase(".gate/gate.db");
 */
export function openDatabase(file: string): Database.Database {
  if (file === ":memory:") return prepare(new Database(file), "GATE_DB :memory:");
  const refuse = (why: string, cause?: unknown): never => {
    throw new GateError("CONFIG_INVALID", `GATE_DB ${file}: ${why}`, cause === undefined ? undefined : { cause });
  };
  const existed = fs.existsSync(file);
  if (existed && !fs.statSync(file).isFile()) refuse("is not a file");
  let createdDir: string | undefined;
  try {
    createdDir = fs.mkdirSync(path.dirname(file), { recursive: true });
  } catch (error) {
    refuse(`cannot make its folder (${(error as Error).message})`, error);
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(file);
    return prepare(db, `GATE_DB ${file}`);
  } catch (error) {
    db?.close();
    if (error instanceof GateError) throw error;
    if (createdDir) fs.rmSync(createdDir, { recursive: true, force: true });
    else if (!existed) for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    return refuse(`cannot open it as the gate's database (${(error as Error).message})`, error);
  }
}

/**
 * The SQLite file's schema, step by step (`gate_schema_version` records each one applied). Add a
 * step at the end; never edit a released one.
 */
export const SQLITE_MIGRATIONS: ReadonlyArray<Migration<Database.Database>> = [
  {
    version: 1,
    name: "reviews, deliveries, audit, decisions, pull requests, Slack notes, people, licence cache",
    up: (db) => {
      db.exec(SCHEMA_1);
      addEarlyColumns(db);
    },
  },
  {
    version: 2,
    name: "review configurations kept once, by digest",
    up: (db) => {
      // A review's graph state names its configuration by digest: reviews with the same one share a row.
      db.exec(`CREATE TABLE IF NOT EXISTS gate_configs (digest TEXT PRIMARY KEY, json TEXT NOT NULL)`);
    },
  },
];

/**
 * Brings the file's schema up to date in one write transaction (a second process opening the
 * same file waits on the busy timeout, then finds nothing left to do). A file newer than the
 * code is refused with DATABASE_TOO_NEW.
 *
 * @example migrateSqlite(db, "GATE_DB .gate/gate.db")
 */
export function migrateSqlite(
  db: Database.Database,
  where: string,
  migrations: ReadonlyArray<Migration<Database.Database>> = SQLITE_MIGRATIONS,
): void {
  db.transaction(() => {
    db.exec(SCHEMA_VERSION_TABLE);
    const { v } = db.prepare("SELECT COALESCE(MAX(version), 0) AS v FROM gate_schema_version").get() as { v: number };
    for (const m of pendingMigrations(migrations, v, where)) {
      m.up(db);
      db.prepare("INSERT INTO gate_schema_version (version, name, applied_at) VALUES (?, ?, ?)").run(
        m.version,
        m.name,
        new Date().toISOString(),
      );
    }
  }).immediate();
}

function prepare(db: Database.Database, where: string): Database.Database {
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  migrateSqlite(db, where);
  return db;
}
