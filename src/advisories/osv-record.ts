import { z } from "zod";
import type { Ecosystem } from "../domain/license-resolver.js";

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

/** OSV's ecosystem names, which are exact (docs of the OSV schema). */
const OSV_ECOSYSTEM: Record<Ecosystem, string> = {
  npm: "npm",
  pypi: "PyPI",
  go: "Go",
  cargo: "crates.io",
  maven: "Maven",
  nuget: "NuGet",
  composer: "Packagist",
  rubygems: "RubyGems",
};

/**
 * The OSV ecosystem name of one of the gate's ecosystems.
 *
 * @example osvEcosystem("cargo") // "crates.io"
 */
export function osvEcosystem(ecosystem: Ecosystem): string {
  return OSV_ECOSYSTEM[ecosystem];
}

/**
 * The gate's ecosystem for an OSV ecosystem name (`PyPI`, `crates.io`, ...), or undefined for one
 * the gate does not read (OSV also has `Debian:12`, `Hex`, ...).
 *
 * @example gateEcosystem("PyPI") // "pypi"
 */
export function gateEcosystem(osv: string): Ecosystem | undefined {
  const found = Object.entries(OSV_ECOSYSTEM).find(([, name]) => name === osv);
  return found?.[0] as Ecosystem | undefined;
}
