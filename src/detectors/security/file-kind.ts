/**
 * Path and content tests the security detectors share: what is a test, a document, binary text.
 * Wider and narrower than src/ecosystems/file-kind.ts's on purpose: a detector also skips fixtures
 * and mocks, and skips prose by its extension only (a program kept under docs/ is still read).
 *
 * @example isTestPath("src/auth/login.test.ts") // true
 */
export function isTestPath(path: string): boolean {
  return (
    /(^|\/)(test|tests|__tests__|spec|specs|fixtures|__fixtures__|__mocks__|testdata)\//i.test(path) ||
    /[._-](test|spec)\.[a-z0-9]+$/i.test(path) ||
    /(^|\/)test_[^/]+\.py$/i.test(path)
  );
}

/**
 * True for prose files (Markdown, reStructuredText, plain text), which hold no executable code.
 *
 * @example isDocPath("docs/setup.md") // true
 */
export function isDocPath(path: string): boolean {
  return /\.(md|markdown|mdx|rst|txt|adoc)$/i.test(path);
}

/**
 * True when text looks binary (a NUL byte or many control characters): detectors skip it.
 *
 * @example looksBinary("PNG\u0000\u0001") // true
 */
export function looksBinary(text: string): boolean {
  if (text.includes("\u0000")) return true;
  const sample = text.slice(0, 4000);
  if (sample.length === 0) return false;
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (code < 9 || (code > 13 && code < 32)) control++;
  }
  return control / sample.length > 0.1;
}

/**
 * The language family of a file by extension, for rules that differ between JS and Python.
 *
 * @example languageOf("app/db.py") // "python"
 */
export function languageOf(path: string): "js" | "python" | "other" {
  if (/\.(c|m)?(j|t)sx?$/i.test(path)) return "js";
  if (/\.py$/i.test(path)) return "python";
  return "other";
}

/**
 * The changed files a code detector reads line by line: those that still exist, have a diff, and
 * are not prose.
 *
 * @example [...codeChanges(pr.files)].map((f) => f.filename) // ["src/db.ts"] (not README.md, not a removed file)
 */
export function* codeChanges<F extends { status: string; patch?: string; filename: string }>(
  files: readonly F[],
): Generator<F & { patch: string }> {
  for (const file of files) {
    if (file.status === "removed" || !file.patch || isDocPath(file.filename)) continue;
    yield file as F & { patch: string };
  }
}
