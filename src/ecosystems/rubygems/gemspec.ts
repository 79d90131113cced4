import { normalizePackageName } from "../../licenses/offline-resolver.js";
import { rubyVersion } from "./gemfile.js";
import { type DependencyScope, type ManifestParser, scopesByLine } from "../common/manifest-parser.js";

/** `spec.add_dependency "rack", ">= 2.2", "< 4"` (any receiver; parentheses optional). */
const ADD_DEPENDENCY =
  /^\s*[A-Za-z_]\w*\.add_(runtime_dependency|development_dependency|dependency)\s*\(?\s*(["'])([A-Za-z0-9][A-Za-z0-9._-]*)\2(.*)$/;
const REQUIREMENT = /(["'])((?:[~<>=!]+\s*)?\d[^"']*)\1/g;

/** Each method's scope: `add_development_dependency` does not ship; the other two do. */
const METHOD_SCOPE: Readonly<Record<string, DependencyScope>> = {
  dependency: "runtime",
  runtime_dependency: "runtime",
  development_dependency: "dev",
};

/**
 * A gem's `*.gemspec`: `add_dependency` and `add_runtime_dependency` ship (runtime),
 * `add_development_dependency` does not (dev). Each line names its own scope, so a hunk needs no
 * context. Version requirements are joined (`>= 2.2, < 4`); a single bare version is exact.
 *
 * @example gemspecParser.parseLine(`  spec.add_development_dependency "rspec", "~> 3.13"`, "(file)") // [{ name: "rspec", version: "~> 3.13", section: "development_dependency" }]
 */
export const gemspecParser: ManifestParser = {
  kind: "gemspec",
  ecosystem: "rubygems",
  matches: (path) => /(?:^|\/)[^/]+\.gemspec$/.test(path),
  sectionAtStart: () => "(file)",
  nextSection: (section) => section,
  parseLine(text) {
    const m = ADD_DEPENDENCY.exec(text.replace(/\s+#.*$/, ""));
    if (!m || m[1] === undefined || m[3] === undefined) return [];
    const requirements = [...(m[4] ?? "").matchAll(REQUIREMENT)].map((r) => (r[2] ?? "").trim());
    const version = rubyVersion(requirements);
    return [{ name: m[3], section: m[1], ...(version !== undefined ? { version } : {}) }];
  },
  scopeOf: (section) =>
    section !== undefined && Object.hasOwn(METHOD_SCOPE, section) ? METHOD_SCOPE[section] : undefined,
  readHead: (text, path) => scopesByLine(gemspecParser, text, path),
  normalizeName: (name) => normalizePackageName("rubygems", name),
};
