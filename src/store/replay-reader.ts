import fs from "node:fs";
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import type { PullRequest } from "../domain/pull-request.js";
import type { ReviewResult } from "../domain/review-result.js";
import type { ReviewSource } from "../domain/review-source.js";
import { GateError, messageOf } from "../domain/errors.js";
import { describeDatabase, type DatabaseSetting } from "./state.js";

/** One stored review as a replay reads it: its record's few fields, its last result and its pull request. */
export interface StoredReview {
  id: string;
  pr: string;
  repo: string;
  createdAt: string;
  source: ReviewSource;
  /** The result it settled on (or waits with); undefined for one that never ran. */
  result?: ReviewResult;
  /** The stored pull request; undefined when it was not kept (a review from before it was kept). */
  pullRequest?: PullRequest;
}

/** A stored review whose record or pull request cannot be read back: named, so a replay skips it and goes on. */
export interface DamagedReview {
  id: string;
  pr: string;
  repo: string;
  createdAt: string;
  /** What could not be read. */
  damaged: string;
}

/** Which stored reviews to read: one repository (`owner/name`), and since when (ISO time). */
export interface StoredReviewFilter {
  repo?: string;
  since?: string;
}

/** The gate's database opened to be read only: nothing a replay does can write to it. */
export interface StoredReviews {
  /** The reviews, oldest first; a damaged one is listed as such, never an error for the whole list. */
  list(filter: StoredReviewFilter): Promise<Array<StoredReview | DamagedReview>>;
  close(): Promise<void>;
}

interface Row {
  id: string;
  pr: string;
  repo: string;
  created_at: string;
  source_json: string;
  result_json: string | null;
  json_gz: Buffer | null;
}

const SELECT = `SELECT r.id, r.pr, r.repo, r.created_at, r.source_json, r.result_json, p.json_gz
  FROM gate_reviews r LEFT JOIN gate_pull_requests p ON p.review_id = r.id`;

/** A row as a replay reads it; a row whose stored JSON or pull request cannot be read is kept, marked damaged. */
function toStored(r: Row): StoredReview | DamagedReview {
  const head = { id: r.id, pr: r.pr, repo: r.repo, createdAt: r.created_at };
  try {
    return {
      ...head,
      source: JSON.parse(r.source_json) as ReviewSource,
      ...(r.result_json ? { result: JSON.parse(r.result_json) as ReviewResult } : {}),
      ...(r.json_gz ? { pullRequest: JSON.parse(gunzipSync(r.json_gz).toString("utf8")) as PullRequest } : {}),
    };
  } catch (error) {
    return { ...head, damaged: messageOf(error) };
  }
}

/** The filter as SQL conditions with numbered (`$1`) or anonymous (`?`) parameters. */
function where(filter: StoredReviewFilter, numbered: boolean): { sql: string; params: string[] } {
  const params: string[] = [];
  const conditions: string[] = [];
  const param = (value: string) => {
    params.push(value);
    return numbered ? `$${params.length}` : "?";
  };
  if (filter.repo) conditions.push(`r.repo = ${param(filter.repo)}`);
  if (filter.since) conditions.push(`r.created_at >= ${param(filter.since)}`);
  const sql = `${conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : ""} ORDER BY r.created_at, r.id`;
  return { sql, params };
}

/**
 * A SQLite file opened so that nothing beside it changes either. While a WAL file is beside it (a
 * gate has it open), read-only through that WAL. Without one, SQLite would create the WAL and
 * its index to read a WAL-mode file: read a copy in memory instead, marked as a rollback-journal
 * file (header bytes 18 and 19: https://www.sqlite.org/fileformat2.html#file_format_version_numbers).
 */
function openReadOnly(file: string): Database.Database {
  if (fs.existsSync(`${file}-wal`)) return new Database(file, { readonly: true, fileMustExist: true });
  const copy = fs.readFileSync(file);
  if (copy.length >= 20 && copy[18] === 2 && copy[19] === 2) copy.fill(1, 18, 20);
  return new Database(copy, { readonly: true });
}

/**
 * The gate's stored reviews, read only: SQLite opened read-only (the file's bytes stay as they
 * are), PostgreSQL in read-only transactions. A database that is not the gate's (or a SQLite file
 * that does not exist) is an error naming it; nothing is created.
 *
 * @example const stored = await openStoredReviews(settings.database); try { await stored.list({ repo: "acme/web" }) } finally { await stored.close() }
 */
export async function openStoredReviews(database: DatabaseSetting): Promise<StoredReviews> {
  const name = describeDatabase(database);
  const refused = (error: unknown) =>
    new GateError("CONFIG_INVALID", `cannot read the gate's reviews from ${name}: ${messageOf(error)}`, {
      cause: error,
    });
  if (database.kind === "sqlite") {
    let db: Database.Database;
    try {
      db = openReadOnly(database.path);
      db.pragma("query_only = ON");
    } catch (error) {
      throw refused(error);
    }
    return {
      async list(filter) {
        const w = where(filter, false);
        try {
          return (db.prepare(`${SELECT}${w.sql}`).all(...w.params) as Row[]).map(toStored);
        } catch (error) {
          throw refused(error);
        }
      },
      close: async () => void db.close(),
    };
  }
  // node-postgres is loaded only in PostgreSQL mode.
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: database.url, options: "-c default_transaction_read_only=on" });
  return {
    async list(filter) {
      const w = where(filter, true);
      try {
        return (await pool.query<Row>(`${SELECT}${w.sql}`, w.params)).rows.map(toStored);
      } catch (error) {
        throw refused(error);
      }
    },
    close: () => pool.end(),
  };
}
