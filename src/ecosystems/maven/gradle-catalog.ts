import type { DependencyChange } from "../common/changed-dependencies.js";
import { catalogUses } from "./gradle.js";
import {
  addScope,
  baseName,
  type DeclaredDependency,
  type DependencyScope,
  type ManifestParser,
  sectionAtTop,
} from "../common/manifest-parser.js";
import {
  inlineField,
  isTomlTable,
  keyValue,
  nextTomlSection,
  parseTomlTable,
  stringValue,
  tableHeader,
  tableOf,
} from "../common/toml-sections.js";

/** `group:artifact:version` (a catalog's short notation). */
const COORDINATES = /^([^:\s]+):([^:\s]+)(?::([^:\s]+))?$/;

/** One `[libraries]` entry: `alias = "g:a:v"`, or `{ module = "g:a", version = "1" }`, or `{ group, name, version.ref }`. */
function library(text: string): DeclaredDependency | undefined {
  const kv = keyValue(text);
  if (!kv) return undefined;
  const plain = stringValue(kv.value);
  if (plain !== undefined) {
    const c = COORDINATES.exec(plain);
    if (c?.[1] === undefined || c[2] === undefined) return undefined;
    return { name: `${c[1]}:${c[2]}`, ...(c[3] !== undefined ? { version: c[3] } : {}) };
  }
  if (!kv.value.startsWith("{")) return undefined;
  const module = inlineField(kv.value, "module");
  const group = inlineField(kv.value, "group");
  const artifact = inlineField(kv.value, "name");
  const name = module ?? (group !== undefined && artifact !== undefined ? `${group}:${artifact}` : undefined);
  if (name === undefined || !name.includes(":")) return undefined;
  // `version.ref = "okhttp"` names an entry of [versions]: the lookup then asks for the default version.
  const version =
    inlineField(kv.value, "version") ??
    inlineField(kv.value, "strictly") ??
    inlineField(kv.value, "require") ??
    inlineField(kv.value, "prefer");
  return { name, ...(version !== undefined ? { version } : {}) };
}

/** The `[libraries]` table of a parsed catalog. */
function libraries(text: string): Record<string, unknown> | undefined {
  const doc = parseTomlTable(text);
  if (!doc) return undefined;
  return isTomlTable(doc.libraries) ? doc.libraries : {};
}

function moduleOf(spec: unknown): string | undefined {
  if (typeof spec === "string") {
    const c = COORDINATES.exec(spec);
    return c?.[1] !== undefined && c[2] !== undefined ? `${c[1]}:${c[2]}` : undefined;
  }
  if (!isTomlTable(spec)) return undefined;
  if (typeof spec.module === "string") return spec.module;
  return typeof spec.group === "string" && typeof spec.name === "string" ? `${spec.group}:${spec.name}` : undefined;
}

/**
 * Gradle version catalogs (`gradle/libs.versions.toml`): the `[libraries]` entries, each a
 * `groupId:artifactId`. A catalog only declares; the build scripts' configurations that use an
 * entry (`testImplementation(libs.junit.jupiter)`) give its scope, so an entry is runtime
 * (fail closed) until `catalogScopes` finds that every use of it is a test one. `[versions]`,
 * `[bundles]` and `[plugins]` (build plugins from the Gradle plugin portal) declare no library.
 *
 * @example gradleCatalogParser.parseLine(`okhttp = { module = "com.squareup.okhttp3:okhttp", version = "4.12.0" }`, "libraries") // [{ name: "com.squareup.okhttp3:okhttp", version: "4.12.0" }]
 */
export const gradleCatalogParser: ManifestParser = {
  kind: "libs.versions.toml",
  ecosystem: "maven",
  matches: (path) => baseName(path) === "libs.versions.toml" || /(?:^|\/)gradle\/[^/]+\.versions\.toml$/.test(path),
  sectionAtStart: sectionAtTop,
  nextSection: nextTomlSection,
  parseLine(text, section) {
    if (tableHeader(text) !== undefined) return [];
    const table = tableOf(section);
    // A hunk that does not show its table: an entry with coordinates counts (fail closed).
    if (table !== undefined && table !== "libraries") return [];
    const dep = library(text);
    return dep ? [dep] : [];
  },
  scopeOf: (section) => (tableOf(section) === "libraries" || section === undefined ? "runtime" : undefined),
  readHead(text) {
    const table = libraries(text);
    if (!table) return undefined;
    const out = new Map<string, DependencyScope>();
    for (const spec of Object.values(table)) {
      const name = moduleOf(spec);
      if (name !== undefined) addScope(out, name, "runtime");
    }
    return out;
  },
  normalizeName: (name) => name.trim(),
};

/**
 * The Gradle accessor of a catalog alias: `-`, `_` and `.` all become `.` (`okhttp-logging` is `libs.okhttp.logging`).
 *
 * @example catalogAccessor("junit-jupiter") // "junit.jupiter"
 */
export function catalogAccessor(alias: string): string {
  return alias.toLowerCase().replace(/[-_.]+/g, ".");
}

/**
 * Catalog changes with the scopes the build scripts give them: a change whose every use in the
 * scripts read (`buildTexts`) is in a test configuration becomes dev; one used at runtime, or not
 * used in any script read (a subproject the PR does not show), stays runtime (fail closed).
 *
 * @example catalogScopes(changes, catalogText, [`testImplementation(libs.junit.jupiter)`]) // junit-jupiter now "dev"
 */
export function catalogScopes(
  changes: readonly DependencyChange[],
  catalogText: string,
  buildTexts: readonly string[],
): DependencyChange[] {
  const table = libraries(catalogText) ?? {};
  const uses = new Map<string, DependencyScope>();
  for (const text of buildTexts) for (const [accessor, scope] of catalogUses(text)) addScope(uses, accessor, scope);
  return changes.map((change) => {
    if (change.scope !== "runtime") return change;
    const aliases = Object.entries(table)
      .filter(([, spec]) => moduleOf(spec) === change.name)
      .map(([alias]) => catalogAccessor(alias));
    const scopes = aliases.flatMap((a) => {
      const s = uses.get(a);
      return s === undefined ? [] : [s];
    });
    return scopes.length > 0 && scopes.every((s) => s === "dev") ? { ...change, scope: "dev" } : change;
  });
}
