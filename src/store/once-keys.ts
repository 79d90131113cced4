/**
 * Tables whose rows are written once per key and never changed: a webhook delivery (a redelivery
 * is recognised by its id) and a message of a PR's Slack thread (said once, even after a restart).
 * Both stores claim and look them up the same way, from this description.
 */
export interface OnceTable {
  table: string;
  /** The key column (the delivery id, the note's key). */
  key: string;
  /** The one other value kept with the key (the event name, the review id). */
  value: string;
  /** When the key was first claimed. */
  at: string;
}

export const DELIVERIES: OnceTable = { table: "gate_deliveries", key: "id", value: "event", at: "received_at" };
export const SLACK_NOTES: OnceTable = { table: "gate_slack_notes", key: "key", value: "review_id", at: "at" };

/**
 * `INSERT … VALUES (key, value, at)` for `t` that adds nothing when the key is there (SQLite and
 * PostgreSQL read `ON CONFLICT … DO NOTHING` alike), with `$n` or `?` placeholders.
 */
export function insertOnceSql(t: OnceTable, placeholders: [string, string, string]): string {
  return `INSERT INTO ${t.table} (${t.key}, ${t.value}, ${t.at}) VALUES (${placeholders.join(", ")}) ON CONFLICT (${t.key}) DO NOTHING`;
}

/** `SELECT 1 … WHERE key = <placeholder>` for `t`. */
export function existsSql(t: OnceTable, placeholder: string): string {
  return `SELECT 1 FROM ${t.table} WHERE ${t.key} = ${placeholder}`;
}

/**
 * The delivery inbox (`gate_inbox`): what a recorded delivery asks of the gate, kept until its
 * review is registered. Written with the delivery, then taken once: deleted, its JSON returned.
 */
export const insertInboxSql = (id: string, json: string) =>
  `INSERT INTO gate_inbox (delivery_id, entry_json) VALUES (${id}, ${json})`;
export const takeInboxSql = (id: string) => `DELETE FROM gate_inbox WHERE delivery_id = ${id} RETURNING entry_json`;
