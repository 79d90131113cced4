import { baseName, type DependencyScope } from "../common/manifest-parser.js";
import {
  addedLineNumbers,
  isAdded,
  isObj,
  parsedHead,
  thrown,
  type PinnedDependency,
  type VersionReader,
} from "../common/pinned-dependency.js";

/** The line of each `"name": "vendor/package"` in a composer.lock, in file order, with the version line after it. */
function composerLines(text: string): Map<string, { name: number; version?: number }> {
  const out = new Map<string, { name: number; version?: number }>();
  let current: string | undefined;
  for (const [i, raw] of text.split("\n").entries()) {
    const name = /^\s*"name":\s*"([^"]+)"/.exec(raw)?.[1];
    if (name) {
      current = name;
      if (!out.has(name)) out.set(name, { name: i + 1 });
      continue;
    }
    const entry = current ? out.get(current) : undefined;
    if (entry && entry.version === undefined && /^\s*"version":/.test(raw)) entry.version = i + 1;
  }
  return out;
}

/**
 * `composer.lock`: every package the change adds or moves, at its locked version; `packages` are
 * runtime and `packages-dev` development, as Composer installs them (`--no-dev`). A leading `v`
 * of the version is dropped (Packagist's advisories name versions without it).
 *
 * @example composerLockReader.read(file, headText) // { pinned: [{ name: "guzzlehttp/psr7", version: "1.8.2", scope: "runtime", ... }] }
 */
export const composerLockReader: VersionReader = {
  kind: "composer.lock",
  ecosystem: "composer",
  lockfile: true,
  matches: (path) => baseName(path) === "composer.lock",
  read(file, headText) {
    const head = parsedHead(file, headText, JSON.parse, (e) => `it is not JSON: ${thrown(e)}`);
    if ("unread" in head) return head;
    const doc = head.parsed;
    if (!isObj(doc)) return { unread: { file: file.filename, why: "it is not a JSON object" } };
    const lines = composerLines(head.text);
    const added = addedLineNumbers(file, head.text);
    const pinned: PinnedDependency[] = [];
    for (const [key, scope] of [
      ["packages", "runtime"],
      ["packages-dev", "dev"],
    ] as const) {
      for (const p of Array.isArray(doc[key]) ? doc[key] : []) {
        if (!isObj(p) || typeof p.name !== "string" || typeof p.version !== "string") continue;
        if (/^dev-|\.x-dev$/.test(p.version)) continue; // a branch, not a release: no advisory names it
        const at = lines.get(p.name);
        if (!at || !isAdded(added, at.name, at.version)) continue;
        pinned.push({
          ecosystem: "composer",
          name: p.name,
          version: p.version.replace(/^v/, ""),
          file: file.filename,
          line: at.version ?? at.name,
          scope: scope as DependencyScope,
          from: "lockfile",
        });
      }
    }
    return { pinned };
  },
};
