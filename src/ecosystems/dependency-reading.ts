import type { ChangedFile } from "../domain/pull-request.js";
import { changedDependencies, type DependencyChange } from "./shared/changed-dependencies.js";
import { documentChanges, type DocumentChanges } from "./shared/document-changes.js";
import type { DocumentManifestParser, ManifestParser } from "./shared/manifest-parser.js";
import type { ManifestReading, VersionReader, VersionsRead } from "./shared/pinned-dependency.js";

interface Remembered {
  status: ChangedFile["status"];
  patch: string | undefined;
  headText: string | undefined;
  besideText: string | undefined;
  value: unknown;
}

/**
 * One review's reading of its dependency files: each manifest is parsed once, by whichever check
 * asks first (the licence checks, LIC-01/02, or the vulnerability check, SEC-07), and the other
 * gets the same dependency changes; each lockfile is parsed once too. A reading is keyed by the parser, the file's path, its diff
 * and its head text, so a file that changed between two asks is read anew. The detect node makes
 * one per review (`DetectContext.dependencies`); a check given none reads for itself.
 *
 * @example const reading = new DependencyReading(); reading.changes(packageJsonParser, file, headText);
 */
export class DependencyReading implements ManifestReading {
  /** How many times each file was parsed, by path: a second ask of the same file and texts parses nothing. */
  readonly parses = new Map<string, number>();
  private readonly remembered = new Map<string, Remembered[]>();

  /** The dependencies a line-by-line manifest's change adds or changes (`changedDependencies`), read once. */
  changes(parser: ManifestParser, file: ChangedFile, headText: string | undefined): DependencyChange[] {
    return this.once(parser.kind, file, headText, () => changedDependencies(parser, file, headText));
  }

  /** The dependencies a whole-document (XML) manifest's change adds or changes (`documentChanges`), read once. */
  documentChanges(parser: DocumentManifestParser, file: ChangedFile, headText: string | undefined): DocumentChanges {
    return this.once(parser.kind, file, headText, () => documentChanges(parser, file, headText));
  }

  /**
   * A lockfile's exact versions (its reader's `read`, given the manifest beside it), read once.
   * Manifests are not read here: their readers ask `changes` or `documentChanges`.
   */
  lockfile(
    reader: VersionReader,
    file: ChangedFile,
    headText: string | undefined,
    manifestText: string | undefined,
  ): VersionsRead {
    return this.once(reader.kind, file, headText, () => reader.read(file, headText, manifestText, this), manifestText);
  }

  private once<T>(
    kind: string,
    file: ChangedFile,
    headText: string | undefined,
    read: () => T,
    besideText?: string,
  ): T {
    const key = `${kind}\u0000${file.filename}`;
    const list = this.remembered.get(key) ?? [];
    const hit = list.find(
      (r) =>
        r.status === file.status && r.patch === file.patch && r.headText === headText && r.besideText === besideText,
    );
    if (hit) return hit.value as T;
    const value = read();
    list.push({ status: file.status, patch: file.patch, headText, besideText, value });
    this.remembered.set(key, list);
    this.parses.set(file.filename, (this.parses.get(file.filename) ?? 0) + 1);
    return value;
  }
}

/**
 * A manifest's dependency changes through `reading` when there is one, else read directly.
 *
 * @example changesThrough(ctx.dependencies, goModParser, file, headText)
 */
export function changesThrough(
  reading: ManifestReading | undefined,
  parser: ManifestParser,
  file: ChangedFile,
  headText: string | undefined,
): DependencyChange[] {
  return reading ? reading.changes(parser, file, headText) : changedDependencies(parser, file, headText);
}

/**
 * A whole-document manifest's dependency changes through `reading` when there is one, else read directly.
 *
 * @example documentChangesThrough(ctx.dependencies, mavenPomParser, file, pomText)
 */
export function documentChangesThrough(
  reading: ManifestReading | undefined,
  parser: DocumentManifestParser,
  file: ChangedFile,
  headText: string | undefined,
): DocumentChanges {
  return reading ? reading.documentChanges(parser, file, headText) : documentChanges(parser, file, headText);
}
