import { tomlLockReader } from "../common/toml-locks.js";

/**
 * `Cargo.lock`: every crates.io package whose version the change adds or changes, with the
 * workspace member's dependency that brought it in. Cargo has no dev scope in its lockfile.
 *
 * @example cargoLockReader.read(file, headText) // { pinned: [{ name: "smallvec", version: "1.6.0", ... }] }
 */
export const cargoLockReader = tomlLockReader({
  kind: "Cargo.lock",
  ecosystem: "cargo",
  file: "Cargo.lock",
  fromRegistry: (p) => typeof p.source === "string" && p.source.startsWith("registry+"),
  isRoot: (p) => p.source === undefined,
});
