import type { ReviewStore } from "../domain/review-store.js";

/**
 * Where OSV's answers are kept between reviews: the store's licence-cache shelf, under keys that
 * start with `osv:` (a licence key starts with its ecosystem, so the two never meet). A value is
 * JSON with the time it was fetched, so entries older than the TTL are asked again.
 */
export interface OsvCache {
  get(key: string): Promise<string | null | undefined>;
  set(key: string, value: string): Promise<void>;
}

/**
 * The store's shelf as an OSV cache (SQLite and PostgreSQL alike, through the store's interface).
 *
 * @example createOsvClient({ cache: storeOsvCache(store) })
 */
export function storeOsvCache(store: Pick<ReviewStore, "cachedLicense" | "cacheLicense">): OsvCache {
  return {
    get: (key) => store.cachedLicense(key),
    set: (key, value) => store.cacheLicense(key, value),
  };
}

/** A cached value still fresh at `now` (ms), or undefined (absent, stale, or unreadable). */
export function freshEntry<T>(text: string | null | undefined, now: number, ttlMs: number): T | undefined {
  if (!text) return undefined;
  try {
    const entry = JSON.parse(text) as { at?: unknown; value?: unknown };
    if (typeof entry.at !== "number" || now - entry.at > ttlMs || now < entry.at) return undefined;
    return entry.value as T;
  } catch {
    return undefined; // not ours, or cut off: ask again
  }
}

/**
 * A value to cache, stamped with `now` (ms).
 *
 * @example await cache.set("osv:vuln:GHSA-x", cacheEntry(record, Date.now()))
 */
export function cacheEntry(value: unknown, now: number): string {
  return JSON.stringify({ at: now, value });
}
