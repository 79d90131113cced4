import { z } from "zod";
import type { Ecosystem, LicenseResolver } from "../domain/license-resolver.js";
import { getRegistryJson, type RegistryDocument, type RegistryHttpOptions } from "./registry-http.js";
import { allOfLicenses, readDocument, registryLookup } from "./registry-lookup.js";

/** The ecosystems the gate looks up through deps.dev, and deps.dev's system name for each. */
export type DepsDevEcosystem = Extract<Ecosystem, "go" | "maven" | "nuget">;

export interface DepsDevResolverOptions extends RegistryHttpOptions {
  /** The root of a deps.dev-compatible API (`/v3/systems/<system>/packages/…`). */
  baseUrl?: string;
}

interface SystemRules {
  /** What the registry's messages call it. */
  label: string;
  /** A name deps.dev can know. */
  name: RegExp;
  /** An exact version (a range, a property or a `+` pattern is not one: the default version is asked for). */
  version: RegExp;
}

const SYSTEMS: Readonly<Record<DepsDevEcosystem, SystemRules>> = {
  // A module path: host and path segments (no `..`); `v1.2.3`, a pseudo-version, `+incompatible`.
  go: {
    label: "Go module metadata",
    name: /^[A-Za-z0-9][A-Za-z0-9._~-]*(?:\/[A-Za-z0-9._~+-]+)*$/,
    version: /^v\d+\.\d+\.\d+[0-9A-Za-z.+-]*$/,
  },
  // `groupId:artifactId`; `5.10.2`, `2.0.13`, `1.0-SNAPSHOT`, `32.1.3-jre` (not `[1.0,2.0)` or `${x}`).
  maven: {
    label: "Maven package metadata",
    name: /^[A-Za-z0-9_][A-Za-z0-9_.-]*:[A-Za-z0-9_][A-Za-z0-9_.-]*$/,
    version: /^[0-9][0-9A-Za-z._-]*$/,
  },
  // A NuGet id; `13.0.3`, `8.0.0-preview.1` (not `[1.0,2.0)` or `8.*`).
  nuget: {
    label: "NuGet package metadata",
    name: /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/,
    version: /^\d+(?:\.\d+){1,3}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/,
  },
};

const VersionSchema = z.looseObject({ licenses: z.array(z.string()).optional() });
const PackageSchema = z.looseObject({
  versions: z
    .array(z.looseObject({ versionKey: z.looseObject({ version: z.string() }), isDefault: z.boolean().optional() }))
    .optional(),
});

/**
 * Looks up licences through deps.dev's API (configurable for a mirror), for Go modules, Maven
 * artifacts (`groupId:artifactId`, whatever repository a pom.xml or Gradle script resolves them
 * from: deps.dev indexes Maven Central's POMs, `<licenses>` included) and NuGet packages: the
 * version the manifest names, else the package's default version. The licences deps.dev lists
 * for a version all apply (`allOfLicenses`). A 404 or no licence is unknown; the service not
 * answering (after retries) is a failed lookup, never unknown or permissive.
 *
 * @example await createDepsDevResolver("maven").lookup("maven", "org.slf4j:slf4j-api", "2.0.13") // { status: "found", license: "MIT" }
 */
export function createDepsDevResolver(ecosystem: DepsDevEcosystem, opts: DepsDevResolverOptions = {}): LicenseResolver {
  const base = (opts.baseUrl ?? "https://api.deps.dev").replace(/\/+$/, "");
  const rules = SYSTEMS[ecosystem];
  const registry = `${rules.label} ${base}`;

  const lookup: LicenseResolver["lookup"] = async (asked, name, version) => {
    if (asked !== ecosystem || !rules.name.test(name) || name.split("/").includes("..")) return { status: "unknown" };
    const pkg = `${base}/v3/systems/${ecosystem}/packages/${encodeURIComponent(name)}`;
    const wanted = version !== undefined && rules.version.test(version.trim()) ? version.trim() : undefined;
    return registryLookup(registry, async () => {
      let answer: RegistryDocument =
        wanted !== undefined
          ? await getRegistryJson(`${pkg}/versions/${encodeURIComponent(wanted)}`, opts)
          : { found: false };
      if (!answer.found) {
        const listing = await getRegistryJson(pkg, opts);
        if (!listing.found) return undefined;
        const versions = readDocument(listing.json, PackageSchema, "a package document").versions ?? [];
        const fallback = (versions.find((v) => v.isDefault === true) ?? versions.at(-1))?.versionKey.version;
        if (fallback === undefined) return undefined;
        answer = await getRegistryJson(`${pkg}/versions/${encodeURIComponent(fallback)}`, opts);
      }
      if (!answer.found) return undefined;
      return allOfLicenses(readDocument(answer.json, VersionSchema, "a version document").licenses ?? [], "deps.dev");
    });
  };

  return { lookup };
}
