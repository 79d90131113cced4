import { changesThrough } from "../dependency-reading.js";
import { baseName } from "../common/manifest-parser.js";
import { requirementsTxtParser } from "./requirements-txt.js";
import {
  parsedHead,
  addedLineNumbers,
  isAdded,
  jsonKeyLines,
  type PinnedDependency,
  type VersionReader,
} from "../common/pinned-dependency.js";

/**
 * The version a PEP 440 specifier is judged by: the pin itself, else the lower bound it admits
 * (`>=2.0,<3` → 2.0, `~=1.4.2` → 1.4.2, `==2.*` → 2.0); undefined when it has none (`<3`, or no
 * specifier at all), since the lowest release of the package is not known without its registry.
 *
 * @example lowestPep440(">=2.0,<3") // "2.0"
 */
export function lowestPep440(spec: string): string | undefined {
  for (const clause of spec.split(",")) {
    const m = /^\s*(===|==|~=|>=)\s*([^\s,;]+)\s*$/.exec(clause);
    if (m?.[2] !== undefined) return m[2].replace(/\.\*$/, ".0");
  }
  return undefined;
}

/**
 * `requirements*.txt`: each requirement the change adds or changes, by its pin or the lower bound
 * of its specifier. A requirement with no lower bound is not judged (no version to judge).
 *
 * @example requirementsReader.read(file, undefined) // { pinned: [{ name: "PyYAML", version: "5.3.1", from: "pin", ... }] }
 */
export const requirementsReader: VersionReader = {
  kind: "requirements",
  ecosystem: "pypi",
  lockfile: false,
  matches: (path) => requirementsTxtParser.matches(path),
  read(file, headText, _manifest, reading) {
    const pinned: PinnedDependency[] = [];
    for (const change of changesThrough(reading, requirementsTxtParser, file, headText)) {
      if (change.version === undefined || change.kind === "scope_changed") continue;
      const exact = /^[0-9][^<>=!~,\s]*$/.test(change.version);
      const version = exact ? change.version : lowestPep440(change.version);
      if (version === undefined) continue;
      pinned.push({
        ecosystem: "pypi",
        name: change.name,
        version,
        file: change.file,
        line: change.line,
        scope: change.scope,
        from: exact ? "pin" : "lowest",
        ...(exact ? {} : { range: change.version }),
        ...(change.previousVersion !== undefined ? { previousVersion: change.previousVersion } : {}),
      });
    }
    return { pinned };
  },
};

/**
 * `Pipfile.lock`: each package of `default` (runtime) and `develop` (dev) whose pinned version
 * (`"version": "==5.3.1"`) the change adds or changes.
 *
 * @example pipfileLockReader.read(file, headText) // { pinned: [{ name: "pyyaml", version: "5.3.1", scope: "runtime", ... }] }
 */
export const pipfileLockReader: VersionReader = {
  kind: "Pipfile.lock",
  ecosystem: "pypi",
  lockfile: true,
  matches: (path) => baseName(path) === "Pipfile.lock",
  read(file, headText) {
    const head = parsedHead(file, headText, JSON.parse, () => "it is not JSON");
    if ("unread" in head) return head;
    const lock = head.parsed;
    const lines = jsonKeyLines(head.text);
    const added = addedLineNumbers(file, head.text);
    const pinned: PinnedDependency[] = [];
    for (const [section, scope] of [
      ["default", "runtime"],
      ["develop", "dev"],
    ] as const) {
      const deps = (lock as Record<string, unknown> | null)?.[section];
      for (const [name, value] of Object.entries(typeof deps === "object" && deps !== null ? deps : {})) {
        const pin = (value as { version?: unknown } | null)?.version;
        if (typeof pin !== "string" || !pin.startsWith("==")) continue;
        const line = lines.get(`${section}/${name}/version`);
        if (!isAdded(added, line)) continue;
        pinned.push({
          ecosystem: "pypi",
          name,
          version: pin.slice(2).replace(/^=/, ""),
          file: file.filename,
          line: line ?? 1,
          scope,
          from: "lockfile",
        });
      }
    }
    return { pinned };
  },
};
