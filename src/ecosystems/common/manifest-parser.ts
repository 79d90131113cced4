import type { Ecosystem } from "../../domain/license-resolver.js";

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

/**
 * The section a hunk starts in, for a parser whose sections open on lines: the top of the file
 * for a hunk at line 1, else not known (the hunk does not show its header).
 *
 * @example sectionAtTop(1) // "(top)"
 */
export function sectionAtTop(start: number): string | undefined {
  return start <= 1 ? "(top)" : undefined;
}

/**
 * Every dependency of a whole file, read line by line as the parser reads a hunk, by normalised
 * name with the scope its section gives (runtime wins over dev). The section loop every
 * line-oriented parser's `readHead` shares.
 *
 * @example scopesByLine(goModParser, "require (\n\tgithub.com/pkg/errors v0.9.1\n)", "go.mod") // Map { "github.com/pkg/errors" => "runtime" }
 */
export function scopesByLine(parser: ManifestParser, text: string, path: string): Map<string, DependencyScope> {
  const out = new Map<string, DependencyScope>();
  let section = parser.sectionAtStart(1);
  for (const line of text.split("\n")) {
    for (const dep of parser.parseLine(line, section)) {
      const scope = parser.scopeOf(dep.section ?? section, path);
      if (scope) addScope(out, parser.normalizeName(dep.name), scope);
    }
    section = parser.nextSection(section, line);
  }
  return out;
}

/** A dependency a whole manifest declares, with where it stands in that text. */
export interface Declaration {
  /** The registry name (Maven's `groupId:artifactId`, a NuGet id). */
  name: string;
  /** The version as the manifest resolves it (a Maven property filled in); absent when it names none. */
  version?: string;
  scope: DependencyScope;
  /** The first and last line of its declaration (an XML element may span several). */
  line: number;
  endLine: number;
}

/**
 * A manifest kind read as a whole document (XML): its dependencies are the declarations of the
 * head file compared with those of the base file, which is the head with the patch taken back.
 * Without the head file it cannot be read at all, and says so (the ledger then calls it unread).
 */
export interface DocumentManifestParser {
  kind: string;
  ecosystem: Ecosystem;
  matches(path: string): boolean;
  /** Every dependency the text declares, or undefined when the text does not parse. */
  declarations(text: string, path: string): Declaration[] | undefined;
  normalizeName(name: string): string;
}

/**
 * Whether a parser reads whole documents rather than lines.
 *
 * @example isDocumentParser(mavenPomParser) // true
 */
export function isDocumentParser(parser: ManifestParser | DocumentManifestParser): parser is DocumentManifestParser {
  return "declarations" in parser;
}
