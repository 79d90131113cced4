import { z } from "zod";
import type { LicenseResolver } from "../../domain/license-resolver.js";
import { getRegistryJson, type RegistryHttpOptions } from "../../licenses/registry-http.js";
import { readDocument, registryLookup } from "../../licenses/registry-lookup.js";

export interface NpmResolverOptions extends RegistryHttpOptions {
  /** The registry root; a company mirror works too. */
  registryUrl?: string;
}

/** npm package names (lower case; old packages may have capitals), optionally scoped. */
const NPM_NAME = /^(?:@[A-Za-z0-9][A-Za-z0-9._~-]*\/)?[A-Za-z0-9._~-][A-Za-z0-9._~-]{0,213}$/;

const LicenseFieldSchema = z.union([z.string(), z.looseObject({ type: z.string() })]);
const ManifestSchema = z.looseObject({
  license: z.unknown().optional(),
  licenses: z.unknown().optional(),
});
const PackumentSchema = z.looseObject({
  "dist-tags": z.record(z.string(), z.string()).optional(),
  versions: z.record(z.string(), z.unknown()).optional(),
  license: z.unknown().optional(),
});

/** `license: "MIT"`, `license: { type: "MIT" }`, or the old `licenses: [{ type }]` array. */
function licenseOf(manifest: unknown): string | undefined {
  const m = ManifestSchema.safeParse(manifest);
  if (!m.success) return undefined;
  const single = LicenseFieldSchema.safeParse(m.data.license);
  if (single.success) return typeof single.data === "string" ? single.data : single.data.type;
  const list = z.array(LicenseFieldSchema).min(1).safeParse(m.data.licenses);
  if (!list.success) return undefined;
  const ids = list.data.map((l) => (typeof l === "string" ? l : l.type));
  return ids.length === 1 ? ids[0] : `(${ids.join(" OR ")})`;
}

/** The name as the registry's URL wants it: `@scope%2fname`. */
export function npmPackagePath(name: string): string {
  return name.startsWith("@") ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);
}

/**
 * Looks up npm licences in the registry's package document: the requested version's `license`,
 * else the `latest` one's. A 404 or a licence that is not an SPDX expression is unknown; a
 * registry that does not answer (after retries) is a failed lookup, never unknown or permissive.
 *
 * @example await createNpmResolver().lookup("npm", "left-pad", "1.3.0") // { status: "found", license: "WTFPL" }
 */
export function createNpmResolver(opts: NpmResolverOptions = {}): LicenseResolver {
  const base = (opts.registryUrl ?? "https://registry.npmjs.org").replace(/\/+$/, "");
  const registry = `npm registry ${base}`;

  const lookup: LicenseResolver["lookup"] = async (ecosystem, name, version) => {
    if (ecosystem !== "npm" || !NPM_NAME.test(name)) return { status: "unknown" };
    return registryLookup(registry, async () => {
      const answer = await getRegistryJson(`${base}/${npmPackagePath(name)}`, opts);
      if (!answer.found) return undefined;
      const doc = readDocument(answer.json, PackumentSchema, "a package document");
      const versions = doc.versions ?? {};
      const latest = doc["dist-tags"]?.latest;
      const manifest =
        (version !== undefined ? versions[version] : undefined) ??
        (latest !== undefined ? versions[latest] : undefined);
      return (manifest !== undefined ? licenseOf(manifest) : undefined) ?? licenseOf(doc);
    });
  };

  return { lookup };
}
