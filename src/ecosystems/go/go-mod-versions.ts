import { changesThrough } from "../dependency-reading.js";
import { goModParser } from "./go-mod.js";
import type { PinnedDependency, VersionReader } from "../common/pinned-dependency.js";

/**
 * `go.mod`: each `require` the change adds or changes, at the exact version it names (Go's
 * minimal version selection builds with it unless another module requires a later one); a
 * `// indirect` requirement is transitive, with no direct dependency named.
 *
 * @example goModReader.read(file, headText) // { pinned: [{ name: "golang.org/x/net", version: "v0.16.0", ... }] }
 */
export const goModReader: VersionReader = {
  kind: goModParser.kind,
  ecosystem: "go",
  lockfile: false,
  matches: (path) => goModParser.matches(path),
  read(file, headText, _manifest, reading) {
    const pinned: PinnedDependency[] = [];
    for (const change of changesThrough(reading, goModParser, file, headText)) {
      if (change.version === undefined || change.kind === "scope_changed") continue;
      pinned.push({
        ecosystem: "go",
        name: change.name,
        version: change.version,
        file: change.file,
        line: change.line,
        scope: "runtime",
        from: "pin",
        ...(change.previousVersion !== undefined ? { previousVersion: change.previousVersion } : {}),
      });
    }
    return { pinned };
  },
};
