import type { CarryForwardMode } from "../domain/carry.js";
import type { Severity, Specialty } from "../domain/finding.js";
import type { Policy } from "../domain/policy.js";
import type { AdvisoryLevel, ConfigException, DenyPackage, GateConfigFile, LicenseAction } from "./schema.js";
import type { AcceptedUnread } from "../domain/coverage.js";

/** The licence allow-list when a configuration file gives none (the bundled file repeats it). */
export const DEFAULT_ALLOWED_LICENSES: readonly string[] = [
  "MIT",
  "ISC",
  "BSD-2-Clause",
  "BSD-3-Clause",
  "Apache-2.0",
  "0BSD",
  "Unlicense",
  "CC0-1.0",
  "Python-2.0",
  "Zlib",
  "BlueOak-1.0.0",
];

/** One kind of dependency's licence rules, resolved. */
export interface ScopeRules {
  unknown: LicenseAction;
  not_allowed: LicenseAction;
  allow: string[];
  deny: string[];
}

/** The licence rules in force, defaults filled in. */
export interface LicenseRules {
  runtime: ScopeRules;
  development: ScopeRules;
  own_packages: string[];
}

/** Which advisory severities block (SEC-07), defaults filled in. */
export interface VulnerabilityRules {
  runtime: { fail_on: AdvisoryLevel };
  development: { fail_on: AdvisoryLevel | "never" };
  /** Packages that block whatever the advisory data says (absent in configurations kept before it existed). */
  deny?: DenyPackage[];
}

/** SEC-07's thresholds when a configuration sets none: high blocks a runtime dependency; a development one gets a note. */
export const DEFAULT_VULNERABILITY_RULES: VulnerabilityRules = {
  runtime: { fail_on: "high" },
  development: { fail_on: "never" },
};

/** One policy as it is enforced: its file's metadata with the configuration's switches applied. */
export interface EffectivePolicy {
  id: string;
  title: string;
  specialty: Specialty;
  severity: Severity;
  blocking: boolean;
  enabled: boolean;
  /** The configuration set severity or blocking explicitly (it may then lower a detector's rating). */
  configured: { severity?: Severity; blocking?: boolean };
}

/**
 * The configuration a review runs with: the server-wide file, a repository's file over it, the
 * policy corpus's metadata as the default per policy, and the settings' defaults. Plain JSON (it
 * is checkpointed with the review).
 */
export interface EffectiveConfig {
  /** Where it came from, in the order applied (files, with the base commit for a repository's). */
  sources: string[];
  licenses: LicenseRules;
  /** SEC-07's thresholds; absent in configurations kept before it existed (the defaults then apply). */
  vulnerabilities?: VulnerabilityRules;
  /** Every policy of the corpus, by id. A policy with no file is not here, and not enforced. */
  policies: Record<string, EffectivePolicy>;
  /** Ids the configuration names that have no policy file (not enforced; `gate policies` says so). */
  unknownPolicies: string[];
  exceptions: ConfigException[];
  risk: { threshold: number; docs: string[]; tests: string[]; generated: string[] };
  /** Unread files the configuration accepts as warnings (none by default: unread code goes to a person). */
  coverage: { acceptUnread: AcceptedUnread[] };
  /** Approvers the configuration names (empty: the settings' lists apply). */
  approvers: { any: string[]; bySpecialty: Partial<Record<Specialty, string[]>> };
  /** The Slack channel the configuration names for this repository's cards. */
  slackChannel?: string;
  /**
   * The repository's own policy files (`.github/gate/policies/` at the base commit), kept whole
   * with the configuration (checked at intake): their rules run as detectors beside the server's.
   * Absent: it has none.
   */
  repoPolicies?: { source: string; text: string }[];
  /** Whether a decision carries to a new head (absent in configurations kept before it existed: the default applies). */
  decisions?: { carryForward: CarryForwardMode };
}

/**
 * Resolves a (merged) configuration file against the policy corpus and the settings' defaults.
 *
 * @example effectiveConfig(loadConfigFile(BUNDLED_CONFIG_FILE), policies, { riskThreshold: 30, sources: ["gate.default.yml"] }).risk.threshold // 30
 */
export function effectiveConfig(
  file: GateConfigFile,
  policies: readonly Policy[],
  defaults: { riskThreshold: number; sources: string[] },
): EffectiveConfig {
  const l = file.licenses ?? {};
  const allow = l.allow ?? [...DEFAULT_ALLOWED_LICENSES];
  const deny = l.deny ?? [];
  const scope = (s: NonNullable<typeof l.runtime> | undefined, unknown: LicenseAction): ScopeRules => ({
    unknown: s?.unknown ?? unknown,
    not_allowed: s?.not_allowed ?? "warn",
    allow: [...allow, ...(s?.allow ?? [])],
    deny: [...deny, ...(s?.deny ?? [])],
  });
  const switches = file.policies ?? {};
  const byId: Record<string, EffectivePolicy> = {};
  for (const p of policies) {
    const s = switches[p.id] ?? {};
    byId[p.id] = {
      id: p.id,
      title: p.title,
      specialty: p.specialty,
      severity: s.severity ?? p.severity,
      blocking: s.blocking ?? p.blocking,
      enabled: s.enabled ?? true,
      configured: {
        ...(s.severity !== undefined ? { severity: s.severity } : {}),
        ...(s.blocking !== undefined ? { blocking: s.blocking } : {}),
      },
    };
  }
  const a = file.approvers ?? {};
  const bySpecialty: Partial<Record<Specialty, string[]>> = {};
  for (const s of ["security", "licensing", "data"] as const) if (a[s]?.length) bySpecialty[s] = [...(a[s] ?? [])];
  return {
    sources: defaults.sources,
    licenses: {
      // Without a rule, a runtime dependency nobody can name a licence for goes to a person.
      runtime: scope(l.runtime, "block"),
      development: scope(l.development, "warn"),
      own_packages: l.own_packages ?? [],
    },
    vulnerabilities: {
      runtime: { fail_on: file.vulnerabilities?.fail_on ?? DEFAULT_VULNERABILITY_RULES.runtime.fail_on },
      development: {
        fail_on: file.vulnerabilities?.development?.fail_on ?? DEFAULT_VULNERABILITY_RULES.development.fail_on,
      },
      ...(file.vulnerabilities?.deny_packages?.length ? { deny: file.vulnerabilities.deny_packages } : {}),
    },
    policies: byId,
    unknownPolicies: Object.keys(switches)
      .filter((id) => !byId[id])
      .sort(),
    exceptions: file.exceptions ?? [],
    risk: {
      threshold: file.risk?.threshold ?? defaults.riskThreshold,
      docs: file.risk?.docs ?? [],
      tests: file.risk?.tests ?? [],
      generated: file.risk?.generated ?? [],
    },
    coverage: { acceptUnread: (file.coverage?.accept_unread ?? []).map((u) => ({ ...u })) },
    approvers: { any: a.any ?? [], bySpecialty },
    ...(file.slack?.channel ? { slackChannel: file.slack.channel } : {}),
    decisions: { carryForward: file.decisions?.carry_forward ?? "unchanged_findings" },
  };
}

/**
 * The licence rules of a configuration that says nothing about licences (the built-in defaults,
 * which the bundled file spells out).
 *
 * @example defaultLicenseRules().runtime.unknown // "block"
 */
export function defaultLicenseRules(): LicenseRules {
  return effectiveConfig({ version: 1 }, [], { riskThreshold: 0, sources: [] }).licenses;
}
