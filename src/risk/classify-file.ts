import type { ChangedFile } from "../intake/pull-request.js";
import { addedLines, removedLines } from "../intake/patch.js";

/** What kind of change a file is, for the risk gate. */
export type ChangeKind = "docs" | "tests" | "deps" | "deps_version" | "ci" | "auth" | "config" | "code" | "rename";

const MANIFEST = /(^|\/)(package\.json|requirements[^/]*\.txt|pyproject\.toml|go\.mod|Cargo\.toml|Gemfile|pom\.xml|build\.gradle(\.kts)?|composer\.json)$/;
const LOCKFILE = /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|Pipfile\.lock|go\.sum|Cargo\.lock|Gemfile\.lock|composer\.lock)$/;
const CI = /(^|\/)(\.github\/workflows\/|\.github\/actions\/|\.gitlab-ci\.yml$|\.circleci\/|Jenkinsfile$|azure-pipelines\.yml$|\.buildkite\/)/;
const TESTS = /(^|\/)(tests?|__tests__|spec|specs)\/|\.(test|spec)\.[cm]?[jt]sx?$|_test\.(go|py)$|(^|\/)test_[^/]+\.py$/;
const DOCS = /(^|\/)(docs?)\/|\.(md|mdx|rst|adoc|txt)$|(^|\/)(CHANGELOG|AUTHORS|CONTRIBUTORS)(\.|$)/i;
const AUTH = /(^|[\/_.-])(auth|authn|authz|session|sessions|login|logout|password|passwd|jwt|oauth|oidc|saml|passport|token|tokens|permission|permissions|acl|rbac|crypto)([\/_.-]|s?\.|$)/i;
const CONFIG = /\.(ya?ml|json|toml|ini|cfg|conf|env|properties|tf|hcl)$|(^|\/)(Dockerfile|\.env[^/]*|docker-compose[^/]*)$/i;

/** A manifest edit where every added line is an existing entry with another version. */
function versionOnly(file: ChangedFile): boolean {
  const strip = (t: string) => t.replace(/[\s"',]/g, "").replace(/[=:@^~<>!]*v?\d[\w.+*-]*/g, "");
  const added = addedLines(file.patch).map((l) => strip(l.text)).filter((t) => t.length > 0);
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
  if (file.status === "renamed" && file.changes === 0) return "rename";
  if (CI.test(name)) return "ci";
  if (MANIFEST.test(name)) return file.patch && versionOnly(file) ? "deps_version" : "deps";
  if (LOCKFILE.test(name)) return "deps_version";
  if (TESTS.test(name)) return "tests";
  if (DOCS.test(name) && !/requirements/i.test(name)) return "docs";
  if (AUTH.test(name)) return "auth";
  if (CONFIG.test(name)) return "config";
  return "code";
}
