import type Database from "better-sqlite3";

/** Each connection's prepared statements by their text. */
const PREPARED = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * The prepared statement for `text`, compiled once per connection (compiling is most of a small
 * statement's cost: a webhook's answer runs several, a review dozens).
 *
 * @example prepared(db, "SELECT * FROM gate_reviews WHERE id = ?").get("r-1")
 */
export function prepared(db: Database.Database, text: string): Database.Statement {
  const statements = PREPARED.get(db) ?? new Map<string, Database.Statement>();
  PREPARED.set(db, statements);
  const statement = statements.get(text) ?? db.prepare(text);
  statements.set(text, statement);
  return statement;
}
