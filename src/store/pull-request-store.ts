import { promisify } from "node:util";
import { createGzip, gunzip } from "node:zlib";
import type Database from "better-sqlite3";
import type { PullRequestStore } from "../domain/pull-request-loader.js";
import type { PullRequest } from "../domain/pull-request.js";
import { Turns } from "../domain/turns.js";

// Compressed and uncompressed on libuv's threads: a 3,000-file diff never holds the answering thread.
const gunzipped = promisify(gunzip);

/** Text handed to the compressor at once: each write is a trip through libuv's threads. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The pull request as gzipped JSON (its files first), written out a few files at a time with the
 * event loop's turns between: one `JSON.stringify` of a 3,000-file diff would hold the answering
 * thread for tens of milliseconds.
 */
async function gzippedJson(pr: PullRequest): Promise<Buffer> {
  const zip = createGzip({ level: 1 });
  const out: Buffer[] = [];
  zip.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    zip.once("end", resolve);
    zip.once("error", reject);
  });
  const { files, ...rest } = pr;
  const turns = new Turns();
  let chunk = `{"files":[`;
  for (const [i, file] of files.entries()) {
    if (turns.due()) await turns.take();
    chunk += `${i > 0 ? "," : ""}${JSON.stringify(file)}`;
    if (chunk.length >= CHUNK_CHARS) {
      zip.write(chunk);
      chunk = "";
    }
  }
  // The rest of the pull request (never empty: its repo, number, refs) closes the object.
  zip.end(`${chunk}],${JSON.stringify(rest).slice(1)}`);
  await done;
  return Buffer.concat(out);
}

/** How many parsed pull requests stay in memory: the reviews running now, not every waiting one. */
const CACHED = 8;

/** Where the gzipped pull requests live: one row per review, in either database. */
export interface PullRequestRows {
  put(reviewId: string, gz: Buffer): Promise<void>;
  get(reviewId: string): Promise<Buffer | undefined>;
  delete(reviewId: string): Promise<void>;
}

/**
 * The pull request of each review, stored once as gzipped JSON (`gate_pull_requests`; diffs
 * compress well, and SQLite's WAL writes every page twice), with the few most recently used kept
 * parsed in memory so that the graph's nodes do not re-read a large diff.
 *
 * @example const prs = new GzipPullRequestStore(sqlitePullRequestRows(db)); await prs.put("r-1", pr);
 */
export class GzipPullRequestStore implements PullRequestStore {
  private readonly cache = new Map<string, PullRequest>();

  constructor(private readonly rows: PullRequestRows) {}

  async put(reviewId: string, pr: PullRequest): Promise<void> {
    await this.rows.put(reviewId, await gzippedJson(pr));
    this.remember(reviewId, pr);
  }

  async get(reviewId: string): Promise<PullRequest | undefined> {
    const cached = this.cache.get(reviewId);
    if (cached) {
      this.remember(reviewId, cached);
      return cached;
    }
    const gz = await this.rows.get(reviewId);
    if (!gz) return undefined;
    const pr = JSON.parse((await gunzipped(gz)).toString("utf8")) as PullRequest;
    this.remember(reviewId, pr);
    return pr;
  }

  async delete(reviewId: string): Promise<void> {
    this.cache.delete(reviewId);
    await this.rows.delete(reviewId);
  }

  private remember(reviewId: string, pr: PullRequest): void {
    this.cache.delete(reviewId);
    this.cache.set(reviewId, pr);
    if (this.cache.size > CACHED) this.cache.delete(this.cache.keys().next().value as string);
  }
}

/** `gate_pull_requests` in the SQLite file. */
export function sqlitePullRequestRows(db: Database.Database): PullRequestRows {
  return {
    put: async (reviewId, gz) => {
      db.prepare(
        `INSERT INTO gate_pull_requests (review_id, json_gz) VALUES (?, ?) ON CONFLICT (review_id) DO UPDATE SET json_gz = excluded.json_gz`,
      ).run(reviewId, gz);
    },
    get: async (reviewId) =>
      (
        db.prepare(`SELECT json_gz FROM gate_pull_requests WHERE review_id = ?`).get(reviewId) as
          | { json_gz: Buffer }
          | undefined
      )?.json_gz,
    delete: async (reviewId) => {
      db.prepare(`DELETE FROM gate_pull_requests WHERE review_id = ?`).run(reviewId);
    },
  };
}

/**
 * Deletes every checkpoint of a settled review's thread but the newest, with their pending writes:
 * `status`, the audit log and a re-run need only the last state (LangGraph's SqliteSaver keeps every
 * step's full state otherwise).
 *
 * @example pruneCheckpoints(db, "r-1") // 14 (rows removed)
 */
export function pruneCheckpoints(db: Database.Database, threadId: string): number {
  const hasTables = db
    .prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('checkpoints', 'writes')`)
    .get() as { n: number };
  if (hasTables.n < 2) return 0;
  const prune = db.transaction((id: string) => {
    const latest = db
      .prepare(`SELECT max(checkpoint_id) AS id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''`)
      .get(id) as { id: string | null };
    if (!latest.id) return 0;
    const writes = db
      .prepare(`DELETE FROM writes WHERE thread_id = ? AND checkpoint_id <> ?`)
      .run(id, latest.id).changes;
    const checkpoints = db
      .prepare(`DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_id <> ?`)
      .run(id, latest.id).changes;
    return writes + checkpoints;
  });
  return prune(threadId);
}
