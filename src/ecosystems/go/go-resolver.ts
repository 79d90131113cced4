import type { LicenseResolver } from "../../domain/license-resolver.js";
import { createDepsDevResolver, type DepsDevResolverOptions } from "../../licenses/deps-dev-resolver.js";
import { allOfLicenses } from "../../licenses/registry-lookup.js";

export type GoResolverOptions = DepsDevResolverOptions;

/**
 * The licences deps.dev lists for a version, as one SPDX expression: every licence it found
 * applies (AND). A licence it could not name ("non-standard") stays in as a `LicenseRef`, so it is
 * not on the allow-list, and a copyleft licence beside it still counts.
 *
 * @example goLicenseExpression(["MIT", "GPL-3.0-only"]) // "MIT AND GPL-3.0-only"
 */
export function goLicenseExpression(licenses: readonly string[]): string | undefined {
  return allOfLicenses(licenses, "deps.dev");
}

/**
 * Looks up Go module licences through deps.dev's API (configurable for a mirror): the version
 * go.mod names, else the module's default version. A 404 or no licence is unknown; the service
 * not answering (after retries) is a failed lookup, never unknown or permissive.
 *
 * @example await createGoResolver().lookup("go", "github.com/pkg/errors", "v0.9.1") // { status: "found", license: "BSD-2-Clause" }
 */
export function createGoResolver(opts: GoResolverOptions = {}): LicenseResolver {
  return createDepsDevResolver("go", opts);
}
