import {
  addScope,
  type DeclaredDependency,
  type DependencyScope,
  type ManifestParser,
  sectionAtTop,
} from "./manifest-parser.js";
import type { Ecosystem } from "../../domain/license-resolver.js";
import { normalizePackageName } from "../../licenses/offline-resolver.js";

const ENTRY = /^\s*"([^"]+)"\s*:\s*"([^"]*)"\s*,?\s*$/;
const OPENS_OBJECT = /^\s*"([^"]+)"\s*:\s*\{\s*$/;
const CLOSES_OBJECT = /^\s*\}\s*,?\s*$/;

/** What one JSON manifest kind says; `jsonSectionsParser` does the rest. */
export interface JsonSectionsSpec {
  kind: string;
  ecosystem: Ecosystem;
  matches(path: string): boolean;
  /** The top-level objects that declare dependencies, and whether each ships. */
  sections: Readonly<Record<string, DependencyScope>>;
  /** The dependency a `"key": "value"` entry of such an object declares, or undefined for none (a platform, a local path). */
  entry(key: string, value: string): DeclaredDependency | undefined;
  /** In a hunk whose object is not visible: whether an entry still reads as a dependency (fail closed, but not a script). */
  looseEntry(dep: DeclaredDependency): boolean;
}

/**
 * A manifest that is one JSON object whose dependency objects map names to versions
 * (package.json, composer.json): objects open and close line by line in a hunk, and the whole head
 * file is read with JSON.parse.
 *
 * @example jsonSectionsParser({ kind: "composer.json", sections: { require: "runtime" }, ... }).parseLine(`"monolog/monolog": "^3.6",`, "require")
 */
export function jsonSectionsParser(spec: JsonSectionsSpec): ManifestParser {
  const normalizeName = (name: string): string => normalizePackageName(spec.ecosystem, name);
  const has = (section: string | undefined): section is string =>
    section !== undefined && Object.hasOwn(spec.sections, section);
  return {
    kind: spec.kind,
    ecosystem: spec.ecosystem,
    matches: spec.matches,
    sectionAtStart: sectionAtTop,
    nextSection(section, text) {
      const opens = OPENS_OBJECT.exec(text);
      if (opens) return opens[1];
      if (CLOSES_OBJECT.test(text)) return "(top)";
      return section;
    },
    parseLine(text, section) {
      const m = ENTRY.exec(text);
      if (!m || m[1] === undefined || m[2] === undefined) return [];
      const dep = spec.entry(m[1], m[2]);
      if (!dep) return [];
      if (section === undefined) return spec.looseEntry(dep) ? [dep] : [];
      return has(section) ? [dep] : [];
    },
    scopeOf: (section) => (has(section) ? spec.sections[section] : undefined),
    readHead(text) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return undefined;
      }
      if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
      const out = new Map<string, DependencyScope>();
      for (const [section, scope] of Object.entries(spec.sections)) {
        const deps: unknown = (json as Record<string, unknown>)[section];
        if (typeof deps !== "object" || deps === null) continue;
        for (const [name, value] of Object.entries(deps)) {
          const dep = typeof value === "string" ? spec.entry(name, value) : { name };
          if (dep) addScope(out, normalizeName(dep.name), scope);
        }
      }
      return out;
    },
    normalizeName,
  };
}
