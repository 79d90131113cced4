import { z } from "zod";
import type { LicenseResolver } from "../../domain/license-resolver.js";
import { getRegistryJson, type RegistryHttpOptions } from "../../licenses/registry-http.js";
import { readDocument, registryLookup } from "../../licenses/registry-lookup.js";

export interface CratesResolverOptions extends RegistryHttpOptions {
  /** The crates.io root (API at `/api/v1/crates/…`); a mirror with the same API works too. */
  baseUrl?: string;
}

/** crates.io names: ASCII letters, digits, `-` and `_`, at most 64 characters. */
const CRATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** An exact version (`1.0.197`, `=1.0.197`); a requirement such as `1.0` or `^1` is not one. */
const EXACT_VERSION = /^=?\s*(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?)$/;

const VersionSchema = z.looseObject({ num: z.string(), license: z.string().nullable().optional() });
const VersionDocSchema = z.looseObject({ version: VersionSchema });
const CrateDocSchema = z.looseObject({
  crate: z.looseObject({
    max_stable_version: z.string().nullable().optional(),
    newest_version: z.string().nullable().optional(),
    max_version: z.string().nullable().optional(),
  }),
  versions: z.array(VersionSchema).optional(),
});

/**
 * Looks up Cargo crate licences on crates.io: the exact version's `license` when the manifest pins
 * one, else the newest stable version's. A 404 or no licence is unknown; crates.io not answering
 * (after retries) is a failed lookup, never unknown or permissive.
 *
 * @example await createCratesResolver().lookup("cargo", "serde", "1.0.197") // { status: "found", license: "MIT OR Apache-2.0" }
 */
export function createCratesResolver(opts: CratesResolverOptions = {}): LicenseResolver {
  const base = (opts.baseUrl ?? "https://crates.io").replace(/\/+$/, "");
  const registry = `crates.io ${base}`;

  const lookup: LicenseResolver["lookup"] = async (ecosystem, name, version) => {
    if (ecosystem !== "cargo" || !CRATE_NAME.test(name)) return { status: "unknown" };
    const crate = `${base}/api/v1/crates/${encodeURIComponent(name)}`;
    const exact = version !== undefined ? EXACT_VERSION.exec(version.trim())?.[1] : undefined;
    return registryLookup(registry, async () => {
      if (exact !== undefined) {
        const pinned = await getRegistryJson(`${crate}/${encodeURIComponent(exact)}`, opts);
        if (pinned.found) {
          return readDocument(pinned.json, VersionDocSchema, "a crate version document").version.license ?? undefined;
        }
      }
      const answer = await getRegistryJson(crate, opts);
      if (!answer.found) return undefined;
      const doc = readDocument(answer.json, CrateDocSchema, "a crate document");
      const newest = doc.crate.max_stable_version ?? doc.crate.newest_version ?? doc.crate.max_version;
      const versions = doc.versions ?? [];
      return (versions.find((v) => v.num === newest) ?? versions[0])?.license ?? undefined;
    });
  };

  return { lookup };
}
