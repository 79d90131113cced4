import type { ChangedFile } from "../../domain/pull-request.js";
import { type DependencyChange, type DependencyChangeKind, hunks } from "./changed-dependencies.js";
import type { Declaration, DependencyScope, DocumentManifestParser } from "./manifest-parser.js";

/**
 * The base file's text: the head with the patch taken back (each hunk's context and removed lines
 * in place of its context and added ones), or undefined when the patch does not fit the head.
 *
 * @example baseText("a\nB\nc", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c") // "a\nb\nc"
 */
export function baseText(headText: string, patch: string): string | undefined {
  const head = headText.split("\n");
  const base: string[] = [];
  let next = 1; // the next head line not yet copied
  for (const hunk of hunks(patch)) {
    const start = hunk.lines.length === 0 || hunk.newStart === 0 ? next : hunk.newStart;
    if (start < next) return undefined;
    base.push(...head.slice(next - 1, start - 1));
    next = start;
    for (const line of hunk.lines) {
      if (line.kind === "add" || line.kind === "context") {
        if (head[next - 1] !== line.text) return undefined; // the patch is not of this head
        next++;
      }
      if (line.kind === "del" || line.kind === "context") base.push(line.text);
    }
  }
  base.push(...head.slice(next - 1));
  return base.join("\n");
}

interface Merged {
  name: string;
  version?: string;
  scope: DependencyScope;
  spans: { line: number; endLine: number }[];
}

/** Declarations by normalised name: runtime wins over dev, the first version written counts. */
function byName(parser: DocumentManifestParser, list: readonly Declaration[]): Map<string, Merged> {
  const out = new Map<string, Merged>();
  for (const d of list) {
    const key = parser.normalizeName(d.name);
    const seen = out.get(key);
    const span = { line: d.line, endLine: d.endLine };
    if (!seen) {
      out.set(key, {
        name: d.name,
        scope: d.scope,
        spans: [span],
        ...(d.version !== undefined ? { version: d.version } : {}),
      });
      continue;
    }
    seen.spans.push(span);
    if (d.scope === "runtime") seen.scope = "runtime";
    if (seen.version === undefined && d.version !== undefined) seen.version = d.version;
  }
  return out;
}

/** What a document manifest's change gives: the dependency changes, or why the file could not be read. */
export type DocumentChanges = { changes: DependencyChange[] } | { unread: string };

/**
 * The dependencies a changed document manifest (XML) adds or changes: the head file's
 * declarations against the base file's, the base being the head with the patch taken back. A
 * dependency new to the file is `added`, one with another version `version_changed` (also when
 * only a property it names changed), one moved between runtime and dev `scope_changed`. Each is
 * located on the first added line within its declaration, else on the declaration's first line.
 * Without the head file, or when it does not parse, the file is unread (a person reads it).
 *
 * @example documentChanges(mavenPomParser, file, pomText) // { changes: [{ name: "org.jooq:jooq", kind: "added", scope: "runtime", line: 31, ... }] }
 */
export function documentChanges(
  parser: DocumentManifestParser,
  file: ChangedFile,
  headText: string | undefined,
): DocumentChanges {
  if (file.status === "removed") return { changes: [] };
  if (headText === undefined) {
    return { unread: `${parser.kind} is read whole, and the head file could not be read` };
  }
  const head = parser.declarations(headText, file.filename);
  if (head === undefined) return { unread: `${parser.kind}: the head file does not parse` };
  // An added file (or one GitHub gave no diff for, which the ledger calls unread anyway) is all new.
  const whole = file.status === "added" || file.patch === undefined;
  const before = whole ? "" : baseText(headText, file.patch ?? "");
  // A patch that does not fit the head, or a base that does not parse: every dependency is new (fail closed).
  const base = byName(parser, (before === undefined ? undefined : parser.declarations(before, file.filename)) ?? []);
  const added = new Set(
    hunks(file.patch ?? "")
      .flatMap((h) => h.lines)
      .filter((l) => l.kind === "add")
      .map((l) => l.line),
  );
  const changes: DependencyChange[] = [];
  for (const [key, now] of byName(parser, head)) {
    const was = base.get(key);
    let kind: DependencyChangeKind = "added";
    if (was && was.version === now.version) {
      if (was.scope === now.scope) continue;
      kind = "scope_changed";
    } else if (was) {
      kind = "version_changed";
    }
    const touched = now.spans
      .flatMap((s) => [...added].filter((l) => l >= s.line && l <= s.endLine))
      .sort((a, b) => a - b)[0];
    changes.push({
      ecosystem: parser.ecosystem,
      file: file.filename,
      name: now.name,
      kind,
      scope: now.scope,
      line: touched ?? now.spans[0]?.line ?? 1,
      ...(now.version !== undefined ? { version: now.version } : {}),
      ...(kind === "version_changed" && was?.version !== undefined ? { previousVersion: was.version } : {}),
      ...(was ? { previousScope: was.scope } : {}),
    });
  }
  return { changes };
}
