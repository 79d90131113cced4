import { cargoTomlParser } from "./cargo-toml.js";
import { goModParser } from "./go-mod.js";
import type { ManifestParser } from "./manifest-parser.js";
import { packageJsonParser } from "./package-json.js";
import { pipfileParser } from "./pipfile.js";
import { pyprojectTomlParser } from "./pyproject-toml.js";
import { requirementsTxtParser } from "./requirements-txt.js";
import { setupCfgParser } from "./setup-cfg.js";
import { setupPyParser } from "./setup-py.js";

export { changedDependencies, type DependencyChange, type DependencyChangeKind } from "./changed-dependencies.js";
export type { DeclaredDependency, DependencyScope, ManifestParser } from "./manifest-parser.js";

/** Every manifest kind the dependency-licences detector reads. */
export const MANIFEST_PARSERS: readonly ManifestParser[] = [
  packageJsonParser,
  requirementsTxtParser,
  pyprojectTomlParser,
  setupPyParser,
  setupCfgParser,
  pipfileParser,
  goModParser,
  cargoTomlParser,
];

/**
 * The parser for a repository path, or undefined when it is not a manifest the gate reads.
 *
 * @example manifestParserFor("web/package.json")?.ecosystem // "npm"
 */
export function manifestParserFor(path: string): ManifestParser | undefined {
  return MANIFEST_PARSERS.find((p) => p.matches(path));
}
