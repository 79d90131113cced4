import type { Ecosystem } from "../../domain/license-resolver.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import type { DependencyChange } from "./changed-dependencies.js";
import type { DocumentChanges } from "./document-changes.js";
import type { DocumentManifestParser, ManifestParser } from "./manifest-parser.js";
import { parsePatch } from "../../domain/patch.js";
import type { DependencyScope } from "./manifest-parser.js";

/** A dependency this pull request adds or changes, at the exact version it will be installed at. */
export interface PinnedDependency {
  ecosystem: Ecosystem;
  name: string;
  /** The exact version judged. */
  version: string;
  /** The manifest or lockfile, and the line that sets the version. */
  file: string;
  line: number;
  scope: DependencyScope;
  /**
   * How the version is known: a lockfile's resolution, an exact pin in a manifest, or the lowest
   * version a manifest's range admits (no changed lockfile pins it).
   */
  from: "lockfile" | "pin" | "lowest";
  /** The manifest's range, for `lowest`. */
  range?: string;
  /** The direct dependency that brought a transitive one in, where the lockfile tells. */
  via?: string;
  /** The version before the change, where the diff shows it. */
  previousVersion?: string;
}

/** A lockfile the gate could not read whole: its versions are not known, so a person must look. */
export interface UnreadLockfile {
  file: string;
  why: string;
}

/** What reading one changed file gave. */
export type VersionsRead = { pinned: PinnedDependency[] } | { unread: UnreadLockfile };

/**
 * The review's one reading of its manifests, as a reader asks it (`DependencyReading` in
 * src/ecosystems/dependency-reading.ts): a manifest's dependency changes, parsed once per review.
 */
export interface ManifestReading {
  changes(parser: ManifestParser, file: ChangedFile, headText: string | undefined): DependencyChange[];
  documentChanges(parser: DocumentManifestParser, file: ChangedFile, headText: string | undefined): DocumentChanges;
  /** A JSON file's text parsed once (a lockfile SEC-07 reads and the licence checks read for pins); throws as JSON.parse does. */
  json?(path: string, text: string): unknown;
}

/**
 * One kind of manifest or lockfile: which paths it reads, and the dependencies the change adds
 * or changes in it, read from the whole head file (lockfiles need it) and the patch.
 */
export interface VersionReader {
  kind: string;
  ecosystem: Ecosystem;
  /** A lockfile's exact versions take precedence over the ranges of manifests beside it. */
  lockfile: boolean;
  /** The manifest beside it whose head text `read` also needs (which dependencies are direct). */
  manifest?: string;
  matches(path: string): boolean;
  /** `reading` is the review's one reading of its manifests (shared with the licence checks), when there is one. */
  read(file: ChangedFile, headText: string | undefined, manifestText?: string, reading?: ManifestReading): VersionsRead;
}

/**
 * The head line numbers the pull request added to a file: every line of an added file whose
 * patch GitHub left out.
 *
 * @example addedLineNumbers({ patch: "@@ -1 +1,2 @@\n a\n+b", ... }, text) // Set { 2 }
 */
export function addedLineNumbers(file: ChangedFile, headText: string | undefined): Set<number> | "all" {
  if (file.patch === undefined) return file.status === "added" && headText !== undefined ? "all" : new Set();
  return new Set(
    parsePatch(file.patch)
      .filter((l) => l.kind === "add")
      .map((l) => l.line),
  );
}

/** Whether one of `lines` is among the added ones. */
export function isAdded(added: Set<number> | "all", ...lines: (number | undefined)[]): boolean {
  return added === "all" || lines.some((l) => l !== undefined && added.has(l));
}

/**
 * For each package, the direct dependencies it is reached from, following `graph` (a package's
 * dependencies by name) from each of `direct`. A direct dependency reaches itself.
 *
 * @example reachedFrom(new Map([["express", ["qs"]]]), ["express"]).get("qs") // ["express"]
 */
export function reachedFrom(
  graph: ReadonlyMap<string, readonly string[]>,
  direct: readonly string[],
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const root of [...direct].sort()) {
    const seen = new Set<string>([root]);
    const queue = [root];
    while (queue.length > 0) {
      const name = queue.shift() as string;
      out.set(name, [...(out.get(name) ?? []), root]);
      for (const next of graph.get(name) ?? []) {
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
  }
  return out;
}

/**
 * A transitive dependency's `via` and scope from the direct dependencies that reach it: the first
 * (by name) of them, and dev only when every one of them is a dev dependency.
 *
 * @example viaAndScope("qs", reached, new Map([["express", "runtime"]])) // { via: "express", scope: "runtime" }
 */
export function viaAndScope(
  name: string,
  reached: ReadonlyMap<string, string[]>,
  directScope: ReadonlyMap<string, DependencyScope>,
): { via?: string; scope?: DependencyScope } {
  const roots = reached.get(name) ?? [];
  if (roots.length === 0) return {};
  const scope = roots.every((r) => directScope.get(r) === "dev") ? "dev" : "runtime";
  const via = roots.includes(name) ? undefined : roots[0];
  return { scope, ...(via !== undefined ? { via } : {}) };
}

/**
 * The line of each key of an npm-style JSON file (one key per line, as npm writes it), by its
 * path of keys joined with "/" (`packages/node_modules/lodash/version`). A tolerant scan: lines
 * it cannot place are skipped.
 *
 * @example jsonKeyLines('{\n  "a": {\n    "b": "1"\n  }\n}').get("a/b") // 3
 */
export function jsonKeyLines(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const stack: string[] = [];
  const lines = text.split("\n");
  for (const [i, raw] of lines.entries()) {
    const key = /^\s*"((?:[^"\\]|\\.)*)"\s*:\s*(.*)$/.exec(raw);
    if (key?.[1] !== undefined) {
      const path = [...stack, key[1]].join("/");
      out.set(path, i + 1);
      const rest = (key[2] ?? "").trim();
      if (rest === "{" || rest === "[") stack.push(key[1]);
      continue;
    }
    // An object inside an array (`"funding": [ { ... } ]`) opens a level with no key; the root's brace does not.
    if (/^\s*[{[]\s*$/.test(raw) && i > 0) stack.push("#");
    else if (/^\s*[}\]],?\s*$/.test(raw)) stack.pop();
  }
  return out;
}

/** A parsed JSON, YAML or TOML map. */
export type Obj = Record<string, unknown>;

/** Whether a parsed value is a map (not null, not a list). */
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A lockfile's head copy, parsed; or why it cannot be read (no head copy, or `refused`'s sentence
 * for what the parser threw), which makes the lockfile unread rather than empty.
 *
 * @example const head = parsedHead(file, headText, JSON.parse, () => "it is not JSON"); if ("unread" in head) return head;
 */
export function parsedHead(
  file: ChangedFile,
  headText: string | undefined,
  parse: (text: string) => unknown,
  refused: (error: unknown) => string,
): { parsed: unknown; text: string } | { unread: UnreadLockfile } {
  if (headText === undefined) return { unread: { file: file.filename, why: "its head version could not be read" } };
  try {
    return { parsed: parse(headText), text: headText };
  } catch (error) {
    return { unread: { file: file.filename, why: refused(error) } };
  }
}

/** The message of what a parser threw. */
export const thrown = (error: unknown): string => (error instanceof Error ? error.message : String(error));
