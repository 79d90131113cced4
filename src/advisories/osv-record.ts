import { z } from "zod";
import type { Ecosystem } from "../domain/license-resolver.js";
import { ECOSYSTEMS, ecosystemNamed } from "../ecosystems/index.js";

const EventSchema = z.looseObject({
  introduced: z.string().optional(),
  fixed: z.string().optional(),
  last_affected: z.string().optional(),
  limit: z.string().optional(),
});

const RangeSchema = z.looseObject({
  type: z.string().describe("SEMVER, ECOSYSTEM or GIT"),
  events: z.array(EventSchema),
});

const AffectedSchema = z.looseObject({
  package: z.looseObject({ ecosystem: z.string(), name: z.string() }).optional(),
  ranges: z.array(RangeSchema).optional(),
  versions: z.array(z.string()).optional(),
});

/**
 * One OSV record, as `GET /v1/vulns/{id}` returns it and OSV's exports hold it (the fields the
 * gate reads; others are kept and ignored).
 *
 * @example OsvRecordSchema.parse({ id: "GHSA-xxxx-xxxx-xxxx", affected: [] })
 */
export const OsvRecordSchema = z.looseObject({
  id: z.string().min(1),
  aliases: z.array(z.string()).optional(),
  summary: z.string().optional(),
  details: z.string().optional(),
  withdrawn: z.string().optional(),
  affected: z.array(AffectedSchema).optional(),
  severity: z.array(z.looseObject({ type: z.string(), score: z.string() })).optional(),
  database_specific: z.looseObject({ severity: z.string().optional() }).optional(),
});
export type OsvRecord = z.infer<typeof OsvRecordSchema>;
export type OsvRange = z.infer<typeof RangeSchema>;

/**
 * The OSV ecosystem name of one of the gate's ecosystems.
 *
 * @example osvEcosystem("cargo") // "crates.io"
 */
export function osvEcosystem(ecosystem: Ecosystem): string {
  return ecosystemNamed(ecosystem)?.osvName ?? ecosystem;
}

/**
 * The gate's ecosystem for an OSV ecosystem name (`PyPI`, `crates.io`, ...), or undefined for one
 * the gate does not read (OSV also has `Debian:12`, `Hex`, ...).
 *
 * @example gateEcosystem("PyPI") // "pypi"
 */
export function gateEcosystem(osv: string): Ecosystem | undefined {
  // OSV's names are exact (docs of the OSV schema); each ecosystem's folder holds its own. GitHub
  // Actions (no licence registry) is not one whose advisories the gate reads yet.
  const found = ECOSYSTEMS.find((e) => e.osvName === osv && e.licenseRegistry !== undefined);
  return found?.name as Ecosystem | undefined;
}
