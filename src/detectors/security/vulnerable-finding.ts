import { versionOrder } from "../../ecosystems/common/version-order.js";
import picomatch from "picomatch";
import { DEFAULT_VULNERABILITY_RULES, type VulnerabilityRules } from "../../gate-file/effective.js";
import { splitPackageSpec } from "../../gate-file/exceptions.js";
import type { DenyPackage } from "../../gate-file/schema.js";
import type { AdvisoryMatch, AdvisorySeverity } from "../../domain/advisory-source.js";
import type { Finding, Severity } from "../../domain/finding.js";
import type { PinnedDependency } from "../../ecosystems/pinned-dependencies.js";
import { securityFinding } from "./security-finding.js";

const RANK: Record<AdvisorySeverity, number> = { low: 0, moderate: 1, high: 2, critical: 3 };
const AS_FINDING: Record<AdvisorySeverity, Severity> = {
  low: "low",
  moderate: "medium",
  high: "high",
  critical: "critical",
};

function worst(advisories: readonly AdvisoryMatch[]): AdvisorySeverity {
  return advisories.reduce<AdvisorySeverity>((w, a) => (RANK[a.severity] > RANK[w] ? a.severity : w), "low");
}

/** The version that fixes every advisory (the highest first-fixed one), or undefined when one has no fix. */
function fixingVersion(dep: PinnedDependency, advisories: readonly AdvisoryMatch[]): string | undefined {
  const fixes = advisories.map((a) => a.fixed);
  if (fixes.some((f) => f === undefined)) return undefined;
  const order = versionOrder(dep.ecosystem);
  return (fixes as string[]).sort((a, b) => order.compare(order.read(a) ?? a, order.read(b) ?? b)).at(-1);
}

function describeDependency(dep: PinnedDependency): string {
  const judged = dep.from === "lowest" ? `, judged by ${dep.version}, the lowest version ${dep.range} admits` : "";
  const via = dep.via ? `, brought in by ${dep.via}` : "";
  return `${dep.name}@${dep.version} (${dep.ecosystem}, ${dep.scope} dependency${via}${judged})`;
}

/** What marks an advisory OSV names for the version that the gate's reading of its ranges does not confirm. */
export const UNCONFIRMED = "OSV says affected; range not confirmed";

function describeAdvisory(a: AdvisoryMatch): string {
  const aliases = a.aliases.length > 0 ? ` (${a.aliases.join(", ")})` : "";
  if (a.unconfirmed !== undefined) {
    return `${a.id}${aliases}, ${a.severity} (${a.severityFrom}): ${a.summary}; ${UNCONFIRMED} (${a.unconfirmed})`;
  }
  const fixed = a.fixed ? `, fixed in ${a.fixed}` : ", no fixed version";
  return `${a.id}${aliases}, ${a.severity} (${a.severityFrom}): ${a.summary}; affected ${a.range}${fixed}`;
}

/**
 * One SEC-07 finding for a dependency and the advisories that affect its version: every advisory
 * with its aliases, severity, affected range and fix, and the version that fixes them all
 * ("upgrade to 4.17.21"). It blocks when the worst advisory reaches the threshold for the
 * dependency's kind (`vulnerabilities.fail_on`); below it, and for development dependencies by
 * default, it is a note. An advisory OSV names for the version but whose ranges the gate cannot
 * confirm ("OSV says affected; range not confirmed") always blocks: a person decides.
 *
 * @example vulnerableFinding(lodash, [ghsa], DEFAULT_VULNERABILITY_RULES).message // "lodash@4.17.20 (npm, runtime dependency) is affected by GHSA-…; upgrade to 4.17.21."
 */
export function vulnerableFinding(
  dep: PinnedDependency,
  advisories: readonly AdvisoryMatch[],
  rules: VulnerabilityRules = DEFAULT_VULNERABILITY_RULES,
): Finding {
  const severity = worst(advisories);
  const threshold = dep.scope === "runtime" ? rules.runtime.fail_on : rules.development.fail_on;
  const unconfirmed = advisories.filter((a) => a.unconfirmed !== undefined);
  const blocking = unconfirmed.length > 0 || (threshold !== "never" && RANK[severity] >= RANK[threshold]);
  const fix = unconfirmed.length > 0 ? undefined : fixingVersion(dep, advisories);
  const advice =
    unconfirmed.length > 0
      ? `${UNCONFIRMED} for ${unconfirmed.map((a) => a.id).join(", ")}: a person reads the advisory's affected versions and decides.`
      : fix
        ? `Upgrade to ${fix}${advisories.length > 1 ? " (the first version that fixes them all)" : ""}${dep.via ? `, or upgrade ${dep.via}` : ""}.`
        : `No fixed version is published for every advisory: replace ${dep.name}, or get an exception.`;
  const rule = dep.scope === "runtime" ? "vulnerabilities.fail_on" : "vulnerabilities.development.fail_on";
  const note = blocking
    ? ""
    : threshold === "never"
      ? ` A note, not a block: ${rule} is never.`
      : ` A note, not a block: below ${rule} (${threshold}).`;
  const what = advisories.length === 1 ? "an advisory" : `${advisories.length} advisories`;
  return {
    ...securityFinding({
      policy: "SEC-07",
      detector: "vulnerable-dependencies",
      severity: AS_FINDING[severity],
      blocking,
      file: dep.file,
      line: dep.line,
      message: `${describeDependency(dep)} is affected by ${what}: ${advisories.map(describeAdvisory).join(". ")}. ${advice}${note}`,
    }),
    package: { name: dep.name, version: dep.version },
    advisories: advisories.map((a) => ({ id: a.id, aliases: [...a.aliases] })),
  };
}

/**
 * The deny-list entry that names a dependency, and whether its range covers the version: a range
 * the ecosystem's rules cannot read, or a version they cannot compare, counts as covered (a denied
 * package is never let through because its version could not be judged).
 */
export function deniedBy(dep: PinnedDependency, deny: readonly DenyPackage[]): DenyPackage | undefined {
  return deny.find((entry) => {
    if (entry.ecosystem !== undefined && entry.ecosystem !== dep.ecosystem) return false;
    const { name, range } = splitPackageSpec(entry.package);
    if (!picomatch(name, { nocase: true, noextglob: true })(dep.name)) return false;
    if (range === undefined || range === "*") return true;
    const order = versionOrder(dep.ecosystem);
    const version = order.read(dep.version);
    return version === undefined || order.satisfies(version, range) !== false;
  });
}

/**
 * A SEC-07 finding for a dependency on `vulnerabilities.deny_packages`: it blocks, runtime or
 * development, whatever the advisory data says, and names the entry and its reason.
 *
 * @example deniedFinding(eventStream, { package: "event-stream@3.3.6", reason: "compromised release" }).blocking // true
 */
export function deniedFinding(dep: PinnedDependency, entry: DenyPackage): Finding {
  const where = entry.ecosystem ? ` (${entry.ecosystem})` : "";
  return {
    ...securityFinding({
      policy: "SEC-07",
      detector: "vulnerable-dependencies",
      severity: "high",
      blocking: true,
      file: dep.file,
      line: dep.line,
      message: `${describeDependency(dep)} is denied by vulnerabilities.deny_packages: ${entry.package}${where}, because ${entry.reason}. Remove it or choose another package; an exception for this package clears it.`,
    }),
    package: { name: dep.name, version: dep.version },
  };
}
