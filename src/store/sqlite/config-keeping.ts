import type { ConfigKeeping } from "../../domain/store/config-keeping.js";
import type { SqliteConnection } from "./connection.js";

/**
 * The configuration shelf on SQLite (`gate_configs`).
 *
 * @example await sqliteConfigKeeping(connection).keepConfig(digest, json);
 */
export function sqliteConfigKeeping(c: SqliteConnection): ConfigKeeping {
  return {
    async keepConfig(digest, json) {
      await c.ready();
      c.sql(`INSERT OR IGNORE INTO gate_configs (digest, json) VALUES (?, ?)`).run(digest, json);
    },
    async configJson(digest) {
      await c.ready();
      const row = c.sql(`SELECT json FROM gate_configs WHERE digest = ?`).get(digest) as { json: string } | undefined;
      return row?.json;
    },
  };
}
