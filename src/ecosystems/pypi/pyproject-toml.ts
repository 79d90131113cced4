import { normalizePackageName } from "../../licenses/offline-resolver.js";
import {
  addScope,
  baseName,
  type DependencyScope,
  type ManifestParser,
  sectionAtTop,
} from "../common/manifest-parser.js";
import { parseRequirement, quotedRequirements } from "./pep508.js";
import {
  arrayKeyOf,
  inlineField,
  isTomlTable as isTable,
  keyValue,
  nextTomlSection,
  stringValue,
  tableHeader,
  tableOf,
  parseTomlTable,
} from "../common/toml-sections.js";

/** Extras and groups whose names say "for developers": their dependencies do not ship. */
const DEV_GROUP =
  /^(?:dev|develop|development|test|tests|testing|lint|linting|docs?|typing|types|mypy|ci|style|format|coverage)$/i;
/** Array keys of pyproject.toml that hold strings but never dependencies. */
const NOT_DEPENDENCY_ARRAYS = new Set([
  "requires",
  "classifiers",
  "keywords",
  "authors",
  "maintainers",
  "dynamic",
  "packages",
  "include",
  "exclude",
  "license-files",
  "select",
  "ignore",
  "extend-select",
  "testpaths",
  "addopts",
]);
/** `key = "value"` keys of metadata tables that look like a version but are not dependencies. */
const NOT_DEPENDENCY_KEYS = new Set(["python", "version", "requires-python", "name", "target-version", "minversion"]);
const POETRY_GROUP = /^tool\.poetry\.group\.([^.]+)\.dependencies$/;
const VERSION_LIKE = /^[\^~=<>!*\d]/;
const LIST_ITEM = /^\s*["'][^"']+["']\s*,?\s*(?:#.*)?$/;

function arrayScope(table: string | undefined, key: string): DependencyScope | "not-deps" | undefined {
  if (table === "project") return key === "dependencies" ? "runtime" : "not-deps";
  if (table === "project.optional-dependencies") return DEV_GROUP.test(key) ? "dev" : "runtime";
  if (table === "dependency-groups") return "dev";
  if (table === undefined) {
    if (key === "dependencies") return "runtime";
    return NOT_DEPENDENCY_ARRAYS.has(key) ? "not-deps" : undefined;
  }
  return "not-deps";
}

function poetryScope(table: string | undefined): DependencyScope | undefined {
  if (table === "tool.poetry.dependencies") return "runtime";
  if (table === "tool.poetry.dev-dependencies") return "dev";
  const group = table === undefined ? null : POETRY_GROUP.exec(table);
  if (group) return group[1] === "main" ? "runtime" : "dev";
  return undefined;
}

/** `name = "^1.2"` or `name = { version = "^1.2", extras = [...] }`; local paths are not registry packages. */
function poetryEntry(text: string, strict: boolean): { name: string; version?: string }[] {
  const kv = keyValue(text);
  if (!kv || NOT_DEPENDENCY_KEYS.has(kv.key)) return [];
  const plain = stringValue(kv.value);
  if (plain !== undefined) return !strict || VERSION_LIKE.test(plain) ? [{ name: kv.key, version: plain }] : [];
  if (!kv.value.startsWith("{") || /(?:^|[{,\s])path\s*=/.test(kv.value)) return [];
  const version = inlineField(kv.value, "version");
  if (strict && version === undefined) return [];
  return [version === undefined ? { name: kv.key } : { name: kv.key, version }];
}

function addRequirements(out: Map<string, DependencyScope>, list: unknown, scope: DependencyScope): void {
  if (!Array.isArray(list)) return;
  for (const item of list) {
    const dep = typeof item === "string" ? parseRequirement(item) : undefined;
    if (dep) addScope(out, normalizePackageName("pypi", dep.name), scope);
  }
}

function addKeys(out: Map<string, DependencyScope>, table: unknown, scope: DependencyScope): void {
  if (!isTable(table)) return;
  for (const name of Object.keys(table)) {
    if (name !== "python") addScope(out, normalizePackageName("pypi", name), scope);
  }
}

/**
 * pyproject.toml: PEP 621 `[project] dependencies` (runtime) and `[project.optional-dependencies]`
 * (dev when the extra is named like dev/test/lint/docs, else runtime), PEP 735 `[dependency-groups]`
 * (dev), Poetry `[tool.poetry.dependencies]` (runtime), `[tool.poetry.dev-dependencies]` and
 * `[tool.poetry.group.<name>.dependencies]` (dev, except the `main` group).
 *
 * @example pyprojectTomlParser.parseLine(`  "httpx>=0.27",`, "project#dependencies") // [{ name: "httpx", version: ">=0.27" }]
 */
export const pyprojectTomlParser: ManifestParser = {
  kind: "pyproject.toml",
  ecosystem: "pypi",
  matches: (path) => baseName(path) === "pyproject.toml",
  sectionAtStart: sectionAtTop,
  nextSection: nextTomlSection,
  parseLine(text, section) {
    if (tableHeader(text) !== undefined) return [];
    const table = tableOf(section);
    const inArray = arrayKeyOf(section);
    if (inArray !== undefined) {
      return arrayScope(table, inArray) === "not-deps" ? [] : quotedRequirements(text);
    }
    const opens = /^\s*([A-Za-z0-9_-]+)\s*=\s*\[(.*)$/.exec(text);
    if (opens?.[1] !== undefined) {
      const label = `${section ?? "?"}#${opens[1]}`;
      if (arrayScope(table, opens[1]) === "not-deps") return [];
      return quotedRequirements(opens[2] ?? "").map((d) => ({ ...d, section: label }));
    }
    if (poetryScope(table) !== undefined) return poetryEntry(text, false);
    if (section === undefined) return LIST_ITEM.test(text) ? quotedRequirements(text) : poetryEntry(text, true);
    return [];
  },
  scopeOf(section) {
    const key = arrayKeyOf(section);
    if (key === undefined) return poetryScope(tableOf(section));
    const scope = arrayScope(tableOf(section), key);
    return scope === "not-deps" ? undefined : scope;
  },
  readHead(text) {
    const doc = parseTomlTable(text);
    if (!doc) return undefined;
    const out = new Map<string, DependencyScope>();
    const project = doc.project;
    if (isTable(project)) {
      addRequirements(out, project.dependencies, "runtime");
      const extras = project["optional-dependencies"];
      if (isTable(extras)) {
        for (const [extra, list] of Object.entries(extras)) {
          addRequirements(out, list, DEV_GROUP.test(extra) ? "dev" : "runtime");
        }
      }
    }
    const groups = doc["dependency-groups"];
    if (isTable(groups)) for (const list of Object.values(groups)) addRequirements(out, list, "dev");
    const tool = doc.tool;
    const poetry = isTable(tool) ? tool.poetry : undefined;
    if (isTable(poetry)) {
      addKeys(out, poetry.dependencies, "runtime");
      addKeys(out, poetry["dev-dependencies"], "dev");
      const poetryGroups = poetry.group;
      if (isTable(poetryGroups)) {
        for (const [name, group] of Object.entries(poetryGroups)) {
          if (isTable(group)) addKeys(out, group.dependencies, name === "main" ? "runtime" : "dev");
        }
      }
    }
    return out;
  },
  normalizeName: (name) => normalizePackageName("pypi", name),
};
