import { gemfileParser } from "../../licensing/manifests/gemfile.js";
import { baseName, type DependencyScope, scopesByLine } from "../../licensing/manifests/manifest-parser.js";
import {
  addedLineNumbers,
  isAdded,
  isObj,
  parsedHead,
  reachedFrom,
  thrown,
  viaAndScope,
  type PinnedDependency,
  type VersionReader,
} from "./pinned-dependency.js";

/** One gem of a `GEM` section's `specs:`, with the gems it depends on. */
interface LockedGem {
  name: string;
  version: string;
  line: number;
  dependencies: string[];
}

/**
 * The gems a Gemfile.lock resolves (`    name (1.2.3)` under a `GEM` section's `specs:`, a platform
 * suffix `-x86_64-linux` dropped) and the direct ones its `DEPENDENCIES` names.
 */
function lockedGems(text: string): { gems: LockedGem[]; direct: string[] } {
  const gems: LockedGem[] = [];
  const direct: string[] = [];
  let section = "";
  let inSpecs = false;
  for (const [i, raw] of text.split("\n").entries()) {
    if (/^[A-Z]/.test(raw)) {
      section = raw.trim();
      inSpecs = false;
      continue;
    }
    if (section === "GEM" && /^ {2}specs:\s*$/.test(raw)) inSpecs = true;
    else if (section === "GEM" && inSpecs) {
      const spec = /^ {4}([A-Za-z0-9][\w.-]*) \(([^)]+)\)\s*$/.exec(raw);
      const dep = /^ {6}([A-Za-z0-9][\w.-]*)(?: |$)/.exec(raw);
      if (spec?.[1] && spec[2]) {
        const version = spec[2].replace(/-(?:x86|x64|arm|aarch|universal|java|mingw|mswin|darwin|linux)[\w-]*$/, "");
        gems.push({ name: spec[1], version, line: i + 1, dependencies: [] });
      } else if (dep?.[1]) gems.at(-1)?.dependencies.push(dep[1]);
    } else if (section === "DEPENDENCIES") {
      const name = /^ {2}([A-Za-z0-9][\w.-]*)/.exec(raw)?.[1];
      if (name) direct.push(name);
    }
  }
  return { gems, direct };
}

/**
 * `Gemfile.lock`: every gem the change adds or moves, at the version Bundler resolved, transitive
 * ones with the direct gem that brought them in. A direct gem's scope is its `Gemfile` group
 * (development and test groups are development); a transitive one is development only when only
 * development gems reach it.
 *
 * @example gemfileLockReader.read(file, headText, gemfileText) // { pinned: [{ name: "rack", version: "2.2.4", via: "rails", ... }] }
 */
export const gemfileLockReader: VersionReader = {
  kind: "Gemfile.lock",
  ecosystem: "rubygems",
  lockfile: true,
  manifest: "Gemfile",
  matches: (path) => baseName(path) === "Gemfile.lock",
  read(file, headText, gemfile) {
    if (headText === undefined) return { unread: { file: file.filename, why: "its head version could not be read" } };
    const { gems, direct } = lockedGems(headText);
    const declared =
      gemfile === undefined ? new Map<string, DependencyScope>() : scopesByLine(gemfileParser, gemfile, "Gemfile");
    const directScope = new Map<string, DependencyScope>(direct.map((d) => [d, declared.get(d) ?? "runtime"]));
    const reached = reachedFrom(new Map(gems.map((g) => [g.name, g.dependencies])), direct);
    const added = addedLineNumbers(file, headText);
    const pinned: PinnedDependency[] = [];
    for (const g of gems) {
      if (!isAdded(added, g.line)) continue;
      const { via, scope } = viaAndScope(g.name, reached, directScope);
      pinned.push({
        ecosystem: "rubygems",
        name: g.name,
        version: g.version,
        file: file.filename,
        line: g.line,
        scope: scope ?? "runtime",
        from: "lockfile",
        ...(via !== undefined ? { via } : {}),
      });
    }
    return { pinned };
  },
};

/** The line of each `"name": "vendor/package"` in a composer.lock, in file order, with the version line after it. */
function composerLines(text: string): Map<string, { name: number; version?: number }> {
  const out = new Map<string, { name: number; version?: number }>();
  let current: string | undefined;
  for (const [i, raw] of text.split("\n").entries()) {
    const name = /^\s*"name":\s*"([^"]+)"/.exec(raw)?.[1];
    if (name) {
      current = name;
      if (!out.has(name)) out.set(name, { name: i + 1 });
      continue;
    }
    const entry = current ? out.get(current) : undefined;
    if (entry && entry.version === undefined && /^\s*"version":/.test(raw)) entry.version = i + 1;
  }
  return out;
}

/**
 * `composer.lock`: every package the change adds or moves, at its locked version; `packages` are
 * runtime and `packages-dev` development, as Composer installs them (`--no-dev`). A leading `v`
 * of the version is dropped (Packagist's advisories name versions without it).
 *
 * @example composerLockReader.read(file, headText) // { pinned: [{ name: "guzzlehttp/psr7", version: "1.8.2", scope: "runtime", ... }] }
 */
export const composerLockReader: VersionReader = {
  kind: "composer.lock",
  ecosystem: "composer",
  lockfile: true,
  matches: (path) => baseName(path) === "composer.lock",
  read(file, headText) {
    const head = parsedHead(file, headText, JSON.parse, (e) => `it is not JSON: ${thrown(e)}`);
    if ("unread" in head) return head;
    const doc = head.parsed;
    if (!isObj(doc)) return { unread: { file: file.filename, why: "it is not a JSON object" } };
    const lines = composerLines(head.text);
    const added = addedLineNumbers(file, head.text);
    const pinned: PinnedDependency[] = [];
    for (const [key, scope] of [
      ["packages", "runtime"],
      ["packages-dev", "dev"],
    ] as const) {
      for (const p of Array.isArray(doc[key]) ? doc[key] : []) {
        if (!isObj(p) || typeof p.name !== "string" || typeof p.version !== "string") continue;
        if (/^dev-|\.x-dev$/.test(p.version)) continue; // a branch, not a release: no advisory names it
        const at = lines.get(p.name);
        if (!at || !isAdded(added, at.name, at.version)) continue;
        pinned.push({
          ecosystem: "composer",
          name: p.name,
          version: p.version.replace(/^v/, ""),
          file: file.filename,
          line: at.version ?? at.name,
          scope: scope as DependencyScope,
          from: "lockfile",
        });
      }
    }
    return { pinned };
  },
};
