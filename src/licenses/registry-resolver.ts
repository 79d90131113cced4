import type { Ecosystem, LicenseResolver } from "../domain/license-resolver.js";
import type { ReviewStore } from "../domain/review-store.js";
import { createCachedResolver } from "./cached-resolver.js";
import { createCratesResolver } from "./crates-resolver.js";
import { createDepsDevResolver } from "./deps-dev-resolver.js";
import { createGoResolver } from "./go-resolver.js";
import { createNpmResolver } from "./npm-resolver.js";
import { createPackagistResolver } from "./packagist-resolver.js";
import { createPypiResolver } from "./pypi-resolver.js";
import { createRubygemsResolver } from "./rubygems-resolver.js";
import type { RegistryHttpOptions } from "./registry-http.js";

/** Where each ecosystem's licences are looked up; unset means the public service. */
export interface RegistryUrls {
  npmRegistryUrl?: string;
  pypiUrl?: string;
  cratesUrl?: string;
  goLicenseUrl?: string;
  /** deps.dev-compatible API for Maven artifacts (pom.xml, Gradle). */
  mavenLicenseUrl?: string;
  /** deps.dev-compatible API for NuGet packages. */
  nugetLicenseUrl?: string;
  packagistUrl?: string;
  rubygemsUrl?: string;
}

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
  const byEcosystem: Record<Ecosystem, LicenseResolver> = {
    npm: createNpmResolver({ ...http, ...(opts.npmRegistryUrl ? { registryUrl: opts.npmRegistryUrl } : {}) }),
    pypi: createPypiResolver({ ...http, ...(opts.pypiUrl ? { baseUrl: opts.pypiUrl } : {}) }),
    cargo: createCratesResolver({ ...http, ...(opts.cratesUrl ? { baseUrl: opts.cratesUrl } : {}) }),
    go: createGoResolver({ ...http, ...(opts.goLicenseUrl ? { baseUrl: opts.goLicenseUrl } : {}) }),
    maven: createDepsDevResolver("maven", {
      ...http,
      ...(opts.mavenLicenseUrl ? { baseUrl: opts.mavenLicenseUrl } : {}),
    }),
    nuget: createDepsDevResolver("nuget", {
      ...http,
      ...(opts.nugetLicenseUrl ? { baseUrl: opts.nugetLicenseUrl } : {}),
    }),
    composer: createPackagistResolver({ ...http, ...(opts.packagistUrl ? { baseUrl: opts.packagistUrl } : {}) }),
    rubygems: createRubygemsResolver({ ...http, ...(opts.rubygemsUrl ? { baseUrl: opts.rubygemsUrl } : {}) }),
  };
  return createCachedResolver(
    { lookup: (ecosystem, name, version) => byEcosystem[ecosystem].lookup(ecosystem, name, version) },
    {
      get: (key) => opts.store.cachedLicense(key),
      set: (key, value) => opts.store.cacheLicense(key, value),
    },
  );
}
