import type { DeliveryInbox, InboxEntry } from "../../domain/store/delivery-inbox.js";
import { DELIVERIES, insertInboxSql, takeInboxSql } from "../once-keys.js";
import type { SqliteConnection } from "./connection.js";

/**
 * The deliveries seen and the delivery inbox on SQLite (`gate_deliveries`, `gate_inbox`).
 *
 * @example await sqliteDeliveryInbox(connection).recordDelivery("d-1", "pull_request", entry);
 */
export function sqliteDeliveryInbox(c: SqliteConnection): DeliveryInbox {
  return {
    async recordDelivery(id, event, entry) {
      // The delivery and its inbox entry are written together or not at all.
      if (entry && !c.bound)
        return c.transaction((bound) => sqliteDeliveryInbox(bound).recordDelivery(id, event, entry));
      if (!(await c.insertOnce(DELIVERIES, id, event))) return false;
      if (entry) c.sql(insertInboxSql("?", "?")).run(id, JSON.stringify(entry));
      return true;
    },
    hasDelivery: (id) => c.rowExists(DELIVERIES, id),
    async peekInbox(deliveryId) {
      await c.ready();
      const row = c.sql(`SELECT entry_json FROM gate_inbox WHERE delivery_id = ?`).get(deliveryId) as
        | { entry_json: string }
        | undefined;
      return row ? (JSON.parse(row.entry_json) as InboxEntry) : undefined;
    },
    async takeFromInbox(deliveryId) {
      await c.ready();
      const row = c.sql(takeInboxSql("?")).get(deliveryId) as { entry_json: string } | undefined;
      return row ? (JSON.parse(row.entry_json) as InboxEntry) : undefined;
    },
    async inboxDeliveries() {
      await c.ready();
      const rows = c.sql(`SELECT delivery_id FROM gate_inbox ORDER BY rowid`).all() as Array<{ delivery_id: string }>;
      return rows.map((r) => r.delivery_id);
    },
  };
}
