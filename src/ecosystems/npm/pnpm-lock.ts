import YAML from "yaml";
import type { DependencyScope } from "../common/manifest-parser.js";
import { baseName } from "../common/manifest-parser.js";
import {
  parsedHead,
  thrown,
  addedLineNumbers,
  isAdded,
  reachedFrom,
  viaAndScope,
  type PinnedDependency,
  type VersionReader,
  isObj,
  type Obj,
} from "../common/pinned-dependency.js";

/**
 * A `packages:` key as pnpm writes it, to name and version: `/lodash@4.17.20` (v6),
 * `lodash@4.17.20` (v9), `/lodash/4.17.20` (v5), with any peer suffix (`(react@18.2.0)`, `_react@18`) dropped.
 *
 * @example pnpmKey("/@babel/core@7.24.0(supports-color@8.1.1)") // { name: "@babel/core", version: "7.24.0" }
 */
export function pnpmKey(key: string): { name: string; version: string } | undefined {
  const k = key.replace(/^\//, "").replace(/\(.*$/, "");
  const at = k.lastIndexOf("@");
  if (at > 0) {
    const version = k.slice(at + 1).replace(/_.*$/, "");
    return /^\d/.test(version) ? { name: k.slice(0, at), version } : undefined;
  }
  const slash = k.lastIndexOf("/");
  if (slash <= 0) return undefined;
  const version = k.slice(slash + 1).replace(/_.*$/, "");
  return /^\d/.test(version) ? { name: k.slice(0, slash), version } : undefined;
}

/** The line of each key directly under `packages:` (two spaces in), by the key as written. */
function packageKeyLines(text: string): Map<string, number> {
  const out = new Map<string, number>();
  let inPackages = false;
  for (const [i, raw] of text.split("\n").entries()) {
    if (/^\S/.test(raw)) inPackages = raw.startsWith("packages:");
    const key = inPackages ? /^ {2}(['"]?)(\S.*?)\1:\s*$/.exec(raw) : null;
    if (key?.[2] !== undefined) out.set(key[2], i + 1);
  }
  return out;
}

/** The importers' direct dependencies (every workspace project), with their scope. */
function directOf(lock: Obj): Map<string, DependencyScope> {
  const importers = isObj(lock.importers) ? Object.values(lock.importers) : [lock];
  const out = new Map<string, DependencyScope>();
  for (const imp of importers.filter(isObj)) {
    for (const n of Object.keys(isObj(imp.devDependencies) ? imp.devDependencies : {}))
      if (!out.has(n)) out.set(n, "dev");
    for (const key of ["dependencies", "optionalDependencies"]) {
      for (const n of Object.keys(isObj(imp[key]) ? (imp[key] as Obj) : {})) out.set(n, "runtime");
    }
  }
  return out;
}

/**
 * `pnpm-lock.yaml` (lockfile versions 5 to 9), read with `yaml`: every package whose key the
 * change adds (a new version is a new key), with the direct dependency of an importer that brought
 * it in, and dev where pnpm marks it (v6 `dev: true`) or only dev dependencies reach it.
 *
 * @example pnpmLockReader.read(file, headText) // { pinned: [{ name: "minimist", version: "1.2.5", via: "mkdirp", ... }] }
 */
export const pnpmLockReader: VersionReader = {
  kind: "pnpm-lock.yaml",
  ecosystem: "npm",
  lockfile: true,
  matches: (path) => baseName(path) === "pnpm-lock.yaml",
  read(file, headText) {
    const head = parsedHead(
      file,
      headText,
      (t) => YAML.parse(t),
      (e) => `it is not YAML: ${thrown(e)}`,
    );
    if ("unread" in head) return head;
    const lock = head.parsed;
    if (!isObj(lock) || !isObj(lock.packages)) return { pinned: [] };
    const graph = new Map<string, string[]>();
    // v9 keeps each package's dependencies in `snapshots`; earlier versions in `packages`.
    for (const section of [lock.packages, lock.snapshots]) {
      for (const [key, value] of Object.entries(isObj(section) ? section : {})) {
        const id = pnpmKey(key);
        if (!id || !isObj(value)) continue;
        const deps = [value.dependencies, value.optionalDependencies].flatMap((d) => (isObj(d) ? Object.keys(d) : []));
        graph.set(id.name, [...(graph.get(id.name) ?? []), ...deps]);
      }
    }
    const direct = directOf(lock);
    const reached = reachedFrom(graph, [...direct.keys()]);
    const lines = packageKeyLines(head.text);
    const added = addedLineNumbers(file, head.text);
    const pinned: PinnedDependency[] = [];
    for (const [key, value] of Object.entries(lock.packages)) {
      const id = pnpmKey(key);
      const line = lines.get(key);
      if (!id || !isAdded(added, line)) continue;
      const graphed = viaAndScope(id.name, reached, direct);
      const dev = isObj(value) && value.dev === true ? "dev" : undefined;
      pinned.push({
        ecosystem: "npm",
        name: id.name,
        version: id.version,
        file: file.filename,
        line: line ?? 1,
        scope: dev ?? graphed.scope ?? "runtime",
        from: "lockfile",
        ...(graphed.via !== undefined ? { via: graphed.via } : {}),
      });
    }
    return { pinned };
  },
};
