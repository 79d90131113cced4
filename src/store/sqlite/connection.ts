import type Database from "better-sqlite3";
import type { Clock } from "../../domain/clock.js";
import { existsSql, insertOnceSql, type OnceTable } from "../once-keys.js";
import { groupCommit, TransactionGate } from "./group-commit.js";
import { prepared } from "./prepared.js";

/**
 * The gate's one SQLite connection as the store's pieces use it: prepared statements, the
 * clock, and the transaction gate every piece waits on. Statements run synchronously on
 * better-sqlite3 behind the asynchronous port; `transaction` holds the connection for its work.
 *
 * @example const c = new SqliteConnection(openDatabase(path), systemClock); await c.ready(); c.sql("SELECT 1").get();
 */
export class SqliteConnection {
  constructor(
    readonly db: Database.Database,
    private readonly clock: Clock,
    readonly gate = new TransactionGate(),
    /** True for the connection handed to a transaction's work: its statements run inside it. */
    readonly bound = false,
  ) {}

  /** The prepared statement for `text` (compiled once per connection). */
  sql(text: string): Database.Statement {
    return prepared(this.db, text);
  }

  now(): string {
    return this.clock().toISOString();
  }

  /** Whether this call is part of an open transaction (it joins it, never waits for it). */
  private joins(): boolean {
    return this.bound || this.gate.inside.getStore()?.active === true;
  }

  /** Waits until no transaction holds the connection (unless this call is part of it). */
  async ready(): Promise<void> {
    if (this.joins()) return;
    while (this.gate.open) await this.gate.open;
  }

  /** Runs `work` in one transaction (group-commit.ts) on the bound connection; inside one, joins it. */
  transaction<T>(work: (bound: SqliteConnection) => Promise<T>): Promise<T> {
    if (this.joins()) return work(this.bound ? this : this.inTransaction());
    return groupCommit(this.db, this.gate, () => work(this.inTransaction()));
  }

  private inTransaction(): SqliteConnection {
    return new SqliteConnection(this.db, this.clock, this.gate, true);
  }

  /** Claims `key` in a write-once table; true when this call added it, false when it was there. */
  async insertOnce(table: OnceTable, key: string, value: string): Promise<boolean> {
    await this.ready();
    return this.sql(insertOnceSql(table, ["?", "?", "?"])).run(key, value, this.now()).changes === 1;
  }

  /** Whether `key` was claimed in a write-once table. */
  async rowExists(table: OnceTable, key: string): Promise<boolean> {
    await this.ready();
    return this.sql(existsSql(table, "?")).get(key) !== undefined;
  }
}
