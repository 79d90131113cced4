import { cargoTomlParser } from "./cargo-toml.js";
import { composerJsonParser } from "./composer-json.js";
import { gemfileParser } from "./gemfile.js";
import { gemspecParser } from "./gemspec.js";
import { goModParser } from "./go-mod.js";
import { gradleParser } from "./gradle.js";
import { gradleCatalogParser } from "./gradle-catalog.js";
import type { DocumentManifestParser, ManifestParser } from "./manifest-parser.js";
import { mavenPomParser } from "./maven-pom.js";
import { nugetParser } from "./nuget.js";
import { packageJsonParser } from "./package-json.js";
import { pipfileParser } from "./pipfile.js";
import { pyprojectTomlParser } from "./pyproject-toml.js";
import { requirementsTxtParser } from "./requirements-txt.js";
import { setupCfgParser } from "./setup-cfg.js";
import { setupPyParser } from "./setup-py.js";

export { changedDependencies, type DependencyChange, type DependencyChangeKind } from "./changed-dependencies.js";
export { documentChanges, type DocumentChanges } from "./document-changes.js";
export { catalogScopes } from "./gradle-catalog.js";
export {
  isDocumentParser,
  type DeclaredDependency,
  type Declaration,
  type DependencyScope,
  type DocumentManifestParser,
  type ManifestParser,
} from "./manifest-parser.js";
export { gradleCatalogParser, gradleParser };

/** Every manifest kind the dependency-licences detector reads: line by line, or (XML) as whole documents. */
export const MANIFEST_PARSERS: readonly (ManifestParser | DocumentManifestParser)[] = [
  packageJsonParser,
  requirementsTxtParser,
  pyprojectTomlParser,
  setupPyParser,
  setupCfgParser,
  pipfileParser,
  goModParser,
  cargoTomlParser,
  mavenPomParser,
  gradleParser,
  gradleCatalogParser,
  nugetParser,
  composerJsonParser,
  gemfileParser,
  gemspecParser,
];

/**
 * The parser for a repository path, or undefined when it is not a manifest the gate reads.
 *
 * @example manifestParserFor("web/package.json")?.ecosystem // "npm"
 */
export function manifestParserFor(path: string): ManifestParser | DocumentManifestParser | undefined {
  return MANIFEST_PARSERS.find((p) => p.matches(path));
}
