import { normalizePackageName } from "../../licenses/offline-resolver.js";
import {
  baseName,
  type DependencyScope,
  type ManifestParser,
  scopesByLine,
  sectionAtTop,
} from "../common/manifest-parser.js";
import { parseRequirement } from "./pep508.js";

/** Extras whose names say "for developers": their dependencies do not ship. */
const DEV_EXTRA =
  /^(?:dev|develop|development|test|tests|testing|lint|linting|docs?|typing|types|mypy|ci|style|format|coverage)$/i;
const HEADER = /^\s*\[([^\]]+)\]\s*$/;
/** `key =` or `key = value` at the start of a line (not a continuation). */
const KEY = /^([A-Za-z0-9_.-]+)\s*[=:]\s*(.*)$/;

/** The scope of a `<table>#<key>` label, or undefined when the key holds no dependencies. */
function scopeOfLabel(section: string | undefined): DependencyScope | undefined {
  if (section === undefined) return undefined;
  const [table, key] = section.split("#");
  if (table === "options") {
    if (key === "install_requires") return "runtime";
    if (key === "tests_require" || key === "setup_requires") return "dev";
    return undefined;
  }
  if (table === "options.extras_require" && key !== undefined) return DEV_EXTRA.test(key) ? "dev" : "runtime";
  return undefined;
}

function requirement(text: string): { name: string; version?: string }[] {
  const line = text.trim();
  if (line === "" || line.startsWith("#") || line.startsWith(";")) return [];
  const dep = parseRequirement(line);
  return dep ? [dep] : [];
}

function next(section: string | undefined, text: string): string | undefined {
  const header = HEADER.exec(text);
  if (header?.[1] !== undefined) return header[1].trim();
  if (/^\s/.test(text) || text.trim() === "" || /^[#;]/.test(text)) return section; // continuation, blank, comment
  const key = KEY.exec(text);
  const table = section?.split("#")[0];
  if (key?.[1] !== undefined && table !== undefined) return `${table}#${key[1]}`;
  return table;
}

/**
 * setup.cfg (setuptools): `[options] install_requires` ships (runtime); `tests_require` and
 * `setup_requires` do not (dev); `[options.extras_require]` extras are dev when named like
 * dev/test/lint/docs, else runtime. Values continue on indented lines.
 *
 * @example setupCfgParser.parseLine("    requests>=2.31", "options#install_requires") // [{ name: "requests", version: ">=2.31" }]
 */
export const setupCfgParser: ManifestParser = {
  kind: "setup.cfg",
  ecosystem: "pypi",
  matches: (path) => baseName(path) === "setup.cfg",
  sectionAtStart: sectionAtTop,
  nextSection: next,
  parseLine(text, section) {
    if (HEADER.test(text)) return [];
    if (!/^\s/.test(text)) {
      const key = KEY.exec(text);
      const table = section?.split("#")[0];
      if (key?.[1] === undefined || table === undefined) return [];
      const label = `${table}#${key[1]}`;
      return scopeOfLabel(label) ? requirement(key[2] ?? "").map((d) => ({ ...d, section: label })) : [];
    }
    if (section === undefined) {
      // A hunk that does not show its key: count a pinned requirement (fail closed), not a bare word.
      return requirement(text).filter((d) => d.version !== undefined);
    }
    return scopeOfLabel(section) ? requirement(text) : [];
  },
  scopeOf: (section) => scopeOfLabel(section),
  readHead: (text, path) => scopesByLine(setupCfgParser, text, path),
  normalizeName: (name) => normalizePackageName("pypi", name),
};
