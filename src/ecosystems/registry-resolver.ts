import type { Ecosystem, LicenseResolver } from "../domain/license-resolver.js";
import { ECOSYSTEMS, type RegistryUrls } from "./index.js";
import type { ReviewStore } from "../domain/review-store.js";
import { createCachedResolver } from "../licenses/cached-resolver.js";
import type { RegistryHttpOptions } from "../licenses/registry-http.js";

export type { RegistryUrls } from "./index.js";

/**
 * Live licences: npm, PyPI, crates.io, Packagist and RubyGems through their registries, Go
 * modules, Maven artifacts and NuGet packages through deps.dev's API (every address configurable
 * for a mirror), each retried with backoff, answers cached in
 * SQLite. A lookup that gets no answer is `failed`: the review goes to a person.
 *
 * @example createRegistryResolver({ store, npmRegistryUrl: "https://npm.internal" })
 */
export function createRegistryResolver(
  opts: RegistryUrls & RegistryHttpOptions & { store: ReviewStore },
): LicenseResolver {
  const http: RegistryHttpOptions = {
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.retry ? { retry: opts.retry } : {}),
    ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}),
  };
  // Each registered ecosystem's licence registry, at the address its setting names.
  const byEcosystem = new Map<Ecosystem, LicenseResolver>();
  for (const e of ECOSYSTEMS) {
    if (e.name === "github-actions" || !e.licenseRegistry) continue;
    byEcosystem.set(e.name, e.licenseRegistry.create(http, opts[e.licenseRegistry.urlSetting]));
  }
  return createCachedResolver(
    {
      lookup: async (ecosystem, name, version) =>
        (await byEcosystem.get(ecosystem)?.lookup(ecosystem, name, version)) ?? { status: "unknown" },
    },
    {
      get: (key) => opts.store.cachedLicense(key),
      set: (key, value) => opts.store.cacheLicense(key, value),
    },
  );
}
