import { codeLanguage, sanitizeCode } from "../../detectors/code-lines.js";

/** One numbered line of a file, as the tools show it. */
export interface SourceLine {
  file: string;
  line: number;
  text: string;
}

/**
 * Parses `read_file` output (a `#` header, then `<n>\t<text>` lines) back into numbered lines.
 *
 * @example parseReadOutput("src/a.ts", "# src/a.ts: 9 chars, 1 lines\n1\tconst a;") // [{ file: "src/a.ts", line: 1, text: "const a;" }]
 */
export function parseReadOutput(file: string, output: string): SourceLine[] {
  const lines: SourceLine[] = [];
  for (const raw of output.split("\n")) {
    const m = /^(\d+)\t(.*)$/.exec(raw);
    if (m) lines.push({ file, line: Number(m[1]), text: m[2] ?? "" });
  }
  return lines;
}

/**
 * Parses `grep_repo` output (`path:line:text` lines) into hits; comment lines are skipped.
 *
 * @example parseGrepOutput("src/a.ts:3:foo()") // [{ file: "src/a.ts", line: 3, text: "foo()" }]
 */
export function parseGrepOutput(output: string): SourceLine[] {
  const hits: SourceLine[] = [];
  for (const raw of output.split("\n")) {
    const m = /^([^:\n]+):(\d+):(.*)$/.exec(raw);
    if (m && !raw.startsWith("#")) hits.push({ file: m[1] ?? "", line: Number(m[2]), text: m[3] ?? "" });
  }
  return hits;
}

/** A short quote of a line for evidence and answers: trimmed, at most 160 characters. */
export function excerpt(text: string): string {
  const t = text.trim();
  return t.length > 160 ? `${t.slice(0, 157)}...` : t;
}

/**
 * The code of a line with string literals blanked (template `${…}` parts kept) and comments
 * dropped, so that words in messages ("token expired") are not mistaken for data. The detectors'
 * lexer (`sanitizeCode`), in the file's language (JavaScript's rules when it is unknown).
 *
 * @example stripStrings('log("token", { id })') // 'log("", { id })'
 */
export function stripStrings(text: string, file?: string): string {
  return sanitizeCode(text, (file !== undefined ? codeLanguage(file) : undefined) ?? "js");
}
