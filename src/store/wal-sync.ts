import { open } from "node:fs/promises";
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

/** Flushes one file to disk. Opened each time: the WAL is a new file if every connection closed
 * and one reopened it; fsync flushes the file's data whichever descriptor wrote it. */
export async function fsyncFile(file: string): Promise<void> {
  const handle = await open(file, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The WAL syncer for `db`, or undefined when it is not a file in WAL mode at `synchronous =
 * NORMAL` (at FULL or above each COMMIT syncs itself; at OFF nothing is synced, as asked).
 * `flush` is how a file reaches the disk (a test wraps it to watch).
 */
export function walSync(
  db: Database.Database,
  flush: (file: string) => Promise<void> = fsyncFile,
): WalSync | undefined {
  if (db.memory) return undefined;
  const mode = db.pragma("journal_mode", { simple: true });
  if (typeof mode !== "string" || mode.toLowerCase() !== "wal") return undefined;
  if (db.pragma("synchronous", { simple: true }) !== 1) return undefined;
  const file = `${db.name}-wal`;
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;

  const start = (): Promise<void> => {
    running = flush(file).finally(() => {
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
