import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { chainExisting, type UnchainedRow } from "../domain/audit-chain.js";
import { GateError, messageOf } from "../domain/errors.js";
import { AUDITORS_TABLE } from "./auditor-sql.js";
import { changesTable } from "./change-sql.js";
import { AUDIT_CHAIN_COLUMNS, UNCHAINED_ROWS } from "./audit-sql.js";
import { type Migration, pendingMigrations, SCHEMA_VERSION_TABLE } from "./migrations.js";
import { tablesV1 } from "./schema-v1.js";

/** The audit log's refusal of edits (dropped and made again once, by the migration that chains it). */
const NO_UPDATE = `-- Append-only: the audit log refuses edits and deletions.
CREATE TRIGGER IF NOT EXISTS gate_audit_no_update BEFORE UPDATE ON gate_audit
  BEGIN SELECT RAISE(ABORT, 'gate_audit is append-only'); END;`;

/**
 * The first schema's tables in SQLite (LangGraph's SqliteSaver adds `checkpoints` and `writes` in
 * the same file). `IF NOT EXISTS` throughout: a file made before versioning is adopted as it is.
 */
const SCHEMA_1 = `${tablesV1({
  ifNotExists: "IF NOT EXISTS ",
  githubId: "INTEGER",
  serialKey: "INTEGER PRIMARY KEY AUTOINCREMENT",
  bytes: "BLOB",
  reviewExtras: "",
})}
${NO_UPDATE}
CREATE TRIGGER IF NOT EXISTS gate_audit_no_delete BEFORE DELETE ON gate_audit
  BEGIN SELECT RAISE(ABORT, 'gate_audit is append-only'); END;
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
    refuse(`cannot make its folder (${messageOf(error)})`, error);
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
    return refuse(`cannot open it as the gate's database (${messageOf(error)})`, error);
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
  {
    version: 3,
    name: "reviews whose result is not published, indexed",
    up: (db) => {
      // A restart (and a publish job) lists only these, not every settled review; the condition
      // is the store's UNPUBLISHED word for word, or SQLite would not use the index.
      db.exec(`CREATE INDEX IF NOT EXISTS gate_reviews_unpublished ON gate_reviews (created_at)
        WHERE result_json IS NOT NULL AND (published_json IS NULL OR published_json <> result_json)`);
    },
  },
  {
    version: 4,
    name: "deliveries whose review is not registered yet (the delivery inbox)",
    up: (db) => {
      // Written with the delivery before GitHub's answer, deleted when the review is registered
      // after it; what is left after a crash is registered by the restart. Rowid order is arrival order.
      db.exec(`CREATE TABLE IF NOT EXISTS gate_inbox (delivery_id TEXT PRIMARY KEY, entry_json TEXT NOT NULL)`);
    },
  },
  {
    version: 5,
    name: "a published result is marked, not copied",
    up: (db) => {
      // A settled review kept its result twice (the published copy, to compare); a mark says the same.
      db.exec(`ALTER TABLE gate_reviews ADD COLUMN result_published INTEGER NOT NULL DEFAULT 0;
        UPDATE gate_reviews SET result_published = 1 WHERE result_json IS NOT NULL AND published_json = result_json;
        DROP INDEX IF EXISTS gate_reviews_unpublished;
        ALTER TABLE gate_reviews DROP COLUMN published_json;
        CREATE INDEX gate_reviews_unpublished ON gate_reviews (created_at) WHERE result_json IS NOT NULL AND result_published = 0;`);
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
    up: (db) => {
      db.exec(changesTable(""));
    },
  },
  {
    version: 8,
    name: "the auditors who may read the evidence pages, their tokens hashed",
    up: (db) => {
      db.exec(AUDITORS_TABLE);
    },
  },
];

/**
 * Migration 6: the audit log's chain columns and heads (audit-sql.ts), then every row written
 * before it chained once, in sequence order (src/domain/audit-chain.ts). Its edit trigger is
 * lifted for those updates only, inside the migration's transaction.
 */
function chainAuditLog(db: Database.Database): void {
  db.exec(`${AUDIT_CHAIN_COLUMNS}
    CREATE TRIGGER gate_audit_heads_forward BEFORE UPDATE ON gate_audit_heads
      WHEN NEW.seq <= OLD.seq OR NEW.chain <> OLD.chain
      BEGIN SELECT RAISE(ABORT, 'gate_audit_heads only moves forward'); END;
    CREATE TRIGGER gate_audit_heads_no_delete BEFORE DELETE ON gate_audit_heads
      BEGIN SELECT RAISE(ABORT, 'gate_audit_heads only moves forward'); END;`);
  const { links, heads } = chainExisting(db.prepare(UNCHAINED_ROWS).all() as UnchainedRow[]);
  db.exec("DROP TRIGGER gate_audit_no_update");
  const link = db.prepare("UPDATE gate_audit SET chain = ?, prev_hash = ?, hash = ? WHERE seq = ?");
  for (const l of links) link.run(l.chain, l.prevHash, l.hash, l.seq);
  db.exec(NO_UPDATE);
  const head = db.prepare("INSERT INTO gate_audit_heads (chain, seq, hash) VALUES (?, ?, ?)");
  for (const [chain, h] of heads) head.run(chain, h.seq, h.hash);
}

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
  // Said here, not left to the build's default: commits wait for no fsync; a store transaction
  // that must be on disk first waits for a shared one (wal-sync.ts).
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  migrateSqlite(db, where);
  return db;
}
