import { z } from "zod";
import type { LicenseResolver } from "../../domain/license-resolver.js";
import { getRegistryJson, type RegistryHttpOptions } from "../../licenses/registry-http.js";
import { allOfLicenses, readDocument, registryLookup } from "../../licenses/registry-lookup.js";

export interface RubygemsResolverOptions extends RegistryHttpOptions {
  /** The RubyGems root (API at `/api/v1/gems/…` and `/api/v2/rubygems/…`); a mirror with the same API works too. */
  baseUrl?: string;
}

const GEM_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
/** An exact gem version (`7.1.3`, `1.0.0.rc1`); a requirement such as `~> 7.1` is not one. */
const EXACT_VERSION = /^\d+(?:\.[0-9A-Za-z]+)*$/;

const GemSchema = z.looseObject({ licenses: z.array(z.string()).nullable().optional() });

/**
 * Looks up gem licences on RubyGems: `GET /api/v2/rubygems/<name>/versions/<version>.json` for an
 * exact version, else (or when that version is not there) the newest version's
 * `GET /api/v1/gems/<name>.json`; field `licenses`. A gemspec's licences may each apply, so several
 * are joined with AND (fail closed, `allOfLicenses`). A 404 or no licence is unknown; RubyGems not
 * answering (after retries) is a failed lookup, never unknown or permissive.
 *
 * @example await createRubygemsResolver().lookup("rubygems", "rack", "3.1.7") // { status: "found", license: "MIT" }
 */
export function createRubygemsResolver(opts: RubygemsResolverOptions = {}): LicenseResolver {
  const base = (opts.baseUrl ?? "https://rubygems.org").replace(/\/+$/, "");
  const registry = `RubyGems ${base}`;

  const lookup: LicenseResolver["lookup"] = async (ecosystem, name, version) => {
    if (ecosystem !== "rubygems" || !GEM_NAME.test(name)) return { status: "unknown" };
    const gem = encodeURIComponent(name);
    const exact = version !== undefined && EXACT_VERSION.test(version.trim()) ? version.trim() : undefined;
    return registryLookup(registry, async () => {
      let answer =
        exact !== undefined
          ? await getRegistryJson(`${base}/api/v2/rubygems/${gem}/versions/${encodeURIComponent(exact)}.json`, opts)
          : ({ found: false } as const);
      if (!answer.found) answer = await getRegistryJson(`${base}/api/v1/gems/${gem}.json`, opts);
      if (!answer.found) return undefined;
      return allOfLicenses(readDocument(answer.json, GemSchema, "a gem document").licenses ?? [], "rubygems");
    });
  };

  return { lookup };
}
