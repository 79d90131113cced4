import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import type Database from "better-sqlite3";
import { GateError, messageOf } from "../../domain/errors.js";
import { type WalSync, walSync } from "../wal-sync.js";
import { prepared } from "./prepared.js";

/** The least time between the starts of two batches of transactions (`TransactionGate.due`). */
export const BATCH_SPACING_MS = 5;

/** How one transaction of a batch ended. */
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A transaction waiting for its batch (see `groupCommit`). */
interface Batched {
  work: () => Promise<unknown>;
  /**
   * The caller's async context: the work runs later, from the batch, but in it (with the
   * caller's AsyncLocalStorage values), as if it had run at once.
   */
  caller: AsyncResource;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Who holds the one SQLite connection's transaction. better-sqlite3 runs statements on one
 * connection, so while an asynchronous transaction is open every other caller waits for it
 * (its statements would otherwise land inside it, and be rolled back with it).
 */
export class TransactionGate {
  /**
   * @param flush how the WAL reaches the disk (see wal-sync.ts; a test wraps it to watch).
   * @param spacingMs the least time from one batch's start to the next's (see `due`).
   */
  constructor(
    private readonly flush?: (file: string) => Promise<void>,
    readonly spacingMs = BATCH_SPACING_MS,
  ) {}

  /** When (performance.now()) the last batch started. */
  lastBatch = Number.NEGATIVE_INFINITY;

  /**
   * How long a new batch waits before it starts: none when the last one started `spacingMs` ago
   * or more (a lone transaction commits at the end of its turn), else the rest of that time.
   * Transactions that come one after another (deliveries a client sends one by one, a
   * millisecond apart) then share a COMMIT and an fsync instead of paying one each: on the
   * development machine a delivery's transaction committed and fsynced alone costs about 220 µs
   * of CPU, one of a batch of 50 about 40 µs; a delivery waits at most `spacingMs` more.
   */
  due(now: number): number {
    return Math.max(0, this.lastBatch + this.spacingMs - now);
  }

  /** Settles when the open transaction ends; undefined when none is open. */
  open: Promise<void> | undefined;
  /** The open transaction's marker, seen by the work running inside it (it joins, never waits). */
  readonly inside = new AsyncLocalStorage<{ active: boolean }>();
  /** Transactions asked for during this turn of the event loop: they run together at its end. */
  readonly queued: Batched[] = [];
  /** A batch is due on the next check phase. */
  scheduled = false;
  private walOf: WalSync | null | undefined;
  /** The connection's WAL syncer, looked up once (null: not a WAL file at NORMAL; commits sync themselves or never). */
  wal(db: Database.Database): WalSync | undefined {
    if (this.walOf === undefined) this.walOf = walSync(db, this.flush) ?? null;
    return this.walOf ?? undefined;
  }
}

/**
 * Runs `work` in one SQLite transaction: all of its writes, or none when it throws. While it is
 * open, this process's other callers wait for it (the gate's `open`).
 *
 * Transactions are committed in batches (group commit). Those asked for during one turn of the
 * event loop (a burst of webhook deliveries read in one poll) run together on the turn's check
 * phase; when the last batch started less than the gate's `spacingMs` ago, they wait until
 * then, with every one asked for meanwhile (deliveries that arrive one by one). A batch runs
 * its transactions one after another, each in a savepoint of its own, under one BEGIN
 * IMMEDIATE (the write lock is taken at once, so a second process waits on the busy timeout
 * rather than failing at its first write) and one COMMIT. A transaction whose work throws is
 * rolled back to its savepoint and rejects alone; the others commit. Sharing the COMMIT writes
 * each changed page to the WAL once for the batch instead of once per transaction, and every
 * transaction of the batch then waits for the same fsync, which none of them could have had
 * sooner: a thread-pool fsync completes only after the turn that started it.
 *
 * @example await groupCommit(db, gate, async () => insertTwoRows());
 */
export function groupCommit<T>(db: Database.Database, gate: TransactionGate, work: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    gate.queued.push({
      work,
      caller: new AsyncResource("gate.transaction"),
      resolve: resolve as (value: unknown) => void,
      reject,
    });
    if (gate.scheduled) return;
    gate.scheduled = true;
    const wait = gate.due(performance.now());
    if (wait > 0) setTimeout(() => void runBatch(db, gate), wait);
    else setImmediate(() => void runBatch(db, gate));
  });
}

/** Runs the queued transactions as one SQLite transaction, then waits for their shared fsync. */
async function runBatch(db: Database.Database, gate: TransactionGate): Promise<void> {
  gate.scheduled = false;
  while (gate.open !== undefined) await gate.open;
  const batch = gate.queued.splice(0);
  if (batch.length === 0) return;
  gate.lastBatch = performance.now();
  let release = () => {};
  gate.open = new Promise<void>((resolve) => {
    release = resolve;
  });
  const outcomes: Outcome[] = [];
  /** A failure that ended SQLite's transaction itself (a full disk, an I/O error): it takes the whole batch. */
  let ended: { error: unknown } | undefined;
  try {
    prepared(db, "BEGIN IMMEDIATE").run();
    for (const item of batch) {
      const outcome = await runOne(db, gate, item);
      outcomes.push(outcome);
      if (!outcome.ok && !db.inTransaction) {
        ended = outcome;
        break;
      }
    }
    if (!ended) prepared(db, "COMMIT").run();
  } catch (error) {
    // BEGIN or COMMIT failed: nothing of the batch is committed.
    ended = { error };
    try {
      if (db.inTransaction) prepared(db, "ROLLBACK").run();
    } catch {
      // SQLite rolls back a transaction it cannot finish itself; the batch's callers hear of the first error.
    }
  } finally {
    gate.open = undefined;
    release();
  }
  if (ended) {
    const error = storageError(ended.error);
    for (const item of batch) item.reject(error);
    return;
  }
  // On disk before the callers hear of it (a webhook answers only after this): COMMIT under
  // synchronous = NORMAL does not wait for the disk; this fsync, shared with the batches
  // committing meanwhile and off the event loop, does (see wal-sync.ts).
  const wal = gate.wal(db);
  let unsynced: { error: unknown } | undefined;
  if (wal && outcomes.some((o) => o.ok)) {
    try {
      await wal.sync();
    } catch (error) {
      unsynced = { error };
    }
  }
  batch.forEach((item, i) => {
    const outcome = outcomes[i] as Outcome;
    if (!outcome.ok) item.reject(storageError(outcome.error));
    else if (unsynced) item.reject(unsynced.error);
    else item.resolve(outcome.value);
  });
}

/**
 * SQLite's busy and full-disk errors as the gate's own (DATABASE_BUSY, DATABASE_FULL, with their
 * advice and SQLite's error as the cause); any other error as it is.
 */
export function storageError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "SQLITE_BUSY" || code === "SQLITE_BUSY_SNAPSHOT" || code === "SQLITE_BUSY_TIMEOUT")
    return new GateError("DATABASE_BUSY", `the SQLite database is locked by another connection (${messageOf(error)})`, {
      cause: error,
    });
  if (code === "SQLITE_FULL")
    return new GateError("DATABASE_FULL", `the SQLite database cannot grow (${messageOf(error)})`, { cause: error });
  return error;
}

/** One transaction of a batch, in a savepoint of its own. */
async function runOne(db: Database.Database, gate: TransactionGate, item: Batched): Promise<Outcome> {
  const marker = { active: true };
  prepared(db, "SAVEPOINT gate_tx").run();
  try {
    const work = () => gate.inside.run(marker, item.work);
    return { ok: true, value: await item.caller.runInAsyncScope(work) };
  } catch (error) {
    if (db.inTransaction) prepared(db, "ROLLBACK TO gate_tx").run();
    return { ok: false, error };
  } finally {
    marker.active = false;
    if (db.inTransaction) prepared(db, "RELEASE gate_tx").run();
  }
}
