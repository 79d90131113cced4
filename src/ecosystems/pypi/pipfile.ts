import { normalizePackageName } from "../../licenses/offline-resolver.js";
import {
  addScope,
  baseName,
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

/** Pipenv's dependency tables and whether each ships. */
const TABLES: Readonly<Record<string, DependencyScope>> = { packages: "runtime", "dev-packages": "dev" };

/** `requests = "*"`, `flask = "==3.0.3"`, `django = { version = ">=5", extras = ["argon2"] }`; local paths are this repository's. */
function entry(text: string): { name: string; version?: string }[] {
  const kv = keyValue(text);
  if (!kv) return [];
  const plain = stringValue(kv.value);
  const version = plain ?? (kv.value.startsWith("{") ? inlineField(kv.value, "version") : undefined);
  if (plain === undefined && !kv.value.startsWith("{")) return [];
  if (plain === undefined && /(?:^|[{,\s])(?:path|file)\s*=/.test(kv.value)) return [];
  const exact =
    version === undefined || version === "*" ? undefined : (/^==\s*([^,\s]+)$/.exec(version)?.[1] ?? version);
  return [exact === undefined ? { name: kv.key } : { name: kv.key, version: exact }];
}

/**
 * Pipfile (Pipenv): `[packages]` ships (runtime), `[dev-packages]` does not (dev). Other tables
 * (`[source]`, `[requires]`, `[scripts]`) hold no dependencies.
 *
 * @example pipfileParser.parseLine(`requests = "==2.32.3"`, "packages") // [{ name: "requests", version: "2.32.3" }]
 */
export const pipfileParser: ManifestParser = {
  kind: "Pipfile",
  ecosystem: "pypi",
  matches: (path) => baseName(path) === "Pipfile",
  sectionAtStart: sectionAtTop,
  nextSection: nextTomlSection,
  parseLine(text, section) {
    if (tableHeader(text) !== undefined) return [];
    const table = tableOf(section);
    if (table === undefined) return section === undefined ? entry(text).filter((d) => d.version !== undefined) : [];
    return Object.hasOwn(TABLES, table) ? entry(text) : [];
  },
  scopeOf(section) {
    const table = tableOf(section);
    return table !== undefined && Object.hasOwn(TABLES, table) ? TABLES[table] : undefined;
  },
  readHead(text) {
    const doc = parseTomlTable(text);
    if (!doc) return undefined;
    const out = new Map<string, DependencyScope>();
    for (const [table, scope] of Object.entries(TABLES)) {
      const deps = doc[table];
      if (isTomlTable(deps))
        for (const name of Object.keys(deps)) addScope(out, normalizePackageName("pypi", name), scope);
    }
    return out;
  },
  normalizeName: (name) => normalizePackageName("pypi", name),
};
