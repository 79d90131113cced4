import type { LookupCache } from "../../domain/store/lookup-cache.js";
import type { PgConnection } from "./connection.js";

/**
 * The licence/advisory cache on PostgreSQL (`gate_license_cache`).
 *
 * @example await pgLookupCache(connection).cachedLicense("npm:x@1");
 */
export function pgLookupCache(c: PgConnection): LookupCache {
  return {
    async cachedLicense(key) {
      const [row] = await c.rows<{ license: string | null }>("SELECT license FROM gate_license_cache WHERE key = $1", [
        key,
      ]);
      return row === undefined ? undefined : row.license;
    },
    async cacheLicense(key, license) {
      await c.changed(
        `INSERT INTO gate_license_cache (key, license, fetched_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET license = excluded.license, fetched_at = excluded.fetched_at`,
        [key, license, c.now()],
      );
    },
  };
}
