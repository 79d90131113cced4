import fs from "node:fs";
import path from "node:path";
import { GateError } from "../domain/errors.js";
import { splitFixturePath } from "../fixture/fixture.js";
import { suggestNames } from "../fixture/suggest-names.js";
import { BUNDLED_FIXTURES_DIR } from "../package-paths.js";

/** The fixtures shipped with the package: folders holding a pr.json. */
function bundledFixtureNames(): string[] {
  return fs
    .readdirSync(BUNDLED_FIXTURES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(BUNDLED_FIXTURES_DIR, d.name, "pr.json")))
    .map((d) => d.name);
}

/**
 * A fixture argument as a folder: a path from the working directory, else a fixture shipped
 * with the package (`gate review 001_readme_typo` works wherever it is installed). A name that is
 * neither is refused, with the bundled names it most likely meant ("did you mean …").
 */
export function resolveFixtureArg(arg: string, cwd = process.cwd()): { fixturesDir: string; name: string } {
  const local = path.resolve(cwd, arg);
  if (fs.existsSync(local)) return splitFixturePath(local);
  const bundled = path.join(BUNDLED_FIXTURES_DIR, path.basename(arg));
  if (fs.existsSync(bundled)) return splitFixturePath(bundled);
  const found = splitFixturePath(local); // validates the name before it is compared with anything
  const near = suggestNames(found.name, bundledFixtureNames());
  throw new GateError(
    "FIXTURE_NOT_FOUND",
    `no fixture ${JSON.stringify(arg)}: no such folder from ${cwd}, and no bundled fixture of that name` +
      (near.length > 0 ? `; did you mean ${near.join(", ")}?` : ""),
  );
}
