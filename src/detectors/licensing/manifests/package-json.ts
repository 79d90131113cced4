import { addScope, baseName, type DependencyScope, type ManifestParser } from "./manifest-parser.js";

/** The package.json objects that declare dependencies, and whether each ships at runtime. */
const DEPENDENCY_SECTIONS: Readonly<Record<string, DependencyScope>> = {
  dependencies: "runtime",
  peerDependencies: "runtime",
  optionalDependencies: "runtime",
  devDependencies: "dev",
};

/** Top-level and `engines` keys that look like `"key": "1.2.3"` but are not dependencies. */
const NOT_DEPENDENCIES = new Set([
  "name",
  "version",
  "description",
  "license",
  "main",
  "module",
  "types",
  "typings",
  "type",
  "private",
  "packageManager",
  "homepage",
  "node",
  "npm",
  "pnpm",
  "yarn",
  "bun",
]);

/** A value that reads as an npm version, range, tag, alias or source; not a script or a path. */
const VERSION_LIKE = /^(?:[~^<>=]|v?\d|\*$|x$|latest$|next$|npm:|git\+|git:|github:|https?:)/;

/** References to packages inside this repository (workspaces, paths). */
const LOCAL = /^(?:workspace:|file:|link:|portal:)/;

/** `npm:<package>@<range>`, an alias that installs another package under this name. */
const NPM_ALIAS = /^npm:((?:@[^/@]+\/)?[^/@]+)(?:@(.*))?$/;

const ENTRY = /^\s*"([^"]+)"\s*:\s*"([^"]*)"\s*,?\s*$/;
const OPENS_OBJECT = /^\s*"([^"]+)"\s*:\s*\{\s*$/;
const CLOSES_OBJECT = /^\s*\}\s*,?\s*$/;

/**
 * package.json: `dependencies`, `peerDependencies`, `optionalDependencies` (runtime) and
 * `devDependencies` (dev). In a hunk whose section is not visible, an entry counts only when its
 * value reads as a version (so `"build": "tsc"` in scripts is not a dependency).
 *
 * @example packageJsonParser.parseLine(`    "left-pad": "^1.3.0",`, "dependencies") // [{ name: "left-pad", version: "^1.3.0" }]
 */
export const packageJsonParser: ManifestParser = {
  kind: "package.json",
  ecosystem: "npm",
  matches: (path) => baseName(path) === "package.json" && !path.split("/").includes("node_modules"),
  sectionAtStart: (start) => (start <= 1 ? "(top)" : undefined),
  nextSection(section, text) {
    const opens = OPENS_OBJECT.exec(text);
    if (opens) return opens[1];
    if (CLOSES_OBJECT.test(text)) return "(top)";
    return section;
  },
  parseLine(text, section) {
    const m = ENTRY.exec(text);
    if (!m || m[1] === undefined || m[2] === undefined) return [];
    const alias = NPM_ALIAS.exec(m[2]);
    // `"charts": "npm:gpl-chart-lib@^2"` installs gpl-chart-lib: its licence is the one that counts.
    const dep = alias?.[1] !== undefined ? { name: alias[1], version: alias[2] ?? "" } : { name: m[1], version: m[2] };
    if (LOCAL.test(dep.version)) return []; // the repository's own packages, not a registry's
    if (section === undefined) {
      return VERSION_LIKE.test(dep.version) && !NOT_DEPENDENCIES.has(dep.name) ? [dep] : [];
    }
    return Object.hasOwn(DEPENDENCY_SECTIONS, section) ? [dep] : [];
  },
  scopeOf: (section) =>
    section !== undefined && Object.hasOwn(DEPENDENCY_SECTIONS, section) ? DEPENDENCY_SECTIONS[section] : undefined,
  readHead(text) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
    const out = new Map<string, DependencyScope>();
    for (const [section, scope] of Object.entries(DEPENDENCY_SECTIONS)) {
      const deps: unknown = (json as Record<string, unknown>)[section];
      if (typeof deps !== "object" || deps === null) continue;
      for (const [name, spec] of Object.entries(deps)) {
        const alias = typeof spec === "string" ? NPM_ALIAS.exec(spec)?.[1] : undefined;
        addScope(out, alias ?? name, scope);
      }
    }
    return out;
  },
  normalizeName: (name) => name,
};
