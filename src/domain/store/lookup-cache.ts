/**
 * What registries and advisory databases answered, kept between reviews: licences under their
 * package key, OSV answers under keys that start with `osv:`.
 *
 * @example if ((await cache.cachedLicense("npm:left-pad@1.3.0")) === undefined) await cache.cacheLicense(key, "MIT");
 */
export interface LookupCache {
  /** undefined = never asked; null = asked, unknown. */
  cachedLicense(key: string): Promise<string | null | undefined>;
  cacheLicense(key: string, license: string | null): Promise<void>;
}
