import type { Ecosystem } from "../../../domain/license-resolver.js";

/** Whether a dependency ships with the product (runtime) or only helps build and test it (dev). */
export type DependencyScope = "runtime" | "dev";

/** A dependency written on one manifest line, as a parser reads it. */
export interface DeclaredDependency {
  /** The registry name (a Cargo rename resolves to the real crate). */
  name: string;
  /** The version or range as written; absent when the line has none. */
  version?: string;
  /** The section the line belongs to, when known (overrides the walker's section for inline arrays). */
  section?: string;
}

/**
 * What one manifest kind knows: which files it reads, how its sections open and close line by
 * line (to tell runtime from dev inside a diff hunk), how a dependency line reads, and how to
 * read the whole head file properly.
 *
 * A section is an opaque label the parser defines (`"devDependencies"`, `"tool.poetry.group.dev.dependencies"`);
 * `undefined` means "cannot tell", which the caller treats as runtime (fail closed).
 */
export interface ManifestParser {
  /** A short name for messages, e.g. "package.json". */
  kind: string;
  ecosystem: Ecosystem;
  /** Whether this parser reads the file at this repository path. */
  matches(path: string): boolean;
  /** The section at a hunk that starts on line `start` (1 means the top of the file). */
  sectionAtStart(start: number): string | undefined;
  /** The section after this line (a header opens one, a closing bracket ends one). */
  nextSection(section: string | undefined, text: string): string | undefined;
  /** The dependencies this line declares, read as part of `section`; [] when it declares none. */
  parseLine(text: string, section: string | undefined): DeclaredDependency[];
  /** The scope a section means for this file; undefined when it cannot be told. */
  scopeOf(section: string | undefined, path: string): DependencyScope | undefined;
  /**
   * Every dependency the whole head file declares, by normalised name (runtime wins over dev),
   * or undefined when the kind has no sections or the text does not parse.
   */
  readHead(text: string, path: string): Map<string, DependencyScope> | undefined;
  /** The name as the registry compares it (PEP 503 for PyPI). */
  normalizeName(name: string): string;
}

/**
 * The final segment of a repository path.
 *
 * @example baseName("apps/web/package.json") // "package.json"
 */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * Adds a name to a scope map, keeping runtime when a name is declared both ways.
 *
 * @example addScope(scopes, "left-pad", "dev") // leaves "runtime" if it was already there
 */
export function addScope(map: Map<string, DependencyScope>, name: string, scope: DependencyScope): void {
  if (map.get(name) !== "runtime") map.set(name, scope);
}
