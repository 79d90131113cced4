import { source, tomlLockReader } from "../common/toml-locks.js";

/**
 * `poetry.lock`: every package whose version the change adds or changes; dev where the lockfile's
 * `category` says so (Poetry before 1.5; later files do not say, and count as runtime).
 *
 * @example poetryLockReader.read(file, headText) // { pinned: [{ name: "pyyaml", version: "5.3.1", ... }] }
 */
export const poetryLockReader = tomlLockReader({
  kind: "poetry.lock",
  ecosystem: "pypi",
  file: "poetry.lock",
  fromRegistry: (p) => !["directory", "file", "git", "url"].includes(String(source(p).type ?? "")),
  isRoot: () => false,
  scopeOf: (p) => (p.category === "dev" ? "dev" : undefined),
});

/**
 * `uv.lock`: every registry package whose version the change adds or changes, with the project's
 * dependency that brought it in.
 *
 * @example uvLockReader.read(file, headText) // { pinned: [{ name: "pyyaml", version: "5.3.1", via: "myapp's dependency", ... }] }
 */
export const uvLockReader = tomlLockReader({
  kind: "uv.lock",
  ecosystem: "pypi",
  file: "uv.lock",
  fromRegistry: (p) => typeof source(p).registry === "string",
  isRoot: (p) => source(p).virtual !== undefined || source(p).editable !== undefined,
});
