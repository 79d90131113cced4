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

/** A glob: plain text, no extglobs (they are compiled with `noextglob`, and refused here to say so). */
const GlobSchema = z
  .string()
  .min(1)
  .refine((g) => !/[@!+*?]\(/.test(g), "extglob patterns like @(a|b) are not supported");

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
      .optional()
      .describe("a dependency: name, or name@range (semver), e.g. left-pad@^1 or @acme/ui@>=2 <3"),
    path: GlobSchema.optional().describe("a path glob of the files it covers"),
    advisory: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9._:-]*$/,
        "must be an advisory id or alias, e.g. GHSA-35jh-r3h4-6jhm or CVE-2021-23337",
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
  })
  .strict();

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
