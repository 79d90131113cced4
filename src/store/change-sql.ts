import {
  type ChangeFilter,
  type ChangeCursor,
  type ChangeInput,
  changeKey,
  type StoredChange,
} from "../domain/store/change-ledger.js";
import type { ReviewStatus } from "../domain/review-result.js";

/**
 * The changes table (migration 7 in either database): one row per change that reached a default
 * branch. `bytewise` makes PostgreSQL compare the ordered columns byte by byte, as SQLite does, so
 * both list (and sample) the changes in one order.
 */
export const changesTable = (bytewise: string) => `CREATE TABLE gate_changes (
  key TEXT${bytewise} PRIMARY KEY,
  kind TEXT NOT NULL,
  repo TEXT${bytewise} NOT NULL,
  pr TEXT,
  commit_sha TEXT,
  head_sha TEXT,
  branch TEXT,
  author TEXT NOT NULL DEFAULT '',
  merged_by TEXT NOT NULL DEFAULT '',
  merged_at TEXT${bytewise} NOT NULL,
  review_id TEXT,
  passed INTEGER NOT NULL DEFAULT 0,
  recorded_at TEXT NOT NULL
);
CREATE INDEX gate_changes_at ON gate_changes (merged_at, key);
CREATE INDEX gate_changes_repo_at ON gate_changes (repo, merged_at, key);`;

/** A `gate_changes` row joined with its review's status, result and last change. */
export interface ChangeRow {
  key: string;
  kind: "merge" | "push";
  repo: string;
  pr: string | null;
  commit_sha: string | null;
  head_sha: string | null;
  branch: string | null;
  author: string;
  merged_by: string;
  merged_at: string;
  review_id: string | null;
  passed: number;
  recorded_at: string;
  status: ReviewStatus | null;
  result_json: string | null;
  updated_at: string | null;
}

/** A time as one ISO-8601 form (milliseconds, `Z`), so the text compares as the instants do; kept as given when unreadable. */
function isoInstant(text: string): string {
  const t = Date.parse(text);
  return Number.isNaN(t) ? text : new Date(t).toISOString();
}

/** The insert's values, in the order of `INSERT_COLUMNS`. */
export const INSERT_COLUMNS =
  "key, kind, repo, pr, commit_sha, head_sha, branch, author, merged_by, merged_at, review_id, passed, recorded_at";

export function insertValues(c: ChangeInput, now: string): unknown[] {
  return [
    changeKey(c),
    c.kind,
    c.repo,
    c.pr ?? null,
    c.commitSha ?? null,
    c.headSha ?? null,
    c.branch ?? null,
    c.author,
    c.mergedBy,
    isoInstant(c.mergedAt),
    c.reviewId ?? null,
    c.passed ? 1 : 0,
    now,
  ];
}

/**
 * One page of changes, in either database's placeholders (`$n` for PostgreSQL, `?` for SQLite):
 * the filter's conditions, the cursor's keyset, the order the indexes hold.
 */
export function changesPageSql(
  filter: ChangeFilter,
  after: ChangeCursor | undefined,
  limit: number,
  placeholder: (n: number) => string,
): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return placeholder(params.length);
  };
  if (filter.repo) where.push(`c.repo = ${p(filter.repo)}`);
  if (filter.key) where.push(`c.key = ${p(filter.key)}`);
  if (filter.since) where.push(`c.merged_at >= ${p(filter.since)}`);
  if (filter.until) where.push(`c.merged_at < ${p(filter.until)}`);
  if (after) {
    // Each value its own placeholder: SQLite's `?` are positional, so one used twice is given twice.
    where.push(
      `(c.merged_at > ${p(after.mergedAt)} OR (c.merged_at = ${p(after.mergedAt)} AND c.key > ${p(after.key)}))`,
    );
  }
  const sql = `SELECT c.*, r.status, r.result_json, r.updated_at FROM gate_changes c
    LEFT JOIN gate_reviews r ON r.id = c.review_id
    ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
    ORDER BY c.merged_at, c.key LIMIT ${p(limit)}`;
  return { sql, params };
}

/** A joined row as the port's change. */
export function toStoredChange(r: ChangeRow): StoredChange {
  return {
    key: r.key,
    kind: r.kind,
    repo: r.repo,
    ...(r.pr ? { pr: r.pr } : {}),
    ...(r.commit_sha ? { commitSha: r.commit_sha } : {}),
    ...(r.head_sha ? { headSha: r.head_sha } : {}),
    ...(r.branch ? { branch: r.branch } : {}),
    author: r.author,
    mergedBy: r.merged_by,
    mergedAt: r.merged_at,
    ...(r.review_id ? { reviewId: r.review_id } : {}),
    passed: Number(r.passed) === 1,
    recordedAt: r.recorded_at,
    ...(r.status && r.updated_at
      ? {
          review: {
            status: r.status,
            ...(r.result_json ? { resultJson: r.result_json } : {}),
            updatedAt: r.updated_at,
          },
        }
      : {}),
  };
}
