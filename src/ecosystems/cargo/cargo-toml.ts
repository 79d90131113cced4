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
  stringValue,
  tableHeader,
  tableOf,
  parseTomlTable,
} from "../common/toml-sections.js";

/** `[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`, their `target.<cfg>.` forms, `[workspace.dependencies]`. */
const DEPENDENCY_TABLE = /^(?:target\..+\.|workspace\.)?(dependencies|dev[-_]dependencies|build[-_]dependencies)$/;
/** `[dependencies.serde]`: one dependency as a table of its own. */
const DEPENDENCY_SUBTABLE =
  /^(?:target\..+\.|workspace\.)?(dependencies|dev[-_]dependencies|build[-_]dependencies)\.([^.]+)$/;
/** `[package]` keys that look like versions but are not dependencies. */
const NOT_DEPENDENCY_KEYS = new Set(["version", "edition", "rust-version", "name", "resolver"]);
const VERSION_LIKE = /^[\^~=<>*\d]/;

function kindScope(kind: string | undefined): DependencyScope | undefined {
  if (kind === undefined) return undefined;
  // Build dependencies run at build time only, but nothing marks them dev: fail closed, runtime.
  return kind.startsWith("dev") ? "dev" : "runtime";
}

/** `serde = "1"`, `serde = { version = "1" }`, `json = { package = "serde_json", version = "1" }`, `serde.workspace = true`. */
function entry(text: string, strict: boolean): { name: string; version?: string }[] {
  const kv = keyValue(text);
  if (!kv || NOT_DEPENDENCY_KEYS.has(kv.key)) return [];
  if (kv.key.endsWith(".workspace")) return strict ? [] : [{ name: kv.key.slice(0, -".workspace".length) }];
  const plain = stringValue(kv.value);
  if (plain !== undefined) return !strict || VERSION_LIKE.test(plain) ? [{ name: kv.key, version: plain }] : [];
  if (!kv.value.startsWith("{")) return [];
  const version = inlineField(kv.value, "version");
  if (version === undefined && /(?:^|[{,\s])path\s*=/.test(kv.value)) return []; // a crate of this repository
  if (strict && version === undefined) return [];
  const name = inlineField(kv.value, "package") ?? kv.key;
  return [version === undefined ? { name } : { name, version }];
}

function addTable(out: Map<string, DependencyScope>, table: unknown, scope: DependencyScope): void {
  if (!isTomlTable(table)) return;
  for (const [key, spec] of Object.entries(table)) {
    const renamed = isTomlTable(spec) && typeof spec.package === "string" ? spec.package : key;
    addScope(out, normalizePackageName("cargo", renamed), scope);
  }
}

function addDependencyTables(out: Map<string, DependencyScope>, holder: unknown): void {
  if (!isTomlTable(holder)) return;
  for (const [key, table] of Object.entries(holder)) {
    const m = DEPENDENCY_TABLE.exec(key);
    const scope = kindScope(m?.[1]);
    if (scope) addTable(out, table, scope);
  }
}

/**
 * Cargo.toml: `[dependencies]` and `[build-dependencies]` (runtime), `[dev-dependencies]` (dev),
 * including `target.<cfg>.` tables, `[dependencies.<crate>]` sub-tables and `package =` renames.
 *
 * @example cargoTomlParser.parseLine(`serde = { version = "1.0", features = ["derive"] }`, "dependencies") // [{ name: "serde", version: "1.0" }]
 */
export const cargoTomlParser: ManifestParser = {
  kind: "Cargo.toml",
  ecosystem: "cargo",
  matches: (path) => baseName(path) === "Cargo.toml",
  sectionAtStart: sectionAtTop,
  nextSection: nextTomlSection,
  parseLine(text, section) {
    const header = tableHeader(text);
    if (header !== undefined) {
      const sub = DEPENDENCY_SUBTABLE.exec(header);
      return sub?.[2] !== undefined ? [{ name: sub[2], section: header }] : [];
    }
    const table = tableOf(section);
    if (table === undefined) return section === undefined ? entry(text, true) : [];
    if (DEPENDENCY_TABLE.test(table)) return entry(text, false);
    const sub = DEPENDENCY_SUBTABLE.exec(table);
    if (sub?.[2] === undefined) return [];
    const kv = keyValue(text);
    const version = kv?.key === "version" ? stringValue(kv.value) : undefined;
    return version === undefined ? [] : [{ name: sub[2], version }];
  },
  scopeOf(section) {
    const table = tableOf(section);
    if (table === undefined) return undefined;
    return kindScope((DEPENDENCY_TABLE.exec(table) ?? DEPENDENCY_SUBTABLE.exec(table))?.[1]);
  },
  readHead(text) {
    const doc = parseTomlTable(text);
    if (!doc) return undefined;
    const out = new Map<string, DependencyScope>();
    addDependencyTables(out, doc);
    addDependencyTables(out, doc.workspace);
    const targets = doc.target;
    if (isTomlTable(targets)) for (const target of Object.values(targets)) addDependencyTables(out, target);
    return out;
  },
  normalizeName: (name) => normalizePackageName("cargo", name),
};
