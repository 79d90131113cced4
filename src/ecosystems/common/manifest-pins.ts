import { versionOrder } from "./version-order.js";
import type { Ecosystem } from "../../domain/license-resolver.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import { changesThrough, documentChangesThrough } from "../dependency-reading.js";
import type { DependencyChange } from "./changed-dependencies.js";
import type { DocumentManifestParser, ManifestParser } from "./manifest-parser.js";
import type { PinnedDependency, VersionReader, VersionsRead } from "./pinned-dependency.js";

/** `[1.2.3]`: Maven's and NuGet's exact-version interval. */
const EXACT_INTERVAL = /^\[\s*([^,\s[\]()]+)\s*\]$/;

/**
 * The exact version a manifest entry pins, or undefined when it names a range (`[1.0,2.0)`,
 * `^7.4`, `1.+`, `latest.release`, `12.*`), an unresolved `${property}` or nothing the ecosystem reads as a version:
 * a range is not a version, and which one it resolves to is the lockfile's to say. A bare Maven
 * or NuGet version is what the build resolves to (Maven's soft requirement; NuGet's lowest
 * applicable version), `[1.2.3]` and Composer's `=1.2.3` / `v1.2.3` are exact.
 *
 * @example pinnedVersion("maven", "2.14.1") // "2.14.1"
 * @example pinnedVersion("composer", "^7.4") // undefined
 */
export function pinnedVersion(ecosystem: Ecosystem, written: string): string | undefined {
  const text = written.trim();
  const exact = EXACT_INTERVAL.exec(text)?.[1] ?? (ecosystem === "composer" ? text.replace(/^==?\s*/, "") : text);
  if (ecosystem !== "composer" && exact === text && /^[[(]/.test(text)) return undefined;
  // Gradle's dynamic versions (`1.+`, `latest.release`) and Maven's LATEST / RELEASE name no version.
  if (ecosystem === "maven" && (exact.includes("+") || /^(?:latest|release)(?:\.|$)/i.test(exact))) return undefined;
  return versionOrder(ecosystem).read(exact) === undefined ? undefined : exact.replace(/^v(?=\d)/, "");
}

function pinsOf(changes: readonly DependencyChange[]): PinnedDependency[] {
  const pinned: PinnedDependency[] = [];
  for (const change of changes) {
    if (change.version === undefined || change.kind === "scope_changed") continue;
    const version = pinnedVersion(change.ecosystem, change.version);
    if (version === undefined) continue;
    const previous =
      change.previousVersion === undefined ? undefined : pinnedVersion(change.ecosystem, change.previousVersion);
    pinned.push({
      ecosystem: change.ecosystem,
      name: change.name,
      version,
      file: change.file,
      line: change.line,
      scope: change.scope,
      from: "pin",
      ...(previous !== undefined ? { previousVersion: previous } : {}),
    });
  }
  return pinned;
}

/** A reader over one of the licence detector's line-by-line manifest parsers. */
export function lineManifestReader(parser: ManifestParser): VersionReader {
  return {
    kind: parser.kind,
    ecosystem: parser.ecosystem,
    lockfile: false,
    matches: (path) => parser.matches(path),
    read: (file, headText, _manifest, reading) => ({
      pinned: pinsOf(changesThrough(reading, parser, file, headText)),
    }),
  };
}

/** A reader over one of the licence detector's whole-document (XML) parsers: without a head file that parses, unread. */
export function documentManifestReader(parser: DocumentManifestParser): VersionReader {
  return {
    kind: parser.kind,
    ecosystem: parser.ecosystem,
    lockfile: false,
    matches: (path) => parser.matches(path),
    read(file: ChangedFile, headText, _manifest, reading): VersionsRead {
      const got = documentChangesThrough(reading, parser, file, headText);
      if ("unread" in got) return { unread: { file: file.filename, why: got.unread } };
      return { pinned: pinsOf(got.changes) };
    },
  };
}
