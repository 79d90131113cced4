import { z } from "zod";

export const SpecialtySchema = z.enum(["security", "licensing", "data"]);
/** The three specialist reviewers; every policy belongs to one. */
export type Specialty = z.infer<typeof SpecialtySchema>;
export const SPECIALTIES: readonly Specialty[] = ["security", "licensing", "data"];

export const SeveritySchema = z.enum(["low", "medium", "high", "critical"]);
export type Severity = z.infer<typeof SeveritySchema>;

/** Who raised a finding: a deterministic detector, the rules reviewer, or a model. */
export const FindingSourceSchema = z.enum(["detector", "rules", "model", "investigator"]);
export type FindingSource = z.infer<typeof FindingSourceSchema>;

/** An exception of the configuration, as a finding it cleared (or that expired) names it. Plain JSON. */
export const ExceptionRefSchema = z.object({
  policy: z.string(),
  package: z.string().optional(),
  path: z.string().optional(),
  /** An advisory id or alias (SEC-07). */
  advisory: z.string().optional(),
  reason: z.string(),
  granted_by: z.string(),
  /** The last day it applies, `YYYY-MM-DD`. */
  expires: z.string(),
  /** `applied`: it cleared the finding; `expired`: it would have, but its day has passed. */
  status: z.enum(["applied", "expired"]),
});
export type ExceptionRef = z.infer<typeof ExceptionRefSchema>;

/**
 * One finding, citing one policy. Plain JSON (it is checkpointed). The `--json` result prints
 * every field but `source` and `detector` (docs/fixtures.md).
 */
export const FindingSchema = z.object({
  specialty: SpecialtySchema,
  /** A policy id from the corpus, e.g. "SEC-01". */
  policy: z.string(),
  severity: SeveritySchema,
  blocking: z.boolean(),
  needs_more_context: z.boolean(),
  file: z.string().optional(),
  line: z.number().int().positive().optional(),
  message: z.string(),
  source: FindingSourceSchema,
  /** The detector that raised it (for `source: "detector"`), e.g. "credentials". */
  detector: z.string().optional(),
  /** The dependency it is about (dependency licences), for exceptions by package. */
  package: z.object({ name: z.string(), version: z.string().optional() }).optional(),
  /** The configuration's exception that cleared it, or that no longer applies (expired). */
  exception: ExceptionRefSchema.optional(),
  /**
   * The advisories a known-vulnerability finding (SEC-07) is about. Such a finding is graded by
   * the configuration's `vulnerabilities` thresholds, so the policy file's defaults do not raise it.
   */
  advisories: z.array(z.object({ id: z.string(), aliases: z.array(z.string()) })).optional(),
  /**
   * What makes this finding dangerous, folded into its fingerprint in place of the cited line (a
   * hash or id, never a secret itself): a private key's digest, a privileged job's steps, triggers
   * and secrets, the whole changed gate configuration, a dependency's licence.
   */
  subject: z.string().optional(),
  /**
   * Stable across line shifts and unrelated edits: policy id and a hash of policy, file and the
   * offending code or dependency (`fingerprint`, docs/fingerprints.md). Absent in reviews kept before it existed.
   */
  fingerprint: z.string().optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

/** The severity ordering, for sorting and for "raise, never lower". */
export const SEVERITY_RANK: Record<Severity, number> = { low: 0, medium: 1, high: 2, critical: 3 };
