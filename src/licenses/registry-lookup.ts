import type { z } from "zod";
import type { LicenseLookup } from "../domain/license-resolver.js";
import { classifyLicense } from "./license-policy.js";
import { RegistryUnavailable } from "./registry-http.js";

/**
 * A registry's JSON read against its schema; throws (inside `registryLookup`) when it does not
 * fit, which makes the lookup failed, never unknown.
 *
 * @example const doc = readDocument(answer.json, CrateDocSchema, "a crate document");
 */
export function readDocument<T>(json: unknown, schema: z.ZodType<T>, what: string): T {
  const parsed = schema.safeParse(json);
  // An answer of the wrong shape is no usable answer, as an outage is.
  if (!parsed.success) throw new RegistryUnavailable(`sent something that is not ${what}`);
  return parsed.data;
}

/**
 * One licence lookup, the same for every registry: `ask` fetches (with `getRegistryJson`) and
 * maps the registry's documents to a licence, or undefined when the registry knows the package
 * without one, or not at all. A licence that is not an SPDX expression is unknown; the registry
 * not answering (after retries) or answering with something that is not its document is a failed
 * lookup, never unknown or permissive.
 *
 * @example await registryLookup("crates.io https://crates.io", async () => "MIT") // { status: "found", license: "MIT" }
 */
export async function registryLookup(registry: string, ask: () => Promise<string | undefined>): Promise<LicenseLookup> {
  let license: string | undefined;
  try {
    license = await ask();
  } catch (error) {
    if (error instanceof RegistryUnavailable) return { status: "failed", registry, reason: error.message };
    throw error;
  }
  const trimmed = license?.trim();
  return trimmed && classifyLicense(trimmed).parsed ? { status: "found", license: trimmed } : { status: "unknown" };
}

/**
 * Several licences a registry lists for one version, as one SPDX expression in which every one
 * applies (AND): fail closed, since a list may mean "all of these" (deps.dev's files, RubyGems'
 * gemspecs), and a copyleft licence beside a permissive one then still counts. One that is not an
 * SPDX expression stays in as a `LicenseRef`, so it is not on the allow-list.
 *
 * @example allOfLicenses(["MIT", "GPL-3.0-only"], "deps.dev") // "MIT AND GPL-3.0-only"
 */
export function allOfLicenses(licenses: readonly string[], source: string): string | undefined {
  const list = licenses.map((l) => l.trim()).filter((l) => l !== "");
  const terms = [...new Set(list)].map((l) => {
    if (!classifyLicense(l).parsed) return `LicenseRef-${source}-non-standard`;
    return / OR /i.test(l) && list.length > 1 ? `(${l})` : l;
  });
  const unique = [...new Set(terms)];
  return unique.length === 0 ? undefined : unique.join(" AND ");
}
