/*
 * What a repository path is, by its path alone, written once: a workflow, a vendored copy, a test,
 * documentation, an auth path, code (with its language). Manifests and lockfiles are their
 * ecosystems' (`isManifest`, `isLockfile` in ./index.ts). The risk score
 * (src/risk/classify-file.ts), the coverage ledger (src/coverage/ledger-kind.ts) and the moved-files
 * rule (src/coverage/moved-files.ts) ask the predicates below, each in its own order.
 */

/** Programming languages by file extension (lower case, without the dot). */
const CODE_EXTENSIONS: Record<string, string> = {
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "typescript",
  vue: "vue",
  svelte: "svelte",
  py: "python",
  pyw: "python",
  pyx: "cython",
  go: "go",
  java: "java",
  kt: "kotlin",
  kts: "kotlin",
  scala: "scala",
  groovy: "groovy",
  cs: "csharp",
  vb: "visual-basic",
  fs: "fsharp",
  php: "php",
  phtml: "php",
  rb: "ruby",
  erb: "ruby",
  rake: "ruby",
  rs: "rust",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  hh: "cpp",
  m: "objective-c",
  mm: "objective-c",
  swift: "swift",
  dart: "dart",
  pl: "perl",
  pm: "perl",
  cgi: "perl",
  t: "perl",
  lua: "lua",
  r: "r",
  jl: "julia",
  ex: "elixir",
  exs: "elixir",
  erl: "erlang",
  hs: "haskell",
  clj: "clojure",
  cljs: "clojure",
  ml: "ocaml",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  ksh: "shell",
  fish: "shell",
  ps1: "powershell",
  psm1: "powershell",
  bat: "batch",
  cmd: "batch",
  tcl: "tcl",
  zig: "zig",
  nim: "nim",
  sol: "solidity",
};

/** CI/CD definitions: GitHub Actions workflows and actions. */
const WORKFLOW = /(^|\/)\.github\/(workflows|actions)\/|(^|\/)action\.ya?ml$/;
/** Copies of someone else's code kept in the repository. */
const VENDORED = /(^|\/)(vendor|vendored|third[_-]party|3rdparty|external|extern)\//;
const TESTS =
  /(^|\/)(tests?|__tests__|spec|specs)\/|\.(test|spec)\.[cm]?[jt]sx?$|_test\.(go|py)$|(^|\/)test_[^/]+\.py$/;
const DOCS = /(^|\/)(docs?)\/|\.(md|mdx|rst|adoc|txt)$|(^|\/)(CHANGELOG|AUTHORS|CONTRIBUTORS)(\.|$)/i;
/** Code and build files: under a docs folder they still run, so they are not "docs". */
const NOT_DOCS =
  /\.(c|cc|cpp|h|hpp|cs|go|java|kt|kts|[cm]?[jt]sx?|php|py|rb|rs|scala|swift|sh|bash|zsh|ps1|pl|lua|sql|gradle)$|(^|\/)(Dockerfile[^/]*|Makefile|CMakeLists\.txt)$/i;
/** Paths whose words say authentication, sessions, secrets or permissions. */
const AUTH =
  /(^|[/_.-])(auth|authn|authz|session|sessions|login|logout|password|passwd|jwt|oauth|oidc|saml|passport|token|tokens|permission|permissions|acl|rbac|crypto)([/_.-]|s?\.|$)/i;

/**
 * Whether a path is a GitHub Actions workflow or action.
 *
 * @example isWorkflowPath(".github/workflows/ci.yml") // true
 */
export const isWorkflowPath = (path: string): boolean => WORKFLOW.test(path);

/**
 * Whether a path lies in a vendored folder (`vendor/`, `third_party/`, `external/`, ...).
 *
 * @example isVendoredPath("vendor/github.com/pkg/errors/errors.go") // true
 */
export const isVendoredPath = (path: string): boolean => VENDORED.test(path);

/**
 * Whether a path is a test by its name or folder.
 *
 * @example isTestPath("src/cart.test.ts") // true
 */
export const isTestPath = (path: string): boolean => TESTS.test(path);

/**
 * Whether a path is documentation: a docs folder or a text format, but not code or a build file
 * kept there, nor a requirements file.
 *
 * @example isDocsPath("docs/setup.md") // true
 * @example isDocsPath("docs/conf.py") // false
 */
export const isDocsPath = (path: string): boolean =>
  DOCS.test(path) && !/requirements/i.test(path) && !NOT_DOCS.test(path);

/**
 * Whether a path's words say authentication, sessions, secrets or permissions.
 *
 * @example isAuthPath("src/auth/session.ts") // true
 */
export const isAuthPath = (path: string): boolean => AUTH.test(path);

/**
 * The programming language of a path by its extension, or undefined.
 *
 * @example languageOf("cgi-bin/run.pl") // "perl"
 */
export function languageOf(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? CODE_EXTENSIONS[base.slice(dot + 1).toLowerCase()] : undefined;
}
