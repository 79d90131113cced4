import type { LicenseResolver } from "../domain/license-resolver.js";
import type { ReviewStore } from "../store/review-store.js";
import { createCachedResolver, type LicenseLookup, type RegistryResolver } from "./cached-resolver.js";
import { createNpmResolver } from "./npm-resolver.js";
import { createPypiResolver } from "./pypi-resolver.js";

/**
 * Live licences: npm and PyPI through their registries (addresses configurable for a private
 * registry), answers cached in SQLite. Go and Cargo resolve to unknown (LIC-01), never permissive.
 *
 * @example createRegistryResolver({ store, npmRegistryUrl: "https://npm.internal" })
 */
export function createRegistryResolver(opts: {
  store: ReviewStore;
  npmRegistryUrl?: string;
  pypiUrl?: string;
  fetch?: typeof fetch;
}): LicenseResolver {
  const npm = createNpmResolver({
    ...(opts.npmRegistryUrl ? { registryUrl: opts.npmRegistryUrl } : {}),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  const pypi = createPypiResolver({
    ...(opts.pypiUrl ? { baseUrl: opts.pypiUrl } : {}),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  const byEcosystem: RegistryResolver = {
    lookup: async (ecosystem, name, version): Promise<LicenseLookup> => {
      if (ecosystem === "npm") return npm.lookup(ecosystem, name, version);
      if (ecosystem === "pypi") return pypi.lookup(ecosystem, name, version);
      return { status: "unknown" };
    },
    resolve: async (ecosystem, name, version) => {
      const answer = await byEcosystem.lookup(ecosystem, name, version);
      return answer.status === "found" ? answer.license : undefined;
    },
  };
  return createCachedResolver(byEcosystem, {
    get: (key) => opts.store.cachedLicense(key),
    set: (key, value) => opts.store.cacheLicense(key, value),
  });
}
