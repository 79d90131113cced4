import { z } from "zod";
import type { LicenseLookup, RegistryResolver } from "./cached-resolver.js";
import { classifyLicense } from "./license-policy.js";

export interface NpmResolverOptions {
  /** The registry root; a company mirror works too. */
  registryUrl?: string;
  fetch?: typeof fetch;
  /** Per request, body included; 5 s by default. */
  timeoutMs?: number;
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
 * Resolves npm licences from the registry's package document: the requested version's
 * `license`, else the `latest` one's. Anything but an SPDX expression is unknown; any failure or
 * timeout is unknown too (never permissive). Plain `fetch`, so any registry URL works.
 *
 * @example await createNpmResolver().resolve("npm", "left-pad", "1.3.0") // "WTFPL"
 */
export function createNpmResolver(opts: NpmResolverOptions = {}): RegistryResolver {
  const base = (opts.registryUrl ?? "https://registry.npmjs.org").replace(/\/+$/, "");
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 5000;

  const lookup = async (ecosystem: string, name: string, version?: string): Promise<LicenseLookup> => {
    if (ecosystem !== "npm" || !NPM_NAME.test(name)) return { status: "unknown" };
    let json: unknown;
    try {
      const res = await doFetch(`${base}/${npmPackagePath(name)}`, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (res.status === 404) return { status: "unknown" };
      if (!res.ok) return { status: "failed", reason: `registry answered ${res.status}` };
      json = await res.json();
    } catch (error) {
      return { status: "failed", reason: error instanceof Error ? error.message : String(error) };
    }
    const doc = PackumentSchema.safeParse(json);
    if (!doc.success) return { status: "failed", reason: "not a package document" };
    const versions = doc.data.versions ?? {};
    const latest = doc.data["dist-tags"]?.latest;
    const manifest =
      (version !== undefined ? versions[version] : undefined) ?? (latest !== undefined ? versions[latest] : undefined);
    const license = (manifest !== undefined ? licenseOf(manifest) : undefined) ?? licenseOf(doc.data);
    const trimmed = license?.trim();
    return trimmed && classifyLicense(trimmed).parsed ? { status: "found", license: trimmed } : { status: "unknown" };
  };

  return {
    lookup,
    async resolve(ecosystem, name, version) {
      const answer = await lookup(ecosystem, name, version);
      return answer.status === "found" ? answer.license : undefined;
    },
  };
}
