import { createRequire } from "node:module";
import type * as YarnParsers from "@yarnpkg/parsers";
import { baseName } from "../common/manifest-parser.js";
import { directDependencies } from "./manifest-direct.js";
import {
  parsedHead,
  thrown,
  addedLineNumbers,
  isAdded,
  reachedFrom,
  viaAndScope,
  type PinnedDependency,
  type VersionReader,
} from "../common/pinned-dependency.js";

let yarnParsers: typeof YarnParsers | undefined;

/** Yarn's own parser, loaded by the first yarn.lock a review reads. */
function parseSyml(text: string): unknown {
  yarnParsers ??= createRequire(import.meta.url)("@yarnpkg/parsers") as typeof YarnParsers;
  return yarnParsers.parseSyml(text);
}

/** `"@scope/name@npm:^1.2.0"` or `name@^1` → the package name. */
function nameOf(descriptor: string): string {
  const d = descriptor.trim().replace(/^"|"$/g, "");
  const at = d.indexOf("@", 1);
  return at < 0 ? d : d.slice(0, at);
}

/** Each entry's header line and version line, by every descriptor its header names. */
function entryLines(text: string): Map<string, { header: number; version?: number }> {
  const out = new Map<string, { header: number; version?: number }>();
  let current: { header: number; version?: number } | undefined;
  for (const [i, raw] of text.split("\n").entries()) {
    if (/^[^\s#].*:$/.test(raw)) {
      current = { header: i + 1 };
      for (const d of raw.slice(0, -1).split(",")) out.set(d.trim().replace(/^"|"$/g, ""), current);
    } else if (current && /^ {2}version:? /.test(raw)) {
      current.version = i + 1;
    }
  }
  return out;
}

/**
 * `yarn.lock`, classic (v1) and berry (v2+), read with Yarn's own parser (`@yarnpkg/parsers`):
 * every package whose resolved version the change adds or changes. The lockfile does not say
 * which packages are direct: the package.json beside it does, when it can be read, and gives
 * each transitive package the direct dependency that brought it in and its scope.
 *
 * @example yarnLockReader.read(file, headText, manifestText) // { pinned: [{ name: "minimist", version: "1.2.5", via: "mkdirp", ... }] }
 */
export const yarnLockReader: VersionReader = {
  kind: "yarn.lock",
  ecosystem: "npm",
  lockfile: true,
  manifest: "package.json",
  matches: (path) => baseName(path) === "yarn.lock",
  read(file, headText, manifestText) {
    const head = parsedHead(file, headText, parseSyml, (e) => `Yarn's parser refused it: ${thrown(e)}`);
    if ("unread" in head) return head;
    const lock = head.parsed as Record<string, unknown>;
    const lines = entryLines(head.text);
    const added = addedLineNumbers(file, head.text);
    const entries: { name: string; version: string; line: number; deps: string[] }[] = [];
    const seen = new Set<string>();
    for (const [key, value] of Object.entries(lock)) {
      if (key === "__metadata" || typeof value !== "object" || value === null) continue;
      const entry = value as { version?: unknown; resolution?: unknown; dependencies?: unknown };
      if (typeof entry.version !== "string") continue;
      if (typeof entry.resolution === "string" && /@(?:workspace|link|portal|file):/.test(entry.resolution)) continue;
      for (const descriptor of key.split(",")) {
        const d = descriptor.trim();
        const name = nameOf(d);
        const at = lines.get(d);
        const deps =
          typeof entry.dependencies === "object" && entry.dependencies !== null ? Object.keys(entry.dependencies) : [];
        if (seen.has(`${name}@${entry.version}`)) continue;
        seen.add(`${name}@${entry.version}`);
        entries.push({ name, version: entry.version, line: at?.version ?? at?.header ?? 0, deps });
        if (!isAdded(added, at?.header, at?.version)) entries.pop();
      }
    }
    const direct = directDependencies(manifestText);
    const graph = new Map<string, string[]>();
    for (const [key, value] of Object.entries(lock)) {
      const deps = (value as { dependencies?: unknown })?.dependencies;
      if (typeof deps !== "object" || deps === null) continue;
      for (const d of key.split(",")) graph.set(nameOf(d), [...(graph.get(nameOf(d)) ?? []), ...Object.keys(deps)]);
    }
    const reached = reachedFrom(graph, [...direct.keys()]);
    const pinned: PinnedDependency[] = entries.map((e) => {
      const { via, scope } = viaAndScope(e.name, reached, direct);
      return {
        ecosystem: "npm",
        name: e.name,
        version: e.version,
        file: file.filename,
        line: e.line || 1,
        scope: scope ?? "runtime",
        from: "lockfile",
        ...(via !== undefined ? { via } : {}),
      };
    });
    return { pinned };
  },
};
