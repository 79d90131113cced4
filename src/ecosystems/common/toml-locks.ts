import { createRequire } from "node:module";
import type * as SmolToml from "smol-toml";
import type { Ecosystem } from "../../domain/license-resolver.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import { normalizePackageName } from "../../licenses/offline-resolver.js";
import type { DependencyScope } from "./manifest-parser.js";
import { baseName } from "./manifest-parser.js";
import {
  parsedHead,
  thrown,
  addedLineNumbers,
  isAdded,
  reachedFrom,
  viaAndScope,
  type PinnedDependency,
  type VersionReader,
  type VersionsRead,
  isObj,
  type Obj,
} from "./pinned-dependency.js";

let toml: typeof SmolToml | undefined;

/** smol-toml, loaded by the first TOML lockfile a review reads (most reviews read none). */
function parse(text: string): unknown {
  toml ??= createRequire(import.meta.url)("smol-toml") as typeof SmolToml;
  return toml.parse(text);
}

/** The `version = "..."` line of each `[[package]]` block, in file order. */
function versionLines(text: string): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  let inPackage = false;
  for (const [i, raw] of text.split("\n").entries()) {
    if (/^\s*\[\[package\]\]\s*$/.test(raw)) {
      out.push(undefined);
      inPackage = true;
    } else if (/^\s*\[/.test(raw)) {
      inPackage = false;
    } else if (inPackage && out.at(-1) === undefined && /^\s*version\s*=/.test(raw)) {
      out[out.length - 1] = i + 1;
    }
  }
  return out;
}

/** A dependency entry as Cargo (`"name 1.0.0"`, `"name"`) and uv (`{ name = "x" }`) write them. */
function depName(d: unknown): string | undefined {
  if (typeof d === "string") return d.split(" ")[0];
  return isObj(d) && typeof d.name === "string" ? d.name : undefined;
}

export interface TomlLockKind {
  kind: string;
  ecosystem: Ecosystem;
  file: string;
  /** Whether a package comes from the registry (path, git and workspace packages are not asked about). */
  fromRegistry(pkg: Obj): boolean;
  /** Whether a package is a root of the graph (the project itself, a workspace member). */
  isRoot(pkg: Obj): boolean;
  /** The scope the lockfile itself gives, when it gives one (poetry's old `category`). */
  scopeOf?(pkg: Obj): DependencyScope | undefined;
}

function readTomlLock(k: TomlLockKind, file: ChangedFile, headText: string | undefined): VersionsRead {
  const head = parsedHead(file, headText, parse, (e) => `it is not TOML: ${thrown(e)}`);
  if ("unread" in head) return head;
  const doc = head.parsed as Obj;
  const packages = (Array.isArray(doc.package) ? doc.package : []).filter(isObj);
  const lines = versionLines(head.text);
  const added = addedLineNumbers(file, head.text);
  const key = (n: string) => normalizePackageName(k.ecosystem, n);
  const graph = new Map<string, string[]>();
  const roots: string[] = [];
  for (const p of packages) {
    if (typeof p.name !== "string") continue;
    const deps = (Array.isArray(p.dependencies) ? p.dependencies : []).map(depName).filter((n): n is string => !!n);
    graph.set(key(p.name), [...(graph.get(key(p.name)) ?? []), ...deps.map(key)]);
    if (k.isRoot(p)) roots.push(key(p.name));
  }
  // The roots' own dependencies are the direct ones.
  const direct = new Map<string, DependencyScope>();
  for (const r of roots) for (const d of graph.get(r) ?? []) direct.set(d, "runtime");
  const reached = reachedFrom(graph, [...direct.keys()]);
  const pinned: PinnedDependency[] = [];
  for (const [i, p] of packages.entries()) {
    if (typeof p.name !== "string" || typeof p.version !== "string" || !k.fromRegistry(p)) continue;
    if (!isAdded(added, lines[i])) continue;
    const { via } = viaAndScope(key(p.name), reached, direct);
    pinned.push({
      ecosystem: k.ecosystem,
      name: p.name,
      version: p.version,
      file: file.filename,
      line: lines[i] ?? 1,
      scope: k.scopeOf?.(p) ?? "runtime",
      from: "lockfile",
      ...(via !== undefined
        ? { via: packages.find((q) => typeof q.name === "string" && key(q.name) === via)?.name as string }
        : {}),
    });
  }
  return { pinned };
}

/** A reader of one TOML lockfile kind (`[[package]]` blocks): Cargo.lock, poetry.lock, uv.lock. */
export function tomlLockReader(k: TomlLockKind): VersionReader {
  return {
    kind: k.kind,
    ecosystem: k.ecosystem,
    lockfile: true,
    matches: (path) => baseName(path) === k.file,
    read: (file, headText) => readTomlLock(k, file, headText),
  };
}

/** A lockfile package's `source` table (empty when it has none). */
export const source = (p: Obj): Obj => (isObj(p.source) ? p.source : {});
