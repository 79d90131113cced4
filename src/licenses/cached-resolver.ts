import type { Ecosystem, LicenseResolver } from "../domain/license-resolver.js";

/** A key/value store for licences; `null` records a known-unknown, `undefined` is a miss. */
export interface LicenseCache {
  get(key: string): Promise<string | null | undefined>;
  set(key: string, value: string | null): Promise<void>;
}

/**
 * The cache key of a lookup: `<ecosystem>:<name>@<version>` (version empty when not given).
 *
 * @example licenseCacheKey("npm", "left-pad", "1.3.0") // "npm:left-pad@1.3.0"
 */
export function licenseCacheKey(ecosystem: Ecosystem, name: string, version?: string): string {
  return `${ecosystem}:${name}@${version ?? ""}`;
}

/**
 * Caches a resolver's answers. Found licences and known-unknowns are cached; failures are not
 * (a registry outage must not mark a package unknown for good, and the next review asks again).
 *
 * @example const licenses = createCachedResolver(createNpmResolver(), sqliteLicenseCache);
 */
export function createCachedResolver(inner: LicenseResolver, cache: LicenseCache): LicenseResolver {
  return {
    async lookup(ecosystem, name, version) {
      const key = licenseCacheKey(ecosystem, name, version);
      const hit = await cache.get(key);
      if (hit !== undefined) return hit === null ? { status: "unknown" } : { status: "found", license: hit };
      const answer = await inner.lookup(ecosystem, name, version);
      if (answer.status === "found") await cache.set(key, answer.license);
      else if (answer.status === "unknown") await cache.set(key, null);
      return answer;
    },
  };
}
