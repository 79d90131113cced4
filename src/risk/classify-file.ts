import type { ChangedFile } from "../domain/pull-request.js";
import { addedLines, removedLines } from "../domain/patch.js";
import { isAuthPath, isDocsPath, isTestPath } from "../ecosystems/file-kind.js";
import { isLockfile, isManifest } from "../ecosystems/index.js";

/** What kind of change a file is, for the risk gate. */
export type ChangeKind = "docs" | "tests" | "deps" | "deps_version" | "ci" | "auth" | "config" | "code" | "rename";

const CI =
  /(^|\/)(\.github\/workflows\/|\.github\/actions\/|\.gitlab-ci\.yml$|\.circleci\/|Jenkinsfile$|azure-pipelines\.yml$|\.buildkite\/)/;
const CONFIG =
  /\.(ya?ml|json|toml|ini|cfg|conf|env|properties|tf|hcl)$|(^|\/)(Dockerfile|\.env[^/]*|docker-compose[^/]*)$/i;

/** Content hashes that change with every version: npm/yarn integrity, go.sum h1:, hex digests. */
const HASHES = /\b(sha\d+|md5)[-:][A-Za-z0-9+/]+=*|\bh1:[A-Za-z0-9+/]+=*|\b[0-9a-f]{32,}\b/g;

/** A manifest or lockfile edit where every added line is an existing entry with another version. */
function versionOnly(file: ChangedFile): boolean {
  const strip = (t: string) =>
    t
      .replace(HASHES, "")
      .replace(/[\s"',]/g, "")
      .replace(/[=:@^~<>!]*v?\d[\w.+*-]*/g, "");
  const added = addedLines(file.patch)
    .map((l) => strip(l.text))
    .filter((t) => t.length > 0);
  const removed = new Set(removedLines(file.patch).map((l) => strip(l.text)));
  return added.length > 0 && added.every((t) => removed.has(t));
}

/**
 * Classifies one changed file.
 *
 * @example classifyFile({ filename: "README.md", status: "modified", ... }) // "docs"
 */
export function classifyFile(file: ChangedFile): ChangeKind {
  const name = file.filename;
  if (CI.test(name)) return "ci";
  // Where these files are gives them effect (a workflow runs, a manifest installs): a rename counts.
  // Manifests and lockfiles are those of the registered ecosystems (src/ecosystems/).
  if (isManifest(name) || isLockfile(name)) return file.patch && versionOnly(file) ? "deps_version" : "deps";
  if (file.status === "renamed" && file.changes === 0) return "rename";
  if (isTestPath(name)) return "tests";
  if (isDocsPath(name)) return "docs";
  if (isAuthPath(name)) return "auth";
  if (CONFIG.test(name)) return "config";
  return "code";
}
