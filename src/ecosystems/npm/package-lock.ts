import { baseName } from "../common/manifest-parser.js";
import type { DependencyScope } from "../common/manifest-parser.js";
import {
  parsedHead,
  addedLineNumbers,
  isAdded,
  jsonKeyLines,
  reachedFrom,
  viaAndScope,
  type PinnedDependency,
  type VersionReader,
  isObj,
  type Obj,
} from "../common/pinned-dependency.js";

const names = (v: unknown): string[] => (isObj(v) ? Object.keys(v) : []);

/** npm's lockfiles, nearest first when both lie beside a package.json (npm prefers the shrinkwrap). */
export const NPM_LOCKFILES = ["npm-shrinkwrap.json", "package-lock.json"] as const;

/**
 * The version a parsed npm lockfile pins for a direct dependency `name` of its root project:
 * v2/v3 `packages["node_modules/<name>"]`, else v1 `dependencies[name]`; undefined when it pins
 * none (a range, a link, a file: or git: source, or not a lockfile).
 *
 * @example lockedVersion({ packages: { "node_modules/a": { version: "1.2.0" } } }, "a") // "1.2.0"
 */
export function lockedVersion(lock: unknown, name: string): string | undefined {
  if (!isObj(lock)) return undefined;
  const entry = isObj(lock.packages)
    ? lock.packages[`node_modules/${name}`]
    : isObj(lock.dependencies)
      ? lock.dependencies[name]
      : undefined;
  return isObj(entry) && typeof entry.version === "string" && /^\d/.test(entry.version) ? entry.version : undefined;
}

interface LockEntry {
  name: string;
  version: string;
  /** Key path in the file (for its line), e.g. `packages/node_modules/a/node_modules/b`. */
  keyPath: string;
  /** The top-level package it is nested under, if any (`node_modules/a/node_modules/b` → a). */
  nestedUnder?: string;
  dev: boolean;
  dependencies: string[];
}

/** v2 and v3: the flat `packages` map, keyed by install path. */
function packagesEntries(lock: Obj): LockEntry[] {
  const out: LockEntry[] = [];
  for (const [path, value] of Object.entries(isObj(lock.packages) ? lock.packages : {})) {
    if (!isObj(value) || value.link === true || typeof value.version !== "string") continue;
    const at = path.lastIndexOf("node_modules/");
    if (at < 0) continue; // the root project, or a workspace folder
    const name = typeof value.name === "string" ? value.name : path.slice(at + "node_modules/".length);
    const top = /^node_modules\/((?:@[^/]+\/)?[^/]+)\/node_modules\//.exec(path)?.[1];
    out.push({
      name,
      version: value.version,
      keyPath: `packages/${path}`,
      ...(top !== undefined ? { nestedUnder: top } : {}),
      dev: value.dev === true,
      dependencies: [
        ...names(value.dependencies),
        ...names(value.optionalDependencies),
        ...names(value.peerDependencies),
      ],
    });
  }
  return out;
}

/** v1: the nested `dependencies` tree. */
function v1Entries(deps: unknown, keyPath: string, top: string | undefined, out: LockEntry[] = []): LockEntry[] {
  for (const [name, value] of Object.entries(isObj(deps) ? deps : {})) {
    if (!isObj(value) || typeof value.version !== "string") continue;
    const path = `${keyPath}/${name}`;
    if (!/^(?:file|link|git|github):/.test(value.version)) {
      out.push({
        name,
        version: value.version,
        keyPath: path,
        ...(top !== undefined ? { nestedUnder: top } : {}),
        dev: value.dev === true,
        dependencies: names(value.requires),
      });
    }
    v1Entries(value.dependencies, `${path}/dependencies`, top ?? name, out);
  }
  return out;
}

/** The root project's direct dependencies and their scopes (v2/v3 `packages[""]`, else none). */
function directOf(lock: Obj): Map<string, DependencyScope> {
  const root = isObj(lock.packages) && isObj(lock.packages[""]) ? lock.packages[""] : undefined;
  const out = new Map<string, DependencyScope>();
  for (const n of names(root?.devDependencies)) out.set(n, "dev");
  for (const key of ["dependencies", "optionalDependencies", "peerDependencies"])
    for (const n of names(root?.[key])) out.set(n, "runtime");
  return out;
}

/**
 * `package-lock.json` (lockfile versions 1 to 3) and `npm-shrinkwrap.json`: every package whose
 * resolved version the change adds or changes, transitive ones included, with the direct
 * dependency that brought it in (its nesting, or the dependency graph from the root's own
 * dependencies) and dev when npm marks it so.
 *
 * @example packageLockReader.read(file, headText) // { pinned: [{ name: "minimist", version: "1.2.5", via: "mkdirp", ... }] }
 */
export const packageLockReader: VersionReader = {
  kind: "package-lock.json",
  ecosystem: "npm",
  lockfile: true,
  matches: (path) => (NPM_LOCKFILES as readonly string[]).includes(baseName(path)) && !path.includes("node_modules/"),
  read(file, headText, _manifestText, reading) {
    // Parsed once per review: the licence checks read the same lockfile for its pinned versions.
    const parse = (text: string) => (reading?.json ? reading.json(file.filename, text) : JSON.parse(text));
    const head = parsedHead(file, headText, parse, () => "it is not JSON");
    if ("unread" in head) return head;
    const lock = head.parsed;
    if (!isObj(lock)) return { unread: { file: file.filename, why: "it is not a lockfile" } };
    const entries = isObj(lock.packages)
      ? packagesEntries(lock)
      : v1Entries(lock.dependencies, "dependencies", undefined);
    const lines = jsonKeyLines(head.text);
    const added = addedLineNumbers(file, head.text);
    const direct = directOf(lock);
    const graph = new Map<string, string[]>();
    for (const e of entries) graph.set(e.name, [...(graph.get(e.name) ?? []), ...e.dependencies]);
    const reached = direct.size > 0 ? reachedFrom(graph, [...direct.keys()]) : new Map<string, string[]>();
    const pinned: PinnedDependency[] = [];
    const seen = new Set<string>();
    for (const e of entries) {
      const keyLine = lines.get(e.keyPath);
      const versionLine = lines.get(`${e.keyPath}/version`);
      if (!isAdded(added, keyLine, versionLine) || seen.has(`${e.name}@${e.version}`)) continue;
      seen.add(`${e.name}@${e.version}`);
      const graphed = viaAndScope(e.name, reached, direct);
      const via = e.nestedUnder ?? graphed.via;
      pinned.push({
        ecosystem: "npm",
        name: e.name,
        version: e.version,
        file: file.filename,
        line: versionLine ?? keyLine ?? 1,
        // npm's own dev flag says it for sure; otherwise runtime (fail closed).
        scope: e.dev ? "dev" : "runtime",
        from: "lockfile",
        ...(via !== undefined && via !== e.name ? { via } : {}),
      });
    }
    return { pinned };
  },
};
