/**
 * Package ecosystems whose licences the gate resolves. `maven` is Maven Central's (pom.xml and
 * Gradle), `nuget` NuGet's, `composer` Packagist's, `rubygems` RubyGems'.
 */
export type Ecosystem = "npm" | "pypi" | "go" | "cargo" | "maven" | "nuget" | "composer" | "rubygems";

/**
 * What a licence lookup concluded. `found` and `unknown` are the registry's answers (`unknown`:
 * no such package, or no licence declared). `failed` is no answer at all (network error,
 * timeout, 5xx, an unparseable document): the licence is then not known to be anything, so the
 * review cannot be completed and goes to a person. A failure is never cached.
 */
export type LicenseLookup =
  | { status: "found"; license: string }
  | { status: "unknown" }
  | { status: "failed"; registry: string; reason: string };

/**
 * Looks up a package's licence (an SPDX expression). Offline it reads a fixture's
 * `registry.json`; live it asks the registry. It never throws: a failure is `{ status: "failed" }`.
 */
export interface LicenseResolver {
  lookup(ecosystem: Ecosystem, name: string, version?: string): Promise<LicenseLookup>;
}

/** A lookup that failed, as a review records it (plain JSON, checkpointed). */
export interface LookupFailure {
  ecosystem: Ecosystem;
  name: string;
  version?: string;
  /** What was looked up: the package's licence (also when absent, as older reviews recorded it) or its advisories (SEC-07). */
  lookup?: "licence" | "advisories";
  /** Which registry or database, with its address (e.g. `npm registry https://registry.npmjs.org`, `OSV https://api.osv.dev`). */
  registry: string;
  /** What went wrong, e.g. `answered 503 (3 attempts)`. */
  reason: string;
}

/**
 * One line naming the package, the registry and the error.
 *
 * @example describeLookupFailure({ ecosystem: "npm", name: "left-pad", version: "1.3.0", registry: "npm registry https://registry.npmjs.org", reason: "answered 503 (3 attempts)" })
 *   // "left-pad@1.3.0 (npm): npm registry https://registry.npmjs.org answered 503 (3 attempts)"
 */
export function describeLookupFailure(f: LookupFailure): string {
  return `${f.name}${f.version ? `@${f.version}` : ""} (${f.ecosystem}): ${f.registry} ${f.reason}`;
}

/**
 * What the failed lookups leave unknown, as the head of the `lookup_failed` escalation.
 *
 * @example lookupFailureHeadline([{ lookup: "advisories", ... }]) // "advisory lookup failed, so known vulnerabilities are not known"
 */
export function lookupFailureHeadline(failures: readonly LookupFailure[]): string {
  const advisories = failures.some((f) => f.lookup === "advisories");
  const licences = failures.some((f) => f.lookup !== "advisories");
  if (advisories && licences) {
    return "licence and advisory lookups failed, so licences and known vulnerabilities are not known";
  }
  return advisories
    ? "advisory lookup failed, so known vulnerabilities are not known"
    : "licence lookup failed, so the licence is not known";
}
