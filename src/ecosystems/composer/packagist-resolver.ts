import { z } from "zod";
import type { LicenseResolver } from "../../domain/license-resolver.js";
import { getRegistryJson, type RegistryHttpOptions } from "../../licenses/registry-http.js";
import { readDocument, registryLookup } from "../../licenses/registry-lookup.js";

export interface PackagistResolverOptions extends RegistryHttpOptions {
  /** The Packagist metadata root (Composer v2 API at `/p2/<vendor>/<name>.json`); a private Packagist or mirror works too. */
  baseUrl?: string;
}

/** A Packagist name, `vendor/package`, lower case as Packagist keeps them. */
const PACKAGE_NAME = /^[a-z0-9](?:[_.-]?[a-z0-9]+)*\/[a-z0-9](?:(?:[_.]|-{1,2})?[a-z0-9]+)*$/;

const VersionSchema = z.looseObject({
  version: z.string().optional(),
  version_normalized: z.string().optional(),
  license: z
    .union([z.array(z.string()), z.string()])
    .nullable()
    .optional(),
});
const P2Schema = z.looseObject({
  packages: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
  minified: z.string().optional(),
});

/**
 * Composer's v2 metadata lists versions newest first, each later one only with the fields that
 * differ from the one before (`"__unset"` removes one): the full entry of every version.
 *
 * @example expandMinified([{ version: "2.0.0", license: ["MIT"] }, { version: "1.0.0" }])[1] // { version: "1.0.0", license: ["MIT"] }
 */
export function expandMinified(versions: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let previous: Record<string, unknown> = {};
  for (const entry of versions) {
    const current = { ...previous };
    for (const [key, value] of Object.entries(entry)) {
      if (value === "__unset") delete current[key];
      else current[key] = value;
    }
    out.push(current);
    previous = current;
  }
  return out;
}

/**
 * A Composer `license` as an SPDX expression. Composer's documentation makes an array a choice
 * ("for dual licensed packages"): its entries are joined with OR, so a GPL-only package stays
 * copyleft and `["MIT", "GPL-2.0-only"]` lets the product take MIT. Composer's lower-case
 * `and`/`or` inside one entry are SPDX's operators.
 *
 * @example composerLicense(["MIT", "GPL-2.0-or-later"]) // "MIT OR GPL-2.0-or-later"
 */
export function composerLicense(license: readonly string[] | string | null | undefined): string | undefined {
  const list = (typeof license === "string" ? [license] : (license ?? []))
    .map((l) => l.trim().replace(/\s+(and|or|with)\s+/gi, (_m, op: string) => ` ${op.toUpperCase()} `))
    .filter((l) => l !== "");
  if (list.length === 0) return undefined;
  if (list.length === 1) return list[0];
  return list.map((l) => (/ (?:AND|OR) /.test(l) && !l.startsWith("(") ? `(${l})` : l)).join(" OR ");
}

/**
 * Looks up Composer package licences in Packagist's v2 metadata (`/p2/<vendor>/<name>.json`,
 * configurable for a private Packagist): the `license` of the version composer.json names when it
 * is an exact one, else of the newest tagged version. A 404 or no licence is unknown; Packagist
 * not answering (after retries) is a failed lookup, never unknown or permissive.
 *
 * @example await createPackagistResolver().lookup("composer", "monolog/monolog", "3.6.0") // { status: "found", license: "MIT" }
 */
export function createPackagistResolver(opts: PackagistResolverOptions = {}): LicenseResolver {
  const base = (opts.baseUrl ?? "https://repo.packagist.org").replace(/\/+$/, "");
  const registry = `Packagist ${base}`;

  const lookup: LicenseResolver["lookup"] = async (ecosystem, name, version) => {
    const pkg = name.trim().toLowerCase();
    if (ecosystem !== "composer" || !PACKAGE_NAME.test(pkg)) return { status: "unknown" };
    return registryLookup(registry, async () => {
      const answer = await getRegistryJson(`${base}/p2/${pkg}.json`, opts);
      if (!answer.found) return undefined;
      const doc = readDocument(answer.json, P2Schema, "a Packagist metadata document");
      const listed = doc.packages[pkg] ?? [];
      const versions = (doc.minified === "composer/2.0" ? expandMinified(listed) : listed).map((v) =>
        readDocument(v, VersionSchema, "a Packagist version entry"),
      );
      const wanted = version?.trim().replace(/^v/, "");
      const exact =
        wanted === undefined
          ? undefined
          : versions.find((v) => v.version?.replace(/^v/, "") === wanted || v.version_normalized === wanted);
      return composerLicense((exact ?? versions[0])?.license);
    });
  };

  return { lookup };
}
