import { defaultLicenseRules, type LicenseRules } from "../../src/gate-file/effective.js";
import type { DetectContext } from "../../src/detectors/detector.js";
import type { HeadFiles } from "../../src/domain/head-files.js";
import type { Ecosystem, LicenseResolver } from "../../src/domain/license-resolver.js";
import { parsePatch } from "../../src/domain/patch.js";
import type { ChangedFile, FileStatus, PullRequest } from "../../src/domain/pull-request.js";

/** A changed file as a test writes it: a name, a patch, and optionally a status or old name. */
export interface FileSpec {
  filename: string;
  patch?: string;
  status?: FileStatus;
  previousFilename?: string;
}

/**
 * Builds a `PullRequest` for tests; additions/deletions are counted from each patch.
 *
 * @example buildPr({ files: [{ filename: "a.ts", patch: "@@ -0,0 +1 @@\n+x" }], title: "Add a" })
 */
export function buildPr(spec: { files?: FileSpec[] } & Partial<Omit<PullRequest, "files">> = {}): PullRequest {
  const { files = [], ...overrides } = spec;
  const repo = overrides.repo ?? "acme/payments-api";
  const number = overrides.number ?? 1;
  return {
    repo,
    number,
    title: "Test change",
    body: "",
    author: "octocat",
    draft: false,
    labels: [],
    baseRef: "main",
    baseSha: "a".repeat(40),
    headRef: "feature",
    headSha: "b".repeat(40),
    url: `https://github.com/${repo}/pull/${number}`,
    ...overrides,
    files: files.map(changedFile),
  };
}

function changedFile(f: FileSpec): ChangedFile {
  const lines = parsePatch(f.patch);
  const additions = lines.filter((l) => l.kind === "add").length;
  const deletions = lines.filter((l) => l.kind === "del").length;
  return {
    filename: f.filename,
    status: f.status ?? (f.patch?.startsWith("@@ -0,0 ") ? "added" : "modified"),
    additions,
    deletions,
    changes: additions + deletions,
    ...(f.patch !== undefined ? { patch: f.patch } : {}),
    ...(f.previousFilename !== undefined ? { previousFilename: f.previousFilename } : {}),
  };
}

/**
 * A patch that adds `lines` to a new file (GitHub's shape for an added file).
 *
 * @example addedFilePatch(["a", "b"]) // "@@ -0,0 +1,2 @@\n+a\n+b"
 */
export function addedFilePatch(lines: string[]): string {
  return [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join("\n");
}

/**
 * Head files from a path → text map; anything else reads as undefined.
 *
 * @example await headFiles({ "a.txt": "hi" }).read("a.txt") // "hi"
 */
export function headFiles(map: Record<string, string> = {}): HeadFiles {
  return { read: async (path) => (Object.hasOwn(map, path) ? map[path] : undefined) };
}

/**
 * A licence resolver over a registry.json-style map: `{ "npm:left-pad": { license: "MIT" } }`.
 *
 * @example await offlineLicenses({ "npm:x": { license: "MIT" } }).lookup("npm", "x") // { status: "found", license: "MIT" }
 */
export function offlineLicenses(map: Record<string, { license?: string }> = {}): LicenseResolver {
  return {
    lookup: async (ecosystem: Ecosystem, name: string) => {
      const key = `${ecosystem}:${name}`;
      const license = Object.hasOwn(map, key) ? map[key]?.license : undefined;
      return license ? { status: "found", license } : { status: "unknown" };
    },
  };
}

/**
 * A detect context for a PR, with optional head files and licences. What a detector records as
 * not read goes to `options.notRead` when given; otherwise it fails the test (no cap expected).
 *
 * @example detectContext(buildPr(), { head: headFiles({ "a.ts": "x" }) })
 */
export function detectContext(
  pr: PullRequest,
  options: {
    head?: HeadFiles;
    licenses?: LicenseResolver;
    licenseRules?: LicenseRules;
    notRead?: Array<{ file: string; detail: string }>;
  } = {},
): DetectContext {
  return {
    pr,
    head: options.head ?? headFiles(),
    licenses: options.licenses ?? offlineLicenses(),
    licenseRules: options.licenseRules ?? defaultLicenseRules(),
    notRead(file, detail) {
      if (!options.notRead) throw new Error(`unexpected gap in ${file}: ${detail}`);
      options.notRead.push({ file, detail });
    },
  };
}

/**
 * The head lines of a detector's findings for a PR that adds one file.
 *
 * @example await addedFileFindingLines(injectionDetector, "app.py", ["os.system('ls ' + x)"]) // [1]
 */
export async function addedFileFindingLines(
  detector: { detect(ctx: DetectContext): Promise<Array<{ line?: number | undefined }>> },
  filename: string,
  lines: string[],
): Promise<number[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  return (await detector.detect(detectContext(pr))).map((f) => f.line ?? 0);
}
