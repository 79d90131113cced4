import { cargo } from "./cargo/index.js";
import { composer } from "./composer/index.js";
import type { Ecosystem } from "./ecosystem.js";
import { githubActions } from "./github-actions/index.js";
import { go } from "./go/index.js";
import { maven } from "./maven/index.js";
import { npm } from "./npm/index.js";
import { nuget } from "./nuget/index.js";
import { pypi } from "./pypi/index.js";
import { rubygems } from "./rubygems/index.js";
import { baseName, type DocumentManifestParser, type ManifestParser } from "./common/manifest-parser.js";
import type { VersionReader } from "./common/pinned-dependency.js";

export type { Ecosystem, LicenseRegistry, RegistryUrls } from "./ecosystem.js";

/**
 * Every package ecosystem the gate reads, one line each. Adding one: a folder beside these with an
 * `index.ts` exporting its `Ecosystem`, and its line here (docs/design.md, "Adding an ecosystem").
 */
export const ECOSYSTEMS: readonly Ecosystem[] = [npm, pypi, go, cargo, maven, nuget, composer, rubygems, githubActions];

/**
 * The registered ecosystem of this name, or undefined.
 *
 * @example ecosystemNamed("cargo")?.osvName // "crates.io"
 */
export function ecosystemNamed(name: string): Ecosystem | undefined {
  return ECOSYSTEMS.find((e) => e.name === name);
}

/**
 * The lockfile paths that may pin a manifest's dependencies (its ecosystem's `pins`), beside the
 * manifest, nearest first; none for an ecosystem whose lockfiles the licence checks do not read.
 *
 * @example lockfilesBeside("npm", "web/package.json") // ["web/npm-shrinkwrap.json", "web/package-lock.json"]
 */
export function lockfilesBeside(ecosystem: string, manifest: string): string[] {
  const dir = manifest.slice(0, manifest.lastIndexOf("/") + 1);
  return (ecosystemNamed(ecosystem)?.pins?.lockfiles ?? []).map((name) => `${dir}${name}`);
}

/**
 * The exact version a parsed lockfile of this ecosystem pins for a direct dependency, or undefined.
 *
 * @example pinnedVersion("npm", { packages: { "node_modules/a": { version: "1.2.0" } } }, "a") // "1.2.0"
 */
export function pinnedVersion(ecosystem: string, lock: unknown, name: string): string | undefined {
  return ecosystemNamed(ecosystem)?.pins?.version(lock, name);
}

/** Every manifest kind the dependency-licences detector reads: line by line, or (XML) as whole documents. */
export const MANIFEST_PARSERS: readonly (ManifestParser | DocumentManifestParser)[] = ECOSYSTEMS.flatMap(
  (e) => e.manifestParsers,
);

/** Every manifest and lockfile whose versions SEC-07 reads. */
export const VERSION_READERS: readonly VersionReader[] = ECOSYSTEMS.flatMap((e) => e.versionReaders);

/**
 * The parser for a repository path, or undefined when it is not a manifest the gate reads.
 *
 * @example manifestParserFor("web/package.json")?.ecosystem // "npm"
 */
export function manifestParserFor(path: string): ManifestParser | DocumentManifestParser | undefined {
  return MANIFEST_PARSERS.find((p) => p.matches(path));
}

/**
 * Whether a reader takes the file by its name, wherever it lies: a `package.json` under
 * `node_modules/` or a `composer.json` under `vendor/` is still named as a manifest (the readers
 * themselves leave vendored copies alone).
 */
const named = (matches: (path: string) => boolean, path: string): boolean => matches(path) || matches(baseName(path));

/**
 * Whether a path is a manifest of a registered ecosystem (declares dependencies: package.json,
 * pom.xml, a .csproj, a Gradle script, a .gemspec, ...), by its name, wherever it lies.
 *
 * @example isManifest("services/api/pom.xml") // true
 * @example isManifest("package-lock.json") // false (a lockfile)
 */
export function isManifest(path: string): boolean {
  return (
    MANIFEST_PARSERS.some((p) => named(p.matches, path)) ||
    VERSION_READERS.some((r) => !r.lockfile && named(r.matches, path))
  );
}

/**
 * The ecosystem whose manifest a path is (by its name, wherever it lies), or undefined.
 *
 * @example manifestEcosystem("api/requirements.txt") // "pypi"
 */
export function manifestEcosystem(path: string): Ecosystem["name"] | undefined {
  return ECOSYSTEMS.find(
    (e) =>
      e.manifestParsers.some((p) => named(p.matches, path)) ||
      e.versionReaders.some((r) => !r.lockfile && named(r.matches, path)),
  )?.name;
}

/**
 * Whether a path is a lockfile of a registered ecosystem (pins exact versions: package-lock.json,
 * yarn.lock, go.sum, Cargo.lock, uv.lock, ...), by its name, wherever it lies.
 *
 * @example isLockfile("web/yarn.lock") // true
 */
export function isLockfile(path: string): boolean {
  return VERSION_READERS.some((r) => r.lockfile && named(r.matches, path));
}

/**
 * The language of a manifest that is a program (`setup.py`: Python), or undefined.
 *
 * @example manifestLanguage("setup.py") // "python"
 */
export function manifestLanguage(path: string): string | undefined {
  for (const e of ECOSYSTEMS) {
    const language = e.manifestLanguage?.(path);
    if (language !== undefined) return language;
  }
  return undefined;
}
