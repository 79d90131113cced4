import { jsonSectionsParser } from "../common/json-sections.js";
import { baseName, type DependencyScope, type ManifestParser } from "../common/manifest-parser.js";

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

/**
 * package.json: `dependencies`, `peerDependencies`, `optionalDependencies` (runtime) and
 * `devDependencies` (dev). In a hunk whose section is not visible, an entry counts only when its
 * value reads as a version (so `"build": "tsc"` in scripts is not a dependency).
 *
 * @example packageJsonParser.parseLine(`    "left-pad": "^1.3.0",`, "dependencies") // [{ name: "left-pad", version: "^1.3.0" }]
 */
export const packageJsonParser: ManifestParser = jsonSectionsParser({
  kind: "package.json",
  ecosystem: "npm",
  matches: (path) => baseName(path) === "package.json" && !path.split("/").includes("node_modules"),
  sections: DEPENDENCY_SECTIONS,
  entry(key, value) {
    const alias = NPM_ALIAS.exec(value);
    // `"charts": "npm:gpl-chart-lib@^2"` installs gpl-chart-lib: its licence is the one that counts.
    const dep = alias?.[1] !== undefined ? { name: alias[1], version: alias[2] ?? "" } : { name: key, version: value };
    return LOCAL.test(dep.version) ? undefined : dep; // the repository's own packages, not a registry's
  },
  looseEntry: (dep) => VERSION_LIKE.test(dep.version ?? "") && !NOT_DEPENDENCIES.has(dep.name),
});
