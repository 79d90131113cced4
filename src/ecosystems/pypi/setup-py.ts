import { normalizePackageName } from "../../licenses/offline-resolver.js";
import {
  baseName,
  type DependencyScope,
  type ManifestParser,
  scopesByLine,
  sectionAtTop,
} from "../common/manifest-parser.js";
import { quotedRequirements } from "./pep508.js";

/** Extras and list names that say "for developers". */
const DEV_NAME =
  /(?:^|[_-])(?:dev|develop|development|test|tests|testing|lint|linting|docs?|typing|mypy|ci|style|coverage)(?:$|[_-])/i;
/** `install_requires=[`, `tests_require = [`, `setup_requires=[`: a keyword argument opening a list. */
const KEYWORD_LIST = /\b(install_requires|tests_require|setup_requires)\s*=\s*\[/;
const EXTRAS_OPEN = /\bextras_require\s*=\s*\{/;
/** `"dev": [` inside `extras_require={...}`. */
const EXTRA_OPEN = /["']([\w.-]+)["']\s*:\s*\[/;
/** `REQUIRES = [`, `install_deps = [`: a module-level list that `install_requires=` may name. */
const NAMED_LIST = /^([A-Za-z_]\w*)\s*=\s*\[/;
const LIST_NAME = /requires|requirements|deps|dependencies/i;
const LIST_ITEM = /^\s*["'][^"']+["']\s*,?\s*(?:#.*)?$/;

/** Bracket balance of a line, strings and comments left out. */
function depth(text: string): number {
  const bare = text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""').replace(/#.*$/, "");
  let d = 0;
  for (const c of bare) {
    if (c === "[" || c === "{" || c === "(") d++;
    else if (c === "]" || c === "}" || c === ")") d--;
  }
  return d;
}

/** The list a line opens, as a section label, and the text after its `[`. */
function opens(text: string, section: string | undefined): { label: string; rest: string } | undefined {
  const kw = KEYWORD_LIST.exec(text);
  if (kw?.[1] !== undefined) return { label: kw[1], rest: text.slice((kw.index ?? 0) + kw[0].length) };
  if (section === "extras_require") {
    const extra = EXTRA_OPEN.exec(text);
    if (extra?.[1] !== undefined)
      return { label: `extras_require#${extra[1]}`, rest: text.slice((extra.index ?? 0) + extra[0].length) };
  }
  const named = NAMED_LIST.exec(text);
  if (named?.[1] !== undefined && LIST_NAME.test(named[1]))
    return { label: `list#${named[1]}`, rest: text.slice(named[0].length) };
  return undefined;
}

function scopeOfLabel(section: string | undefined): DependencyScope | undefined {
  if (section === undefined) return undefined;
  if (section === "install_requires") return "runtime";
  if (section === "tests_require" || section === "setup_requires") return "dev";
  const [kind, name] = section.split("#");
  if ((kind === "extras_require" || kind === "list") && name !== undefined)
    return DEV_NAME.test(name) ? "dev" : "runtime";
  return undefined;
}

function next(section: string | undefined, text: string): string | undefined {
  const d = depth(text);
  const open = opens(text, section);
  if (open && d > 0) return open.label;
  if (section?.startsWith("extras_require#") && d < 0) return "extras_require";
  if (section === "extras_require" && d < 0) return "(top)";
  if (section !== undefined && scopeOfLabel(section) !== undefined && d < 0) return "(top)";
  if (EXTRAS_OPEN.test(text) && d > 0) return "extras_require";
  return section;
}

/**
 * setup.py (setuptools), read as text: the lists of `install_requires=[...]` (runtime),
 * `tests_require` and `setup_requires` (dev), `extras_require={"dev": [...]}` (dev when the extra
 * is named like dev/test/lint/docs, else runtime), and module-level lists such as
 * `REQUIREMENTS = [...]` that `install_requires=` usually names (dev when the name says so).
 *
 * @example setupPyParser.parseLine(`        "requests>=2.31",`, "install_requires") // [{ name: "requests", version: ">=2.31" }]
 */
export const setupPyParser: ManifestParser = {
  kind: "setup.py",
  ecosystem: "pypi",
  matches: (path) => baseName(path) === "setup.py",
  sectionAtStart: sectionAtTop,
  nextSection: next,
  parseLine(text, section) {
    const open = opens(text, section);
    if (open) return quotedRequirements(open.rest.replace(/\].*$/, "")).map((d) => ({ ...d, section: open.label }));
    if (scopeOfLabel(section) !== undefined) return quotedRequirements(text.replace(/#.*$/, ""));
    if (section === undefined && LIST_ITEM.test(text)) return quotedRequirements(text); // fail closed: runtime
    return [];
  },
  scopeOf: (section) => scopeOfLabel(section),
  readHead: (text, path) => scopesByLine(setupPyParser, text, path),
  normalizeName: (name) => normalizePackageName("pypi", name),
};
