import type { Ecosystem, LicenseResolver } from "../domain/license-resolver.js";

/**
 * What a registry lookup concluded. `unknown` is an answer (no such package, or no licence
 * declared); `failed` is not (network error, timeout, 5xx) and is never cached.
 */
export type LicenseLookup =
  | { status: "found"; license: string }
  | { status: "unknown" }
  | { status: "failed"; reason: string };

/** A resolver that can also say why it has no licence (the registry resolvers are). */
export interface RegistryResolver extends LicenseResolver {
  lookup(ecosystem: Ecosystem, name: string, version?: string): Promise<LicenseLookup>;
}

/** A key/value store for licences; `null` records a known-unknown, `undefined` is a miss. */
export interface LicenseCache {
  get(key: string): string | null | undefined;
  set(key: string, value: string | null): void;
}

function hasLookup(inner: LicenseResolver): inner is RegistryResolver {
  return "lookup" in inner && typeof inner.lookup === "function";
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
 * (a registry outage must not mark a package unknown for good). With a plain `LicenseResolver`
 * only found licences are cached, since its `undefined` cannot tell the two apart.
 *
 * @example const licenses = createCachedResolver(createNpmResolver(), sqliteLicenseCache);
 */
export function createCachedResolver(inner: LicenseResolver, cache: LicenseCache): LicenseResolver {
  return {
    async resolve(ecosystem, name, version) {
      const key = licenseCacheKey(ecosystem, name, version);
      const hit = cache.get(key);
      if (hit !== undefined) return hit ?? undefined;
      if (hasLookup(inner)) {
        const answer = await inner.lookup(ecosystem, name, version);
        if (answer.status === "found") cache.set(key, answer.license);
        else if (answer.status === "unknown") cache.set(key, null);
        return answer.status === "found" ? answer.license : undefined;
      }
      const license = await inner.resolve(ecosystem, name, version);
      if (license !== undefined) cache.set(key, license);
      return license;
    },
  };
}
