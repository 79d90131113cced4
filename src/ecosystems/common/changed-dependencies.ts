import type { Ecosystem } from "../../domain/license-resolver.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import { parsePatch, type PatchLine } from "../../domain/patch.js";
import type { DependencyScope, ManifestParser } from "./manifest-parser.js";

/** How a dependency changed: new, a different version, or moved between dev and runtime. */
export type DependencyChangeKind = "added" | "version_changed" | "scope_changed";

/** A dependency this pull request adds or changes, located on the added manifest line. */
export interface DependencyChange {
  ecosystem: Ecosystem;
  /** The manifest's path in the repository. */
  file: string;
  name: string;
  version?: string;
  kind: DependencyChangeKind;
  /** The version the removed line had (for `version_changed`). */
  previousVersion?: string;
  /** The scope of the removed line when a hunk shows it; for an in-place edit, the same as `scope`. */
  previousScope?: DependencyScope;
  scope: DependencyScope;
  /** The added line, numbered in the head file. */
  line: number;
}

interface SeenDependency {
  name: string;
  key: string;
  version?: string;
  section?: string;
  line: number;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The patch cut at hunk headers, each hunk with the line it starts on in base and head. */
export function hunks(patch: string): { oldStart: number; newStart: number; lines: PatchLine[] }[] {
  const out: { oldStart: number; newStart: number; lines: PatchLine[] }[] = [];
  let current: string[] = [];
  const flush = (): void => {
    const header = current[0] === undefined ? null : HUNK_HEADER.exec(current[0]);
    if (header) {
      out.push({ oldStart: Number(header[1]), newStart: Number(header[2]), lines: parsePatch(current.join("\n")) });
    }
  };
  for (const raw of patch.split("\n")) {
    if (raw.startsWith("@@")) {
      flush();
      current = [];
    }
    current.push(raw);
  }
  flush();
  return out;
}

/** A whole new file as one hunk of added lines (for an added file whose patch GitHub omitted). */
function wholeFile(text: string): { oldStart: number; newStart: number; lines: PatchLine[] }[] {
  const lines = text.split("\n").map((t, i): PatchLine => ({ kind: "add", line: i + 1, text: t }));
  return [{ oldStart: 0, newStart: 1, lines }];
}

/** Walks the hunks, tracking the base and head sections, and reads every added and removed dependency. */
function collect(
  parser: ManifestParser,
  parts: ReturnType<typeof hunks>,
): { added: SeenDependency[]; removed: SeenDependency[] } {
  const added: SeenDependency[] = [];
  const removed: SeenDependency[] = [];
  for (const hunk of parts) {
    let oldSection = parser.sectionAtStart(hunk.oldStart);
    let newSection = parser.sectionAtStart(hunk.newStart);
    for (const line of hunk.lines) {
      if (line.kind !== "context") {
        const section = line.kind === "add" ? newSection : oldSection;
        for (const dep of parser.parseLine(line.text, section)) {
          const seen: SeenDependency = {
            name: dep.name,
            key: parser.normalizeName(dep.name),
            line: line.line,
            ...(dep.version !== undefined ? { version: dep.version } : {}),
            ...((dep.section ?? section) !== undefined ? { section: dep.section ?? section } : {}),
          };
          (line.kind === "add" ? added : removed).push(seen);
        }
      }
      if (line.kind !== "del") newSection = parser.nextSection(newSection, line.text);
      if (line.kind !== "add") oldSection = parser.nextSection(oldSection, line.text);
    }
  }
  return { added, removed };
}

/**
 * The dependencies a changed manifest adds or changes. Added lines are compared with removed
 * ones: a dependency whose name and version both reappear (a reformatted line) is no change.
 * The scope comes from the whole head file when `headText` parses, else from the section the
 * hunk shows, else runtime (fail closed). With a head file, a line that is not one of its
 * dependencies (a script, a version field) is dropped.
 *
 * @example changedDependencies(packageJsonParser, file, headText)[0] // { name: "left-pad", kind: "added", scope: "runtime", ... }
 */
export function changedDependencies(parser: ManifestParser, file: ChangedFile, headText?: string): DependencyChange[] {
  if (file.status === "removed") return [];
  const parts =
    file.patch !== undefined ? hunks(file.patch) : file.status === "added" && headText ? wholeFile(headText) : [];
  const { added, removed } = collect(parser, parts);
  const head = headText === undefined ? undefined : parser.readHead(headText, file.filename);
  const byKey = new Map<string, DependencyChange>();
  for (const dep of added) {
    if (head && !head.has(dep.key)) continue;
    const scope = head?.get(dep.key) ?? parser.scopeOf(dep.section, file.filename) ?? "runtime";
    const before = removed.filter((r) => r.key === dep.key);
    const sameVersion = before.find((r) => r.version === dep.version);
    const previous = sameVersion ?? before[0];
    const previousScope = previous ? (parser.scopeOf(previous.section, file.filename) ?? scope) : undefined;
    let kind: DependencyChangeKind = "added";
    if (sameVersion) {
      if (previousScope === scope) continue; // the same dependency, only reformatted or moved
      kind = "scope_changed";
    } else if (previous) {
      kind = "version_changed";
    }
    const change: DependencyChange = {
      ecosystem: parser.ecosystem,
      file: file.filename,
      name: dep.name,
      kind,
      scope,
      line: dep.line,
      ...(dep.version !== undefined ? { version: dep.version } : {}),
      ...(previous?.version !== undefined && kind === "version_changed" ? { previousVersion: previous.version } : {}),
      ...(previousScope !== undefined ? { previousScope } : {}),
    };
    const earlier = byKey.get(dep.key);
    // Cargo's `[dependencies.serde]` header and its `version =` line name one dependency.
    if (!earlier) byKey.set(dep.key, change);
    else if (earlier.version === undefined && change.version !== undefined)
      byKey.set(dep.key, { ...earlier, version: change.version });
  }
  return [...byKey.values()];
}
