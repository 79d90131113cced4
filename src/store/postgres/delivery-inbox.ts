import type { DeliveryInbox, InboxEntry } from "../../domain/store/delivery-inbox.js";
import { DELIVERIES, insertInboxSql, takeInboxSql } from "../once-keys.js";
import type { PgConnection } from "./connection.js";

/**
 * The deliveries seen and the delivery inbox on PostgreSQL (`gate_deliveries`, `gate_inbox`).
 *
 * @example await pgDeliveryInbox(connection).recordDelivery("d-1", "pull_request", entry);
 */
export function pgDeliveryInbox(c: PgConnection): DeliveryInbox {
  return {
    recordDelivery(id, event, entry) {
      if (!entry) return c.insertOnce(DELIVERIES, id, event);
      // The delivery and its inbox entry are written together or not at all.
      return c.transaction(async (tx) => {
        if (!(await tx.insertOnce(DELIVERIES, id, event))) return false;
        await tx.changed(insertInboxSql("$1", "$2"), [id, JSON.stringify(entry)]);
        return true;
      });
    },
    hasDelivery: (id) => c.rowExists(DELIVERIES, id),
    async peekInbox(deliveryId) {
      const [row] = await c.rows<{ entry_json: string }>("SELECT entry_json FROM gate_inbox WHERE delivery_id = $1", [
        deliveryId,
      ]);
      return row ? (JSON.parse(row.entry_json) as InboxEntry) : undefined;
    },
    async takeFromInbox(deliveryId) {
      const [row] = await c.rows<{ entry_json: string }>(takeInboxSql("$1"), [deliveryId]);
      return row ? (JSON.parse(row.entry_json) as InboxEntry) : undefined;
    },
    async inboxDeliveries() {
      const rows = await c.rows<{ delivery_id: string }>(`SELECT delivery_id FROM gate_inbox ORDER BY seq`);
      return rows.map((r) => r.delivery_id);
    },
  };
}
