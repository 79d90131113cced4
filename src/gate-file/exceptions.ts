import { createRequire } from "node:module";
import picomatch from "picomatch";
import type Semver from "semver";
import type { ExceptionRef, Finding } from "../domain/finding.js";
import type { ConfigException } from "./schema.js";

let semverLib: typeof Semver | undefined;

/** semver, loaded by the first exception that names a version range (most reviews have none). */
function semver(): typeof Semver {
  semverLib ??= createRequire(import.meta.url)("semver") as typeof Semver;
  return semverLib;
}

/**
 * `left-pad@^1` → name and range; `@acme/ui@>=2 <3` keeps its scope; a bare name has no range.
 *
 * @example splitPackageSpec("@acme/ui@^2") // { name: "@acme/ui", range: "^2" }
 */
export function splitPackageSpec(spec: string): { name: string; range?: string } {
  const at = spec.lastIndexOf("@");
  if (at <= 0) return { name: spec.trim() };
  const range = spec.slice(at + 1).trim();
  return range ? { name: spec.slice(0, at).trim(), range } : { name: spec.slice(0, at).trim() };
}

/** A dependency's version (an exact version or a manifest's range) lies wholly inside `range`. */
function versionWithin(version: string | undefined, range: string): boolean {
  if (version === undefined) return false;
  const v = version.trim().replace(/^(==|===|~=|v)/, "");
  const sv = semver();
  if (sv.valid(v)) return sv.satisfies(v, range);
  // A manifest's own range (`^1.4.0`): every version it admits must be inside the exception's.
  if (sv.validRange(v)) return sv.subset(v, range);
  const coerced = sv.coerce(v);
  return coerced !== null && /^\d+(\.\d+){0,2}$/.test(v) && sv.satisfies(coerced, range);
}

/**
 * Whether an advisory exception covers a known-vulnerability finding: every advisory the finding
 * names is that one (by id or alias), so a finding with a second advisory still stands.
 */
function coversAdvisories(advisory: string, finding: Finding): boolean {
  const wanted = advisory.toUpperCase();
  const named = finding.advisories ?? [];
  return named.length > 0 && named.every((a) => [a.id, ...a.aliases].some((id) => id.toUpperCase() === wanted));
}

/** Whether an exception covers a finding: same policy, and its package (and version), its path or its advisory. */
export function covers(exception: ConfigException, finding: Finding): boolean {
  if (exception.policy !== finding.policy) return false;
  if (exception.advisory !== undefined) return coversAdvisories(exception.advisory, finding);
  if (exception.package !== undefined) {
    if (!finding.package) return false;
    const { name, range } = splitPackageSpec(exception.package);
    if (name.toLowerCase() !== finding.package.name.toLowerCase()) return false;
    return range === undefined || range === "*" || versionWithin(finding.package.version, range);
  }
  if (exception.path !== undefined && finding.file !== undefined) {
    return picomatch(exception.path, { dot: true, noextglob: true })(finding.file);
  }
  return false;
}

/** The exception as a finding names it. */
export function exceptionRef(e: ConfigException, status: ExceptionRef["status"]): ExceptionRef {
  return {
    policy: e.policy,
    ...(e.package !== undefined ? { package: e.package } : {}),
    ...(e.path !== undefined ? { path: e.path } : {}),
    ...(e.advisory !== undefined ? { advisory: e.advisory } : {}),
    reason: e.reason,
    granted_by: e.granted_by,
    expires: e.expires,
    status,
  };
}

/** What the exceptions do to one finding on `today` (`YYYY-MM-DD`): one that applies, else one that expired. */
export function exceptionFor(
  exceptions: readonly ConfigException[],
  finding: Finding,
  today: string,
): { applied?: ConfigException; expired?: ConfigException } {
  const matching = exceptions.filter((e) => covers(e, finding));
  const applied = matching.find((e) => e.expires >= today);
  if (applied) return { applied };
  const expired = matching.sort((a, b) => b.expires.localeCompare(a.expires))[0];
  return expired ? { expired } : {};
}
