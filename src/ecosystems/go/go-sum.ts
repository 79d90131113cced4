import { versionOrder } from "../common/version-order.js";
import { addedLineNumbers, isAdded, type PinnedDependency, type VersionReader } from "../common/pinned-dependency.js";
import { goModParser } from "./go-mod.js";

/** One module version whose code `go.sum` holds a hash of (not only its `go.mod`). */
interface SumEntry {
  module: string;
  version: string;
  line: number;
}

/** The `<module> <version> h1:…` lines of a go.sum, leaving out `<version>/go.mod` ones. */
function codeEntries(text: string): SumEntry[] {
  const out: SumEntry[] = [];
  for (const [i, raw] of text.split("\n").entries()) {
    const [module, version] = raw.trim().split(/\s+/);
    if (!module || !version || version.endsWith("/go.mod")) continue;
    out.push({ module, version, line: i + 1 });
  }
  return out;
}

/** The modules `go.mod` requires without `// indirect` (in a block or one per line): the project's own dependencies. */
function directModules(goMod: string | undefined): Set<string> {
  const out = new Set<string>();
  let inRequire = false;
  for (const raw of (goMod ?? "").split("\n")) {
    const line = raw.trim();
    if (/^require\s*\($/.test(line)) inRequire = true;
    else if (inRequire && line === ")") inRequire = false;
    const entry = inRequire ? line : /^require\s+(.*)$/.exec(line)?.[1];
    const module = entry && !entry.includes("// indirect") ? /^(\S+)\s+v\S+/.exec(entry)?.[1] : undefined;
    if (module) out.add(module);
  }
  return out;
}

/**
 * `go.sum`: every module version whose code the build downloads, at the highest version the file
 * holds for that module (the one minimal version selection builds with; lower ones are kept for
 * the module graph only). A module counts when the change adds its line. A module `go.mod`
 * requires without `// indirect` is direct; the rest are transitive, and go.sum does not say which
 * direct dependency brought them in. A version semver cannot read is compared as text.
 *
 * @example goSumReader.read(file, headText, goModText) // { pinned: [{ name: "golang.org/x/net", version: "v0.16.0", ... }] }
 */
export const goSumReader: VersionReader = {
  kind: "go.sum",
  ecosystem: "go",
  lockfile: true,
  manifest: goModParser.kind,
  matches: (path) => /(^|\/)go\.sum$/.test(path),
  read(file, headText, goMod) {
    if (headText === undefined) return { unread: { file: file.filename, why: "its head version could not be read" } };
    const go = versionOrder("go");
    const newest = new Map<string, SumEntry>();
    for (const e of codeEntries(headText)) {
      const seen = newest.get(e.module);
      const later = (a: string, b: string) => {
        const [x, y] = [go.read(a), go.read(b)];
        return x && y ? go.compare(x, y) > 0 : a > b;
      };
      if (!seen || later(e.version, seen.version)) newest.set(e.module, e);
    }
    const added = addedLineNumbers(file, headText);
    const direct = directModules(goMod);
    const pinned: PinnedDependency[] = [];
    for (const e of newest.values()) {
      if (!isAdded(added, e.line)) continue;
      pinned.push({
        ecosystem: "go",
        name: e.module,
        version: e.version,
        file: file.filename,
        line: e.line,
        scope: "runtime",
        from: "lockfile",
        ...(direct.size > 0 && !direct.has(e.module)
          ? { via: "a module go.mod requires (go.sum does not say which)" }
          : {}),
      });
    }
    return { pinned: pinned.sort((a, b) => a.line - b.line) };
  },
};
