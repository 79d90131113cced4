import { normalizePackageName } from "../../licenses/offline-resolver.js";
import { baseName, type ManifestParser } from "../common/manifest-parser.js";
import { parseRequirement } from "./pep508.js";

/** A requirements file: `requirements.txt`, `requirements-dev.txt`, `dev-requirements.txt`, `requirements/test.txt`, pip-tools `.in`. */
const REQUIREMENTS_FILE = /requirements[^/]*\.(?:txt|in)$/i;
/** A file or folder name that marks development-only requirements. */
const DEV_NAME = /(?:^|[-_.])(?:dev|develop|development|test|tests|testing|lint|docs|ci)(?:[-_.]|$)/i;

function isRequirementsPath(path: string): boolean {
  if (REQUIREMENTS_FILE.test(baseName(path))) return true;
  const parts = path.split("/");
  return parts.length >= 2 && parts[parts.length - 2] === "requirements" && /\.(?:txt|in)$/.test(path);
}

/**
 * pip requirements files. There are no sections: the file's name says whether it is for
 * development (`requirements-dev.txt`, `dev-requirements.txt`, `requirements/test.txt`).
 *
 * @example requirementsTxtParser.parseLine("requests==2.31.0  # http", "(file)") // [{ name: "requests", version: "2.31.0" }]
 */
export const requirementsTxtParser: ManifestParser = {
  kind: "requirements",
  ecosystem: "pypi",
  matches: isRequirementsPath,
  sectionAtStart: () => "(file)",
  nextSection: (section) => section,
  parseLine(text) {
    const line = text
      .replace(/(?:^|\s)#.*$/, "")
      .replace(/\\$/, "")
      .trim();
    if (line === "" || line.startsWith("-")) return []; // options: -r, -c, -e, --index-url, --hash
    const dep = parseRequirement(line.replace(/\s--hash=\S+/g, ""));
    return dep ? [dep] : [];
  },
  scopeOf: (_section, path) => (DEV_NAME.test(baseName(path).replace(/\.(?:txt|in)$/i, "")) ? "dev" : "runtime"),
  readHead: () => undefined,
  normalizeName: (name) => normalizePackageName("pypi", name),
};
