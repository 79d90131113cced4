import type { ConfigKeeping } from "../../domain/store/config-keeping.js";
import type { PgConnection } from "./connection.js";

/**
 * The configuration shelf on PostgreSQL (`gate_configs`).
 *
 * @example await pgConfigKeeping(connection).keepConfig(digest, json);
 */
export function pgConfigKeeping(c: PgConnection): ConfigKeeping {
  return {
    async keepConfig(digest, json) {
      await c.changed("INSERT INTO gate_configs (digest, json) VALUES ($1, $2) ON CONFLICT (digest) DO NOTHING", [
        digest,
        json,
      ]);
    },
    async configJson(digest) {
      const [row] = await c.rows<{ json: string }>("SELECT json FROM gate_configs WHERE digest = $1", [digest]);
      return row?.json;
    },
  };
}
