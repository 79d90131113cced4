import { z } from "zod";
import type { LicenseLookup, LicenseResolver } from "../domain/license-resolver.js";
import { classifyLicense } from "./license-policy.js";
import {
  getRegistryJson,
  RegistryUnavailable,
  type RegistryDocument,
  type RegistryHttpOptions,
} from "./registry-http.js";

export interface GoResolverOptions extends RegistryHttpOptions {
  /** The root of a deps.dev-compatible API (`/v3/systems/go/packages/…`). */
  baseUrl?: string;
}

/** A Go module path: host and path segments, no `..`. */
const MODULE_PATH = /^[A-Za-z0-9][A-Za-z0-9._~-]*(?:\/[A-Za-z0-9._~+-]+)*$/;
/** A module version as go.mod writes it: `v1.2.3`, a pseudo-version, `+incompatible`. */
const GO_VERSION = /^v\d+\.\d+\.\d+[0-9A-Za-z.+-]*$/;

const VersionSchema = z.looseObject({ licenses: z.array(z.string()).optional() });
const PackageSchema = z.looseObject({
  versions: z
    .array(z.looseObject({ versionKey: z.looseObject({ version: z.string() }), isDefault: z.boolean().optional() }))
    .optional(),
});

/**
 * The licences deps.dev lists for a version, as one SPDX expression: every licence it found
 * applies (AND). A licence it could not name ("non-standard") stays in as a `LicenseRef`, so it is
 * not on the allow-list, and a copyleft licence beside it still counts.
 *
 * @example goLicenseExpression(["MIT", "GPL-3.0-only"]) // "MIT AND GPL-3.0-only"
 */
export function goLicenseExpression(licenses: readonly string[]): string | undefined {
  const terms = [...new Set(licenses.map((l) => l.trim()).filter((l) => l !== ""))].map((l) => {
    if (!classifyLicense(l).parsed) return "LicenseRef-deps.dev-non-standard";
    return / OR /i.test(l) && licenses.length > 1 ? `(${l})` : l;
  });
  const unique = [...new Set(terms)];
  return unique.length === 0 ? undefined : unique.join(" AND ");
}

/**
 * Looks up Go module licences through deps.dev's API (configurable for a mirror): the version
 * go.mod names, else the module's default version. A 404 or no licence is unknown; the service
 * not answering (after retries) is a failed lookup, never unknown or permissive.
 *
 * @example await createGoResolver().lookup("go", "github.com/pkg/errors", "v0.9.1") // { status: "found", license: "BSD-2-Clause" }
 */
export function createGoResolver(opts: GoResolverOptions = {}): LicenseResolver {
  const base = (opts.baseUrl ?? "https://api.deps.dev").replace(/\/+$/, "");
  const registry = `Go module metadata ${base}`;

  const lookup = async (ecosystem: string, name: string, version?: string): Promise<LicenseLookup> => {
    if (ecosystem !== "go" || !MODULE_PATH.test(name) || name.split("/").includes("..")) return { status: "unknown" };
    const pkg = `${base}/v3/systems/go/packages/${encodeURIComponent(name)}`;
    const wanted = version !== undefined && GO_VERSION.test(version.trim()) ? version.trim() : undefined;
    let answer: RegistryDocument;
    try {
      answer =
        wanted !== undefined
          ? await getRegistryJson(`${pkg}/versions/${encodeURIComponent(wanted)}`, opts)
          : { found: false };
      if (!answer.found) {
        const listing = await getRegistryJson(pkg, opts);
        if (!listing.found) return { status: "unknown" };
        const doc = PackageSchema.safeParse(listing.json);
        if (!doc.success)
          return { status: "failed", registry, reason: "sent something that is not a package document" };
        const versions = doc.data.versions ?? [];
        const fallback = (versions.find((v) => v.isDefault === true) ?? versions.at(-1))?.versionKey.version;
        if (fallback === undefined) return { status: "unknown" };
        answer = await getRegistryJson(`${pkg}/versions/${encodeURIComponent(fallback)}`, opts);
      }
    } catch (error) {
      if (error instanceof RegistryUnavailable) return { status: "failed", registry, reason: error.message };
      throw error;
    }
    if (!answer.found) return { status: "unknown" };
    const doc = VersionSchema.safeParse(answer.json);
    if (!doc.success) return { status: "failed", registry, reason: "sent something that is not a version document" };
    const license = goLicenseExpression(doc.data.licenses ?? []);
    return license ? { status: "found", license } : { status: "unknown" };
  };

  return { lookup };
}
