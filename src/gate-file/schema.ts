import { createRequire } from "node:module";
import type Semver from "semver";
import parseSpdx from "spdx-expression-parse";
import { z } from "zod";
import { SeveritySchema } from "../domain/finding.js";

/** What a licence rule does: nothing, a note (non-blocking LIC-01), or a block a person must clear. */
export const LicenseActionSchema = z.enum(["allow", "warn", "block"]);
export type LicenseAction = z.infer<typeof LicenseActionSchema>;

/** A licence pattern is usable: an SPDX expression, or an id prefix ending in `*` (`GPL-*`). */
function isLicensePattern(text: string): boolean {
  if (/^[A-Za-z0-9.+-]+\*$/.test(text)) return true;
  try {
    parseSpdx(text);
    return true;
  } catch {
    return false;
  }
}

const LicensePatternSchema = z
  .string()
  .trim()
  .min(1)
  .refine(
    isLicensePattern,
    "must be an SPDX licence id or expression (e.g. MIT, Apache-2.0 OR MIT), or a prefix like GPL-*",
  );

/** A date `YYYY-MM-DD` (YAML may hand it over as a string; dates stay strings, plain JSON). */
const DateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d);
  }, "is not a calendar date");

/**
 * Policies no configuration can switch off, lower or except: a change to the gate's own
 * configuration always goes to a person (SEC-06).
 */
export const LOCKED_POLICIES: ReadonlySet<string> = new Set(["SEC-06"]);

const PolicyIdSchema = z
  .string()
  .regex(/^[A-Z]+-\d{2,}$/, "must be a policy id like LIC-01")
  .refine((id) => !LOCKED_POLICIES.has(id), "changes to the gate's own configuration (SEC-06) cannot be configured");

/**
 * Why a glob can never match a repository path, or undefined: paths are relative and use `/`, so a
 * leading `/` or `./`, a `..` segment, a backslash, an empty segment or a trailing `/` match nothing.
 *
 * @example globProblem("/src/**") // "starts with / ..."
 */
export function globProblem(glob: string): string | undefined {
  if (glob.startsWith("/")) return "starts with /, but repository paths are relative (write src/**, not /src/**)";
  if (glob.startsWith("./")) return "starts with ./, which no repository path does (write src/**, not ./src/**)";
  if (/(^|\/)\.\.(\/|$)/.test(glob)) return "has a .. segment, which no repository path has";
  if (glob.includes("\\")) return "has a backslash: repository paths use /";
  if (glob.includes("//")) return "has an empty segment (//), which no repository path has";
  if (glob.endsWith("/")) return "ends with /, but it is matched against file paths (write dir/** for a folder)";
  return undefined;
}

/** A glob: plain text, no extglobs (they are compiled with `noextglob`, and refused here to say so). */
const GlobSchema = z
  .string()
  .min(1)
  .refine((g) => !/[@!+*?]\(/.test(g), "extglob patterns like @(a|b) are not supported")
  .superRefine((g, ctx) => {
    const problem = globProblem(g);
    if (problem) ctx.addIssue({ code: "custom", message: `can never match anything: it ${problem}` });
  });

let semverLib: typeof Semver | undefined;

/** Why the range of an exception's `name@range` can never apply, or undefined. */
function packageRangeProblem(spec: string): string | undefined {
  const at = spec.lastIndexOf("@");
  const range = at > 0 ? spec.slice(at + 1).trim() : "";
  if (!range || range === "*") return undefined;
  semverLib ??= createRequire(import.meta.url)("semver") as typeof Semver;
  return semverLib.validRange(range) === null
    ? `${range} is not a semver range (e.g. ^1.2, >=2 <3, 1.x), so this exception could never apply`
    : undefined;
}

/** Why a deny entry's range cannot be read in its ecosystem (PEP 440 for pypi, semver elsewhere), or undefined. */
function denyRangeProblem(spec: string, ecosystem: string | undefined): string | undefined {
  const at = spec.lastIndexOf("@");
  const range = at > 0 ? spec.slice(at + 1).trim() : "";
  if (!range || range === "*") return undefined;
  const require = createRequire(import.meta.url);
  semverLib ??= require("semver") as typeof Semver;
  const semverOk = semverLib.validRange(range.replace(/(^|[\s<>=^~])v(?=\d)/g, "$1")) !== null;
  const pepOk = () => (require("@renovatebot/pep440") as { validRange(r: string): boolean }).validRange(range);
  const ok = ecosystem === "pypi" ? pepOk() : ecosystem !== undefined ? semverOk : semverOk || pepOk();
  return ok
    ? undefined
    : `${range} is not a version range ${ecosystem ? `in ${ecosystem}` : "in any ecosystem"} (it would deny every version)`;
}

/**
 * Advisory ids as their databases write them: GitHub's `GHSA-xxxx-xxxx-xxxx`, `CVE-2021-23337`,
 * and OSV's `<DATABASE>-<id>` (PYSEC-2021-59, GO-2023-2102, RUSTSEC-2021-0003, ...).
 */
const ADVISORY_ID =
  /^(?:GHSA(?:-[0-9a-z]{4}){3}|CVE-\d{4}-\d{4,}|(?!GHSA-|CVE-)[A-Z][A-Z0-9]*-[A-Za-z0-9][A-Za-z0-9._:-]*)$/i;

const SLACK_ID = /^[USW][A-Z0-9]+$/;
const SlackIdsSchema = z.array(z.string().regex(SLACK_ID, "must be a Slack user id (U…/W…) or user-group id (S…)"));

/** Rules for one kind of dependency (runtime or development). */
const ScopeRulesSchema = z
  .object({
    unknown: LicenseActionSchema.optional().describe(
      "a licence the registry does not give, or a package it does not know",
    ),
    not_allowed: LicenseActionSchema.optional().describe("a licence that is neither allowed nor denied"),
    allow: z.array(LicensePatternSchema).optional().describe("allowed for this kind only, beside licenses.allow"),
    deny: z.array(LicensePatternSchema).optional().describe("denied for this kind only, beside licenses.deny"),
  })
  .strict();

/** One exception: a policy, a package (with a semver range), a path glob or an advisory, why, who, until when. */
const ExceptionSchema = z
  .object({
    policy: PolicyIdSchema.describe("the policy the exception clears"),
    package: z
      .string()
      .min(1)
      .superRefine((spec, ctx) => {
        const problem = packageRangeProblem(spec);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .optional()
      .describe("a dependency: name, or name@range (semver), e.g. left-pad@^1 or @acme/ui@>=2 <3"),
    path: GlobSchema.optional().describe("a path glob of the files it covers"),
    advisory: z
      .string()
      .regex(
        ADVISORY_ID,
        "must be an advisory id or alias as its database writes it, e.g. GHSA-35jh-r3h4-6jhm, CVE-2021-23337 or PYSEC-2021-59",
      )
      .optional()
      .describe("a known vulnerability (SEC-07): the advisory's id or one of its aliases"),
    reason: z.string().trim().min(3).describe("why it was granted"),
    granted_by: z.string().trim().min(1).describe("who granted it"),
    expires: DateSchema.describe("the last day it applies"),
  })
  .strict()
  .refine((e) => [e.package, e.path, e.advisory].filter((x) => x !== undefined).length === 1, {
    message: "an exception names exactly one of package, path or advisory",
  });

/** An unread file a team accepts as a warning: a path glob or a language, and why. */
const AcceptUnreadSchema = z
  .object({
    path: GlobSchema.optional().describe("a path glob of the files, e.g. dist/**/*.min.js"),
    language: z
      .string()
      .trim()
      .min(1)
      .regex(/^[a-z0-9._-]+$/i, "must be a language or format name as the coverage ledger writes it, e.g. perl")
      .optional()
      .describe("a language or format, as the coverage ledger names it (perl, shell, so)"),
    reason: z.string().trim().min(3).describe("why the team accepts it unread"),
  })
  .strict()
  .refine((a) => (a.path === undefined) !== (a.language === undefined), {
    message: "an accepted unread entry names exactly one of path or language",
  });

/** An advisory severity in GitHub's words: the threshold at which SEC-07 blocks. */
export const AdvisoryLevelSchema = z.enum(["low", "moderate", "high", "critical"]);
export type AdvisoryLevel = z.infer<typeof AdvisoryLevelSchema>;

/** A package SEC-07 blocks whatever the advisory data says: a name glob, optionally a version range. */
const DenyPackageSchema = z
  .object({
    package: z
      .string()
      .trim()
      .min(1)
      .describe("a name glob, optionally with @range: event-stream, @evil-scope/*, colors@>=1.4.1, requests@<2.20"),
    ecosystem: z
      .string()
      .trim()
      .regex(/^[a-z]+$/, "must be an ecosystem name as the gate writes it, e.g. npm, pypi, go, crates")
      .optional()
      .describe("only in this ecosystem (npm, pypi, go, crates, ...); every ecosystem when absent"),
    reason: z.string().trim().min(3).describe("why the package is denied: a person reads it on the card"),
  })
  .strict()
  .superRefine((d, ctx) => {
    const problem = denyRangeProblem(d.package, d.ecosystem);
    if (problem) ctx.addIssue({ code: "custom", path: ["package"], message: problem });
  });

/** Known vulnerabilities (SEC-07): which advisory severities block, for runtime and development dependencies. */
const VulnerabilitiesSchema = z
  .object({
    fail_on: AdvisoryLevelSchema.optional().describe(
      "the lowest advisory severity that blocks a runtime dependency (default high); below it, a note",
    ),
    development: z
      .object({
        fail_on: z
          .union([AdvisoryLevelSchema, z.literal("never")])
          .optional()
          .describe("the same for development dependencies (default never: a note)"),
      })
      .strict()
      .optional(),
    deny_packages: z
      .array(DenyPackageSchema)
      .optional()
      .describe("packages that block as SEC-07 at any version the range admits, runtime or development"),
  })
  .strict();

export type DenyPackage = z.infer<typeof DenyPackageSchema>;

/** One policy's switches: a team may raise or lower its own policies. */
const PolicySwitchSchema = z
  .object({
    enabled: z.boolean().optional(),
    severity: SeveritySchema.optional(),
    blocking: z.boolean().optional(),
  })
  .strict();

/**
 * The configuration file (YAML), as written: every part optional, unknown keys refused. The
 * server-wide file (`GATE_CONFIG`, the bundled default otherwise) and a repository's
 * `.github/gate.yml` on the pull request's base branch share this shape (README, Configuration).
 *
 * @example GateConfigSchema.parse({ version: 1, licenses: { deny: ["AGPL-3.0-only"] } })
 */
export const GateConfigSchema = z
  .object({
    version: z.literal(1).describe("the file format's version"),
    licenses: z
      .object({
        allow: z.array(LicensePatternSchema).optional(),
        deny: z.array(LicensePatternSchema).optional(),
        runtime: ScopeRulesSchema.optional(),
        development: ScopeRulesSchema.optional(),
        own_packages: z
          .array(GlobSchema)
          .optional()
          .describe("your own packages (name globs such as @acme/* or acme-*): no licence check"),
      })
      .strict()
      .optional(),
    policies: z
      .record(z.string(), PolicySwitchSchema)
      .superRefine((switches, ctx) => {
        for (const id of Object.keys(switches)) {
          const checked = PolicyIdSchema.safeParse(id);
          if (!checked.success) {
            ctx.addIssue({
              code: "custom",
              path: [id],
              message: checked.error.issues[0]?.message ?? "not a policy id",
            });
          }
        }
      })
      .optional(),
    exceptions: z.array(ExceptionSchema).optional(),
    vulnerabilities: VulnerabilitiesSchema.optional(),
    risk: z
      .object({
        threshold: z.number().int().min(0).max(100).optional(),
        docs: z.array(GlobSchema).optional(),
        tests: z.array(GlobSchema).optional(),
        generated: z.array(GlobSchema).optional(),
      })
      .strict()
      .optional(),
    coverage: z
      .object({
        accept_unread: z
          .array(AcceptUnreadSchema)
          .optional()
          .describe("unread files that are a warning rather than a reason to ask a person (none by default)"),
      })
      .strict()
      .optional(),
    approvers: z
      .object({
        any: SlackIdsSchema.optional(),
        security: SlackIdsSchema.optional(),
        licensing: SlackIdsSchema.optional(),
        data: SlackIdsSchema.optional(),
      })
      .strict()
      .optional(),
    decisions: z
      .object({
        carry_forward: z
          .enum(["unchanged_findings", "unchanged_files", "never"])
          .optional()
          .describe(
            "whether a decision carries to a new head: while its findings are unchanged (default), also while their files are, or never",
          ),
      })
      .strict()
      .optional(),
    slack: z
      .object({
        channel: z
          .string()
          .regex(/^[CG][A-Z0-9]+$/, "must be a Slack channel id (C…)")
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type GateConfigFile = z.infer<typeof GateConfigSchema>;
export type ConfigException = NonNullable<GateConfigFile["exceptions"]>[number];
export type PolicySwitch = z.infer<typeof PolicySwitchSchema>;
