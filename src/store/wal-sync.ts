import { type FileHandle, open } from "node:fs/promises";
import type Database from "better-sqlite3";

/**
 * Group commit for a SQLite file in WAL mode at `synchronous = NORMAL` (better-sqlite3 is built
 * with that as the WAL default): COMMIT writes the transaction's frames to the WAL without
 * waiting for the disk, and they reach it at the next checkpoint, so a power loss can take the
 * last commits (the file stays consistent). A store transaction that must be on disk before its
 * caller hears of it (a webhook delivery before its answer, a person's decision before Slack's)
 * then waits for `sync()`, an fsync of the WAL file in the thread pool. A commit is on disk once
 * an fsync begun after it has finished, so the transactions committed while one fsync runs all
 * share the next: a burst of deliveries pays a few fsyncs, not one each, and the event loop never
 * waits for the disk. Single statements outside a transaction keep NORMAL's cost (FULL would
 * fsync every one of a review's many writes, on the event loop).
 *
 * @example const wal = walSync(db); if (wal) { ...commit...; await wal.sync(); }
 */
export interface WalSync {
  /** Resolves once every frame written to the WAL before this call is on disk. */
  sync(): Promise<void>;
}

/**
 * Flushes `file` to disk, keeping one descriptor open across flushes that follow each other (a
 * burst of commits) and closing it once none has come for `idleMs`. A flush then costs one trip
 * through the thread pool instead of three (open, fsync, close): each trip ends only when the
 * event loop next polls, and during a burst that is after every delivery the poll read. fsync
 * flushes the file's data whichever descriptor wrote it. SQLite deletes and recreates a WAL file
 * only once every connection to the database has closed, which the server's one connection does
 * at shutdown; a descriptor still held then (at most `idleMs`) flushes the old file, and nothing
 * flushes through it afterwards.
 *
 * @example const flush = heldFsync(`${db.name}-wal`); await flush();
 */
export function heldFsync(file: string, idleMs = 1000): () => Promise<void> {
  let handle: Promise<FileHandle> | undefined;
  let users = 0;
  let idle: NodeJS.Timeout | undefined;
  const letGo = () => {
    const closing = handle;
    handle = undefined;
    void closing?.then((h) => h.close()).catch(() => {});
  };
  return async () => {
    clearTimeout(idle);
    users++;
    handle ??= open(file, "r+");
    const opened = handle;
    try {
      await (await opened).sync();
    } catch (error) {
      // A descriptor that failed once is not trusted again: the next flush opens a fresh one.
      if (handle === opened) letGo();
      throw error;
    } finally {
      users--;
      if (users === 0) {
        idle = setTimeout(letGo, idleMs);
        idle.unref();
      }
    }
  };
}

/**
 * The WAL syncer for `db`, or undefined when it is not a file in WAL mode at `synchronous =
 * NORMAL` (at FULL or above each COMMIT syncs itself; at OFF nothing is synced, as asked).
 * `flush` is how a file reaches the disk (a test wraps it to watch).
 */
export function walSync(db: Database.Database, flush?: (file: string) => Promise<void>): WalSync | undefined {
  if (db.memory) return undefined;
  const mode = db.pragma("journal_mode", { simple: true });
  if (typeof mode !== "string" || mode.toLowerCase() !== "wal") return undefined;
  if (db.pragma("synchronous", { simple: true }) !== 1) return undefined;
  const file = `${db.name}-wal`;
  const flushWal = flush ? () => flush(file) : heldFsync(file);
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;

  const start = (): Promise<void> => {
    running = flushWal().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    sync() {
      if (!running) return start();
      // The fsync under way may have started before this commit wrote its frames: wait for the
      // one after it, which every commit arriving meanwhile shares.
      next ??= running
        .then(
          () => undefined,
          () => undefined,
        )
        .then(() => {
          next = undefined;
          return running ?? start();
        });
      return next;
    },
  };
}
