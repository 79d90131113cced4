import { createRequire } from "node:module";
import type Semver from "semver";
import type { Ecosystem } from "../../domain/license-resolver.js";
import { compareComposerVersions, readComposerVersion } from "../composer/composer-version.js";
import { compareMavenVersions, readMavenVersion } from "../maven/maven-version.js";
import { compareNuGetVersions, readNuGetVersion } from "../nuget/nuget-version.js";

const require = createRequire(import.meta.url);

/** How one ecosystem orders its versions. */
export interface VersionOrder {
  /** The version normalised for comparison, or undefined when the ecosystem's rules cannot read it. */
  read(version: string): string | undefined;
  /** Negative, zero or positive, like a sort comparator; both sides already `read`. */
  compare(a: string, b: string): number;
  /**
   * Whether a version (already `read`) lies in a range written the ecosystem's way (`>=1.4.1 <2`,
   * `<2.20,>=2.0`), or undefined when the range cannot be read.
   */
  satisfies(version: string, range: string): boolean | undefined;
}

let semverLib: typeof Semver | undefined;
let pep440Lib: typeof import("@renovatebot/pep440") | undefined;

/** semver (npm, Cargo, Go without its `v`): strict, so `1.2` or `latest` cannot be compared. */
export function semverOrder(stripV: boolean): VersionOrder {
  semverLib ??= require("semver") as typeof Semver;
  const sv = semverLib;
  return {
    read: (v) => {
      const text = stripV ? v.replace(/^v/, "") : v;
      return sv.valid(text) ?? undefined;
    },
    compare: (a, b) => sv.compare(a, b),
    satisfies: (v, range) => {
      const r = sv.validRange(stripV ? range.replace(/(^|[\s<>=^~])v(?=\d)/g, "$1") : range);
      return r === null ? undefined : sv.satisfies(v, r, { includePrerelease: true });
    },
  };
}

/** PEP 440 (PyPI), as pip orders versions: `1.0rc1` < `1.0` < `1.0.post1`. */
function pep440Order(): VersionOrder {
  pep440Lib ??= require("@renovatebot/pep440") as typeof import("@renovatebot/pep440");
  const pep = pep440Lib;
  return {
    read: (v) => pep.valid(v) ?? undefined,
    compare: (a, b) => pep.compare(a, b),
    satisfies: (v, range) => (pep.validRange(range) ? pep.satisfies(v, range) : undefined),
  };
}

let rubyLib: typeof import("@renovatebot/ruby-semver") | undefined;

/** RubyGems, as Bundler orders versions (`1.0.0.rc1` < `1.0.0`), and its requirements (`~> 1.2`, `>= 1, < 2`). */
function rubyOrder(): VersionOrder {
  rubyLib ??= require("@renovatebot/ruby-semver") as typeof import("@renovatebot/ruby-semver");
  const ruby = rubyLib;
  return {
    read: (v) => ruby.valid(v) ?? undefined,
    compare: (a, b) => (ruby.lt(a, b) ? -1 : ruby.gt(a, b) ? 1 : 0),
    satisfies: (v, range) => {
      try {
        return ruby.satisfies(v, range);
      } catch {
        return undefined;
      }
    },
  };
}

const COMPARATOR = /^(>=|<=|>|<|==|=|!=)?\s*(\S+)$/;
/** Maven's and NuGet's interval notation: `[1.0,2.0)`, `[1.2]`, `(,1.0]`, `[1.5,)`. */
const INTERVAL = /^([[(])\s*([^,\s]*)\s*(?:(,)\s*([^,\s]*)\s*)?([\])])$/;

/**
 * Whether a version lies in a range of comparators (`>=1.4 <2`, `>=1.4, <2`, `1.2.3`, `a || b`)
 * or, for Maven and NuGet, intervals (`[1.0,2.0)`, `[1.2]`); undefined when a part cannot be read.
 */
function comparatorSatisfies(
  read: (v: string) => string | undefined,
  compare: (a: string, b: string) => number,
  v: string,
  range: string,
): boolean | undefined {
  const alternatives = range.split("||").map((a) => a.trim());
  let any = false;
  for (const alternative of alternatives) {
    const interval = INTERVAL.exec(alternative);
    if (interval) {
      const [, open, lowText = "", comma, highText = "", close] = interval;
      const low = lowText === "" ? undefined : read(lowText);
      const high = comma === undefined ? low : highText === "" ? undefined : read(highText);
      if ((lowText !== "" && low === undefined) || (highText !== "" && high === undefined)) return undefined;
      const aboveLow = low === undefined || (open === "[" ? compare(v, low) >= 0 : compare(v, low) > 0);
      const belowHigh = high === undefined || (close === "]" ? compare(v, high) <= 0 : compare(v, high) < 0);
      any ||= aboveLow && belowHigh;
      continue;
    }
    let all = true;
    for (const part of alternative.split(/[\s,]+/).filter((p) => p !== "")) {
      const m = COMPARATOR.exec(part);
      const bound = m?.[2] === undefined ? undefined : read(m[2]);
      if (bound === undefined) return undefined;
      const c = compare(v, bound);
      const op = m?.[1] ?? "=";
      const ok = { ">=": c >= 0, "<=": c <= 0, ">": c > 0, "<": c < 0, "=": c === 0, "==": c === 0, "!=": c !== 0 }[op];
      all &&= ok === true;
    }
    any ||= all;
  }
  return any;
}

/** An order over a reader and a comparator of its own (Maven, NuGet, Composer). */
function orderOf(read: (v: string) => string | undefined, compare: (a: string, b: string) => number): VersionOrder {
  return { read, compare, satisfies: (v, range) => comparatorSatisfies(read, compare, v, range) };
}

/**
 * The version order of an ecosystem: `semver` for npm and Cargo (and Go, whose versions are
 * semver with a `v`), `@renovatebot/pep440` for PyPI, `@renovatebot/ruby-semver` for RubyGems, and
 * ports of the ecosystems' own rules for Maven (`ComparableVersion`), NuGet (`NuGetVersion`) and
 * Packagist (Composer's normalised versions). A version the order cannot read is one the gate
 * cannot judge (a lookup that failed).
 *
 * @example versionOrder("pypi").compare("1.0rc1", "1.0") // -1
 */
export function versionOrder(ecosystem: Ecosystem): VersionOrder {
  if (ecosystem === "pypi") return pep440Order();
  if (ecosystem === "rubygems") return rubyOrder();
  if (ecosystem === "maven") return orderOf(readMavenVersion, compareMavenVersions);
  if (ecosystem === "nuget") return orderOf(readNuGetVersion, compareNuGetVersions);
  if (ecosystem === "composer") return orderOf(readComposerVersion, compareComposerVersions);
  return semverOrder(ecosystem === "go");
}
