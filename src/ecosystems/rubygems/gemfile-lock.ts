import { gemfileParser } from "./gemfile.js";
import { baseName, type DependencyScope, scopesByLine } from "../common/manifest-parser.js";
import {
  addedLineNumbers,
  isAdded,
  reachedFrom,
  viaAndScope,
  type PinnedDependency,
  type VersionReader,
} from "../common/pinned-dependency.js";

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
