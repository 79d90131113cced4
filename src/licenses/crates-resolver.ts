import { z } from "zod";
import type { LicenseLookup, LicenseResolver } from "../domain/license-resolver.js";
import { classifyLicense } from "./license-policy.js";
import {
  getRegistryJson,
  RegistryUnavailable,
  type RegistryDocument,
  type RegistryHttpOptions,
} from "./registry-http.js";

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

function found(license: string | null | undefined): LicenseLookup {
  const trimmed = license?.trim();
  return trimmed && classifyLicense(trimmed).parsed ? { status: "found", license: trimmed } : { status: "unknown" };
}

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

  const lookup = async (ecosystem: string, name: string, version?: string): Promise<LicenseLookup> => {
    if (ecosystem !== "cargo" || !CRATE_NAME.test(name)) return { status: "unknown" };
    const crate = `${base}/api/v1/crates/${encodeURIComponent(name)}`;
    const exact = version !== undefined ? EXACT_VERSION.exec(version.trim())?.[1] : undefined;
    let answer: RegistryDocument;
    try {
      if (exact !== undefined) {
        answer = await getRegistryJson(`${crate}/${encodeURIComponent(exact)}`, opts);
        if (answer.found) {
          const doc = VersionDocSchema.safeParse(answer.json);
          if (!doc.success)
            return { status: "failed", registry, reason: "sent something that is not a crate version document" };
          return found(doc.data.version.license);
        }
      }
      answer = await getRegistryJson(crate, opts);
    } catch (error) {
      if (error instanceof RegistryUnavailable) return { status: "failed", registry, reason: error.message };
      throw error;
    }
    if (!answer.found) return { status: "unknown" };
    const doc = CrateDocSchema.safeParse(answer.json);
    if (!doc.success) return { status: "failed", registry, reason: "sent something that is not a crate document" };
    const newest = doc.data.crate.max_stable_version ?? doc.data.crate.newest_version ?? doc.data.crate.max_version;
    const versions = doc.data.versions ?? [];
    const chosen = versions.find((v) => v.num === newest) ?? versions[0];
    return found(chosen?.license);
  };

  return { lookup };
}
