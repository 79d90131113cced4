import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import type { Logger } from "pino";

/**
 * The worker's whole program (CommonJS, run with `eval`, so that it runs the same under the
 * built server, tsx and the tests): its own connection to the database file, a PASSIVE
 * checkpoint every `everyMs`, and a close on "close". PASSIVE waits for nobody: it copies what no
 * reader still needs and leaves the rest for the next turn.
 */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("synchronous = NORMAL");
const checkpoint = () => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message || error) });
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on("message", (message) => {
  if (message !== "close") return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
parentPort.postMessage("ready");
`;

/** SQLite's own default: a checkpoint by the committing connection once the WAL passes 1,000 pages. */
const AUTO_CHECKPOINT_PAGES = 1000;

export interface WalCheckpoints {
  /** Checkpoints once more, closes the worker's connection, and gives checkpointing back to `db`. */
  close(): Promise<void>;
}

/**
 * Moves a WAL file's checkpoints off the event loop, to a worker thread with a connection of its
 * own. By default SQLite checkpoints inside whichever COMMIT takes the WAL past 1,000 pages, on the
 * committing thread: it copies those pages into the database file and fsyncs both files, tens of
 * milliseconds during which the server answers no webhook. With the worker running, the server's
 * connection never checkpoints (`wal_autocheckpoint = 0`); the worker does, every `everyMs`, and
 * each of its checkpoints also syncs what the server's commits wrote to the WAL, so the fsync a
 * webhook's answer waits for has little left to write. If the worker stops, the connection takes
 * checkpointing back, so the WAL never grows without bound.
 *
 * Undefined for a database that is not a WAL file (memory, or another journal mode).
 *
 * @example const checkpoints = await startWalCheckpoints(db, log); ...; await checkpoints?.close();
 */
export async function startWalCheckpoints(
  db: Database.Database,
  log: Logger,
  everyMs = 250,
): Promise<WalCheckpoints | undefined> {
  if (db.memory) return undefined;
  const mode = db.pragma("journal_mode", { simple: true });
  if (typeof mode !== "string" || mode.toLowerCase() !== "wal") return undefined;
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER, { eval: true, workerData: { file: db.name, driver, everyMs } });
  // The worker never keeps the process alive: a server that closes without `close` still exits.
  worker.unref();
  let closing = false;
  const giveBack = () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  };
  const exited = new Promise<void>((resolve) => {
    worker.once("exit", (code) => {
      giveBack();
      if (!closing) log.warn({ code }, "the WAL checkpoint worker stopped; the server's connection checkpoints again");
      resolve();
    });
  });
  worker.on("message", (message: unknown) => {
    if (typeof message === "object" && message !== null && "failed" in message)
      log.warn({ reason: message.failed }, "a WAL checkpoint failed; the next one retries");
  });
  worker.once("error", (error) => log.warn({ err: error }, "the WAL checkpoint worker failed"));
  const ready = await new Promise<boolean>((resolve) => {
    worker.once("message", (message) => resolve(message === "ready"));
    void exited.then(() => resolve(false));
  });
  if (!ready) return undefined;
  db.pragma("wal_autocheckpoint = 0");
  return {
    async close() {
      if (closing) return exited;
      closing = true;
      worker.postMessage("close");
      await exited;
    },
  };
}
