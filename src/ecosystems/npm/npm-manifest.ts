import { createRequire } from "node:module";
import type Semver from "semver";
import { changesThrough } from "../dependency-reading.js";
import { baseName } from "../common/manifest-parser.js";
import { packageJsonParser } from "./package-json.js";
import type { PinnedDependency, VersionReader } from "../common/pinned-dependency.js";

let semverLib: typeof Semver | undefined;

/**
 * The version a package.json entry is judged by: an exact version as written, else the lowest
 * one its range admits (`^4.17.0` → 4.17.0). Undefined when it is no semver range (a tag, a git
 * URL): that is compared as written, and fails if an advisory must be compared with it.
 *
 * @example judgedVersion("^4.17.0") // { version: "4.17.0", from: "lowest" }
 */
export function judgedVersion(spec: string): { version: string; from: "pin" | "lowest" } {
  semverLib ??= createRequire(import.meta.url)("semver") as typeof Semver;
  const exact = semverLib.valid(spec.trim());
  if (exact) return { version: exact, from: "pin" };
  try {
    const lowest = semverLib.validRange(spec) ? semverLib.minVersion(spec) : null;
    if (lowest) return { version: lowest.version, from: "lowest" };
  } catch {
    // not a range semver reads: fall through
  }
  return { version: spec.trim(), from: "pin" };
}

/**
 * package.json: the dependencies the change adds or changes (the licence detector's own reading
 * of a manifest diff), each judged by its exact version or the lowest version its range admits.
 *
 * @example npmManifestReader.read(file, headText) // { pinned: [{ name: "lodash", version: "4.17.20", from: "pin", ... }] }
 */
export const npmManifestReader: VersionReader = {
  kind: "package.json",
  ecosystem: "npm",
  lockfile: false,
  matches: (path) => packageJsonParser.matches(path) && baseName(path) === "package.json",
  read(file, headText, _manifest, reading) {
    const pinned: PinnedDependency[] = [];
    for (const change of changesThrough(reading, packageJsonParser, file, headText)) {
      if (change.version === undefined || change.kind === "scope_changed") continue;
      const judged = judgedVersion(change.version);
      const previous = change.previousVersion === undefined ? undefined : judgedVersion(change.previousVersion).version;
      pinned.push({
        ecosystem: "npm",
        name: change.name,
        version: judged.version,
        file: change.file,
        line: change.line,
        scope: change.scope,
        from: judged.from,
        ...(judged.from === "lowest" ? { range: change.version } : {}),
        ...(previous !== undefined ? { previousVersion: previous } : {}),
      });
    }
    return { pinned };
  },
};
