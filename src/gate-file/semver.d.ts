// The `semver` package ships no types, and only these functions are used; this declares
// them as its README documents them (kept local so no @types package is needed).
declare module "semver" {
  interface SemVer {
    version: string;
  }
  interface Semver {
    /** The version normalised (`v1.2.3` → `1.2.3`), or null if it is not one. */
    valid(version: string): string | null;
    /** The range normalised, or null if it is not one. */
    validRange(range: string): string | null;
    /** `includePrerelease` lets `1.0.0-beta` match `>=0.9` (a deny list must catch pre-releases too). */
    satisfies(version: string | SemVer, range: string, options?: { includePrerelease?: boolean }): boolean;
    /** Every version `sub` admits is also in `sup`. */
    subset(sub: string, sup: string): boolean;
    /** The first version-like part of a string (`2.1` → `2.1.0`), or null. */
    coerce(version: string): SemVer | null;
    /** -1, 0 or 1; throws on a version that is not one. */
    compare(a: string, b: string): -1 | 0 | 1;
    /** The lowest version a range admits, or null when it admits none; throws on a range that is not one. */
    minVersion(range: string): SemVer | null;
  }
  const semver: Semver;
  export default semver;
}
