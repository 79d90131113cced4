import { normalizePackageName } from "../../licenses/offline-resolver.js";
import {
  baseName,
  type DeclaredDependency,
  type ManifestParser,
  scopesByLine,
  sectionAtTop,
} from "../common/manifest-parser.js";

/** Bundler groups whose gems do not ship (`bundle install --without development test`). */
const DEV_GROUPS = new Set(["development", "dev", "test", "ci"]);

/** `gem "name"` or `gem("name"`, then the rest of the arguments. */
const GEM = /^\s*gem\s*\(?\s*(["'])([A-Za-z0-9][A-Za-z0-9._-]*)\1\s*(.*)$/;
/** A version requirement among the arguments: `"~> 7.1"`, `">= 1.2", "< 2"`, `"1.4.0"`. */
const REQUIREMENT = /^\s*,\s*(["'])((?:[~<>=!]+\s*)?\d[^"']*)\1/;
/** `group: :test`, `groups: [:development, :test]`, `:group => "test"`. */
const GROUP_OPTION = /(?:\bgroups?:|:groups?\s*=>)\s*(\[[^\]]*\]|:?["']?\w+["']?)/;
/** A gem from this repository (`path:`): not a registry's. */
const LOCAL_OPTION = /(?:\bpath:|:path\s*=>)/;
/** `group :development, :test do` (also with parentheses and `|x|`). */
const GROUP_BLOCK = /^\s*group\s*\(?\s*([^)]*?)\)?\s+do\s*(?:\|[^|]*\|)?\s*(?:#.*)?$/;
/** Any other line that opens a block Bundler reads (`source ... do`, `platforms :jruby do`, `if ...`). */
const OTHER_BLOCK = /(?:\bdo\s*(?:\|[^|]*\|)?\s*(?:#.*)?$)|^\s*(?:if|unless|case|begin|while|until)\b/;
const BLOCK_END = /^\s*end\b/;

/** The group names a Ruby list of symbols or strings spells: `:development, "test"`. */
function groupNames(text: string): string[] {
  return [...text.matchAll(/:?["']?([A-Za-z_]\w*)["']?/g)].map((m) => (m[1] ?? "").toLowerCase());
}

/** A section label is the stack of open blocks: `(top)`, `(top)>group:development,test`, `(top)>block`. */
function innermostGroups(section: string | undefined): string[] | undefined {
  if (section === undefined) return undefined;
  const groups = section
    .split(">")
    .filter((b) => b.startsWith("group:"))
    .at(-1);
  return groups === undefined ? [] : groups.slice("group:".length).split(",");
}

function allDev(groups: readonly string[]): boolean {
  return groups.length > 0 && groups.every((g) => DEV_GROUPS.has(g));
}

/**
 * A gem's version requirements as one string: a single bare `1.4.0` or `= 1.4.0` is the exact
 * version, several are joined (`~> 7.1, >= 7.1.3`), none is undefined.
 *
 * @example rubyVersion(["= 1.4.0"]) // "1.4.0"
 */
export function rubyVersion(requirements: readonly string[]): string | undefined {
  const exact = requirements.length === 1 ? /^=?\s*(\d[\w.]*)$/.exec(requirements[0] ?? "")?.[1] : undefined;
  return exact ?? (requirements.length > 0 ? requirements.join(", ") : undefined);
}

/**
 * One `gem` line: its name, its version requirements joined (`~> 7.1, >= 7.1.3`; a bare `1.4.0` or
 * `= 1.4.0` is the exact version), and its own `group:` option as a section label.
 *
 * @example gemLine(`gem "rspec-rails", "~> 6.1", group: :test`) // { name: "rspec-rails", version: "~> 6.1", section: "(gem)>group:test" }
 */
export function gemLine(text: string): DeclaredDependency | undefined {
  const m = GEM.exec(text.replace(/\s+#.*$/, ""));
  if (!m || m[2] === undefined) return undefined;
  let rest = m[3] ?? "";
  if (LOCAL_OPTION.test(rest)) return undefined;
  const requirements: string[] = [];
  for (let r = REQUIREMENT.exec(rest); r; r = REQUIREMENT.exec(rest)) {
    requirements.push((r[2] ?? "").trim());
    rest = rest.slice(r[0].length);
  }
  const version = rubyVersion(requirements);
  const group = GROUP_OPTION.exec(rest);
  return {
    name: m[2],
    ...(version !== undefined ? { version } : {}),
    ...(group?.[1] !== undefined ? { section: `(gem)>group:${groupNames(group[1]).join(",")}` } : {}),
  };
}

/**
 * Bundler's `Gemfile`: `gem` lines ship (runtime) unless their groups, from a `group: :test`
 * option or an enclosing `group :development, :test do ... end` block, are all development ones
 * (development, dev, test, ci). A gem with `path:` is this repository's. In a hunk whose enclosing
 * blocks are not visible, a gem is runtime (fail closed) unless the head file says otherwise.
 *
 * @example gemfileParser.parseLine(`  gem "rspec-rails", "~> 6.1"`, "(top)>group:development,test") // [{ name: "rspec-rails", version: "~> 6.1" }]
 */
export const gemfileParser: ManifestParser = {
  kind: "Gemfile",
  ecosystem: "rubygems",
  matches: (path) => baseName(path) === "Gemfile",
  sectionAtStart: sectionAtTop,
  nextSection(section, text) {
    const line = text.replace(/\s+#.*$/, "");
    if (BLOCK_END.test(line)) {
      if (section === undefined) return undefined;
      const blocks = section.split(">");
      return blocks.length > 1 ? blocks.slice(0, -1).join(">") : section;
    }
    const group = GROUP_BLOCK.exec(line);
    if (group?.[1] !== undefined) return `${section ?? "?"}>group:${groupNames(group[1]).join(",")}`;
    if (OTHER_BLOCK.test(line) && !GEM.test(line)) return `${section ?? "?"}>block`;
    return section;
  },
  parseLine(text) {
    const dep = gemLine(text);
    return dep ? [dep] : [];
  },
  scopeOf(section) {
    const groups = innermostGroups(section);
    if (groups === undefined) return undefined;
    // A hunk that does not show its enclosing block starts at "?": runtime unless a group is visible.
    return allDev(groups) ? "dev" : "runtime";
  },
  readHead: (text, path) => scopesByLine(gemfileParser, text, path),
  normalizeName: (name) => normalizePackageName("rubygems", name),
};
