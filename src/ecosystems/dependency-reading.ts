import type { ChangedFile } from "../domain/pull-request.js";
import { changedDependencies, type DependencyChange } from "./common/changed-dependencies.js";
import { documentChanges, type DocumentChanges } from "./common/document-changes.js";
import type { DocumentManifestParser, ManifestParser } from "./common/manifest-parser.js";
import type { ManifestReading, VersionReader, VersionsRead } from "./common/pinned-dependency.js";

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
    const read = () => {
      // A reader that parses JSON asks `json`, which counts a parse it makes; any other is counted here.
      this.askedJson.delete(file.filename);
      const value = reader.read(file, headText, manifestText, this);
      if (!this.askedJson.has(file.filename)) this.counted(file.filename);
      return value;
    };
    return this.once(reader.kind, file, headText, read, manifestText, false);
  }

  /**
   * A JSON file's text parsed once, whichever check asks first: the npm lockfile SEC-07 reads for its
   * exact versions, and the licence checks for the version a dependency is pinned at. Counted in
   * `parses`; text that is not JSON throws each time, as `JSON.parse` does.
   */
  json(path: string, text: string): unknown {
    this.askedJson.add(path);
    const key = `json\u0000${path}`;
    const hit = this.parsedJson.get(key);
    if (hit && hit.text === text) {
      if ("error" in hit) throw hit.error;
      return hit.value;
    }
    this.counted(path);
    try {
      const value: unknown = JSON.parse(text);
      this.parsedJson.set(key, { text, value });
      return value;
    } catch (error) {
      this.parsedJson.set(key, { text, error });
      throw error;
    }
  }

  private readonly askedJson = new Set<string>();
  private readonly parsedJson = new Map<string, { text: string; value: unknown } | { text: string; error: unknown }>();

  private once<T>(
    kind: string,
    file: ChangedFile,
    headText: string | undefined,
    read: () => T,
    besideText?: string,
    count = true,
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
    if (count) this.counted(file.filename);
    return value;
  }

  private counted(path: string): void {
    this.parses.set(path, (this.parses.get(path) ?? 0) + 1);
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
