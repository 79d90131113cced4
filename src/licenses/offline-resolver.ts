import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { Ecosystem, LicenseResolver } from "../domain/license-resolver.js";
import { GateError } from "../domain/errors.js";

/** One package's metadata in a fixture's `registry.json` (extra fields are kept and ignored). */
export const RegistryEntrySchema = z.looseObject({
  license: z.string().optional().describe("The package's SPDX licence expression"),
});

/**
 * A fixture's `registry.json` (docs/fixtures.md).
 *
 * @example RegistrySchema.parse({ "npm:left-pad": { license: "MIT" } })
 */
export const RegistrySchema = z.record(z.string(), RegistryEntrySchema);
export type Registry = z.infer<typeof RegistrySchema>;

const ECOSYSTEMS: readonly Ecosystem[] = ["npm", "pypi", "go", "cargo", "maven", "nuget", "composer", "rubygems"];

/**
 * A package name as its registry compares names: PyPI per PEP 503 (case-insensitive, runs of
 * `-_.` equal), crates.io case-insensitive with `-` equal to `_`, NuGet ids and Packagist
 * `vendor/name` case-insensitive; npm, Go, Maven `groupId:artifactId` and RubyGems as written.
 *
 * @example normalizePackageName("pypi", "Foo__Bar.baz") // "foo-bar-baz"
 */
export function normalizePackageName(ecosystem: Ecosystem, name: string): string {
  const trimmed = name.trim();
  if (ecosystem === "pypi") return trimmed.toLowerCase().replace(/[-_.]+/g, "-");
  if (ecosystem === "cargo") return trimmed.toLowerCase().replace(/_/g, "-");
  if (ecosystem === "nuget" || ecosystem === "composer") return trimmed.toLowerCase();
  return trimmed;
}

/**
 * The registry key of a package: `<ecosystem>:<normalised name>`.
 *
 * @example registryKey("pypi", "Django_REST") // "pypi:django-rest"
 */
export function registryKey(ecosystem: Ecosystem, name: string): string {
  return `${ecosystem}:${normalizePackageName(ecosystem, name)}`;
}

function isEcosystem(value: string): value is Ecosystem {
  return (ECOSYSTEMS as readonly string[]).includes(value);
}

/**
 * A resolver over a fixed registry (a fixture's `registry.json`). Versions are ignored: the file
 * holds one licence per package. A package it does not list, or lists without a licence, is
 * unknown (the registry answered and gave none).
 *
 * @example await createOfflineResolver({ "npm:left-pad": { license: "MIT" } }).lookup("npm", "left-pad") // { status: "found", license: "MIT" }
 */
export function createOfflineResolver(registry: Registry): LicenseResolver {
  const byKey = new Map<string, string | undefined>();
  for (const [key, entry] of Object.entries(registry)) {
    const colon = key.indexOf(":");
    const ecosystem = key.slice(0, colon);
    if (colon < 1 || !isEcosystem(ecosystem)) continue; // not a key any lookup can produce
    byKey.set(registryKey(ecosystem, key.slice(colon + 1)), entry.license);
  }
  return {
    lookup: async (ecosystem, name) => {
      const license = byKey.get(registryKey(ecosystem, name))?.trim();
      return license ? { status: "found", license } : { status: "unknown" };
    },
  };
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}

/**
 * Reads and validates a fixture's `registry.json`. A missing file is an empty registry (every
 * licence unknown); a malformed one is a FIXTURE_INVALID error naming the file.
 *
 * @example createOfflineResolver(await loadRegistryFile("fixtures/002_new_dependency/registry.json"))
 */
export async function loadRegistryFile(path: string): Promise<Registry> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isMissingFile(error)) return {};
    throw new GateError("FIXTURE_INVALID", `cannot read ${path}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new GateError("FIXTURE_INVALID", `${path} is not JSON`, { cause: error });
  }
  const parsed = RegistrySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "invalid";
    throw new GateError("FIXTURE_INVALID", `${path} is not a registry: ${where}`);
  }
  return parsed.data;
}

/**
 * A fixture's licences: its `registry.json`, read on first use. A file that cannot be read or is
 * malformed makes every lookup fail (the review goes to a person), naming the file.
 *
 * @example await createFixtureResolver("fixtures/002_new_dependency/registry.json").lookup("npm", "gpl-lib")
 */
export function createFixtureResolver(registryFile: string): LicenseResolver {
  let loaded: Promise<LicenseResolver> | undefined;
  return {
    async lookup(ecosystem, name, version) {
      loaded ??= loadRegistryFile(registryFile).then(createOfflineResolver);
      try {
        return await (await loaded).lookup(ecosystem, name, version);
      } catch (error) {
        return {
          status: "failed",
          registry: "the fixture's registry.json",
          reason: error instanceof Error ? error.message : String(error),
        };
      }
    },
  };
}
