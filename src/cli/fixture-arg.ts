import fs from "node:fs";
import path from "node:path";
import { BUNDLED_FIXTURES_DIR } from "../package-paths.js";
import { splitFixturePath } from "../fixture/fixture.js";

/**
 * A fixture argument as a folder: a path from the working directory, else a fixture shipped
 * with the package (`gate review 001_readme_typo` works wherever it is installed).
 */
export function resolveFixtureArg(arg: string, cwd = process.cwd()): { fixturesDir: string; name: string } {
  const local = path.resolve(cwd, arg);
  if (fs.existsSync(local)) return splitFixturePath(local);
  const bundled = path.join(BUNDLED_FIXTURES_DIR, path.basename(arg));
  if (fs.existsSync(bundled)) return splitFixturePath(bundled);
  return splitFixturePath(local); // validates the name; the loader then names the missing file
}
