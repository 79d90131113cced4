import fs from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "./package-paths.js";

let version: string | undefined;

/**
 * The package's version, as its package.json says (read once, found from the package's own
 * location, like its other assets).
 *
 * @example packageVersion() // "0.2.0"
 */
export function packageVersion(): string {
  if (version === undefined) {
    const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version?: unknown };
    if (typeof pkg.version !== "string") throw new Error(`${PACKAGE_ROOT}/package.json has no version`);
    version = pkg.version;
  }
  return version;
}
