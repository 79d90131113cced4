import type { LookupCache } from "../../domain/store/lookup-cache.js";
import type { SqliteConnection } from "./connection.js";

/**
 * The licence/advisory cache on SQLite (`gate_license_cache`).
 *
 * @example await sqliteLookupCache(connection).cachedLicense("npm:x@1");
 */
export function sqliteLookupCache(c: SqliteConnection): LookupCache {
  return {
    async cachedLicense(key) {
      await c.ready();
      const row = c.sql(`SELECT license FROM gate_license_cache WHERE key = ?`).get(key) as
        | { license: string | null }
        | undefined;
      return row === undefined ? undefined : row.license;
    },
    async cacheLicense(key, license) {
      await c.ready();
      c.sql(`INSERT OR REPLACE INTO gate_license_cache (key, license, fetched_at) VALUES (?, ?, ?)`).run(
        key,
        license,
        c.now(),
      );
    },
  };
}
