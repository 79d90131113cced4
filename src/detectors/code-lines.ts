/**
 * Reading code lines for the detectors: the language of a file, a line with its string literals
 * and comments blanked (so only code is judged), and the arguments of a call across lines.
 *
 * @example sanitizeCode('log("email")', "js") // 'log("")'
 */
import { LINE_FAMILIES, sanitizeFamilyLine, type TabledFamily } from "./code-line-families.js";

/**
 * Source languages the detectors read, by how they write strings and comments. Kotlin, C#, Rust,
 * shell, Scala, Swift, Dart, Elixir and Lua each splice values into strings (or comment) their own
 * way (`"$x"`, `$"{x}"`, `"{x}"`, `"\(x)"`, `-- x`), so each is a family of its own; Java, C and
 * C++ read as "c-like".
 */
export type CodeLanguage = "js" | "python" | "ruby" | "go" | "c-like" | "php" | TabledFamily;

/**
 * The language family of a source file, or undefined for anything that is not code.
 *
 * @example codeLanguage("api/users.py") // "python"
 */
export function codeLanguage(path: string): CodeLanguage | undefined {
  if (/\.(c|m)?(j|t)sx?$|\.(vue|svelte)$/i.test(path)) return "js";
  if (/\.py$/i.test(path)) return "python";
  if (/\.rb$/i.test(path)) return "ruby";
  if (/\.go$/i.test(path)) return "go";
  if (/\.php$/i.test(path)) return "php";
  if (/\.kts?$/i.test(path)) return "kotlin";
  if (/\.cs$/i.test(path)) return "csharp";
  if (/\.rs$/i.test(path)) return "rust";
  if (/\.(sh|bash)$/i.test(path)) return "shell";
  if (/\.(scala|sc)$/i.test(path)) return "scala";
  if (/\.swift$/i.test(path)) return "swift";
  if (/\.dart$/i.test(path)) return "dart";
  if (/\.exs?$/i.test(path)) return "elixir";
  if (/\.lua$/i.test(path)) return "lua";
  if (/\.(java|c|cc|cpp|cxx|h|hh|hpp|hxx)$/i.test(path)) return "c-like";
  return undefined;
}

/**
 * Rewrites `obj["email"]`, `headers.get("Authorization")`, `req.header("x-api-key")` as member
 * access, so that a key written as a string is still seen.
 */
function keysAsMembers(line: string): string {
  const key = (k: string) => `.${k.replace(/-/g, "_")}`;
  return line
    .replace(/\[\s*(["'])([A-Za-z_][\w-]*)\1\s*\]/g, (_m, _q: string, k: string) => key(k))
    .replace(/\.(?:get|getHeader|header)\(\s*(["'])([A-Za-z_][\w-]*)\1\s*\)/g, (_m, _q: string, k: string) => key(k));
}

/**
 * Keys the newer families write as calls or symbols, read as members too: Ruby's `params[:email]`,
 * PHP's `$request->input('email')`, Java's `request.getParameter("email")`.
 */
const FAMILY_KEYS: Partial<Record<CodeLanguage, (line: string) => string>> = {
  ruby: (line) =>
    line
      .replace(/\[\s*:([A-Za-z_]\w*)\s*\]/g, ".$1")
      .replace(/\.fetch\(\s*(?::|(["']))([A-Za-z_]\w*)\1?\s*\)/g, (_m, _q, k: string) => `.${k}`),
  php: (line) =>
    line.replace(
      /(\??->)(?:input|get|query|post|header|cookie|json)\(\s*(["'])([A-Za-z_][\w-]*)\2\s*\)/g,
      (_m, arrow: string, _q: string, k: string) => `${arrow}${k.replace(/-/g, "_")}`,
    ),
  "c-like": (line) =>
    line.replace(
      /\.(?:getParameter|getAttribute)\(\s*"([A-Za-z_][\w-]*)"\s*\)/g,
      (_m, k: string) => `.${k.replace(/-/g, "_")}`,
    ),
};

const SPECIAL = /["'`/#]/g;

/**
 * One line of source reduced to its code: string literals emptied (template and f-string
 * interpolations kept), comments dropped, string keys turned into member access.
 *
 * @example sanitizeCode('log.info(`hi ${user.email}`) // note', "js") // 'log.info(` user.email `) '
 */
export function sanitizeCode(line: string, lang: CodeLanguage): string {
  const familyKeys = FAMILY_KEYS[lang];
  const src = familyKeys ? familyKeys(keysAsMembers(line)) : keysAsMembers(line);
  if (lang in LINE_FAMILIES) return sanitizeFamilyLine(src, LINE_FAMILIES[lang as TabledFamily]);
  const trimmed = src.trimStart();
  if (/^(\*|\/\*)/.test(trimmed) && lang !== "python" && lang !== "ruby") return "";
  const hashComments = lang === "python" || lang === "ruby" || lang === "php";
  let out = "";
  let i = 0;
  while (i < src.length) {
    // Copy plain code up to the next quote or comment start in one piece.
    SPECIAL.lastIndex = i;
    const next = SPECIAL.exec(src)?.index ?? src.length;
    out += src.slice(i, next);
    i = next;
    if (i >= src.length) break;
    const ch = src[i] ?? "";
    if (ch === "/" && src[i + 1] === "/" && lang !== "python" && lang !== "ruby") break;
    if (ch === "#" && hashComments) break;
    if (ch === "/" && src[i + 1] === "*" && lang !== "python" && lang !== "ruby") {
      const end = src.indexOf("*/", i + 2);
      if (end < 0) break;
      i = end + 2;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") {
      const prefix = lang === "python" ? (/[A-Za-z]{1,2}$/.exec(src.slice(0, i))?.[0] ?? "") : "";
      const interpolates = (lang === "js" && ch === "`") || (lang === "python" && /f/i.test(prefix));
      const triple = src.startsWith(ch.repeat(3), i) && lang === "python";
      const close = triple ? ch.repeat(3) : ch;
      i += close.length;
      out += ch;
      while (i < src.length && !src.startsWith(close, i)) {
        const c = src[i] ?? "";
        if (c === "\\") {
          i += 2;
          continue;
        }
        const opens = lang === "js" ? c === "$" && src[i + 1] === "{" : c === "{" && src[i + 1] !== "{";
        if (interpolates && opens) {
          i += lang === "js" ? 2 : 1;
          let depth = 1;
          let expr = "";
          while (i < src.length && depth > 0) {
            const e = src[i] ?? "";
            if (e === "{") depth++;
            else if (e === "}") depth--;
            if (depth > 0) expr += e;
            i++;
          }
          out += ` ${expr} `;
          continue;
        }
        if (interpolates && lang === "python" && c === "{") i++; // "{{" is a literal brace
        i++;
      }
      i += close.length;
      out += ch;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

/**
 * A line `sanitizeCode` may join words on: a block comment it drops, or a string key it turns into
 * a member right before a word (`a["b"]c` reads `a.bc`). Elsewhere it only empties and drops text.
 */
const MAY_JOIN = /\/\*|["']\s*[\])][\w$]/;

/**
 * The text, then each line `sanitizeCode` may join words on, as it reads that line. Elsewhere
 * `sanitizeCode` only empties strings, drops comments and rewrites string keys (letters kept), so
 * a word found in no line of this text is in no sanitized line either: a word check on it may
 * decide that a file needs no closer reading. Reading the joining lines themselves (not a pattern
 * guessing where a comment starts) keeps `"/*"` in a string from hiding a comment after it.
 *
 * @example withCommentsJoined("a/* x *\/b", "js") // "a/* x *\/b\nab"
 */
export function withCommentsJoined(text: string, lang: CodeLanguage): string {
  if (!MAY_JOIN.test(text)) return text;
  const joined = text
    .split("\n")
    .filter((line) => MAY_JOIN.test(line))
    .map((line) => sanitizeCode(line, lang));
  return `${text}\n${joined.join("\n")}`;
}

/**
 * Lines longer than this, once their trailing whitespace is dropped (minified or generated code),
 * are read as blank, here and by the parser's text. They are never skipped silently: the coverage
 * ledger records each file that has one as unread, and the review goes to a person.
 */
export const MAX_LINE = 2000;

/**
 * A line as the detectors read it: trailing whitespace dropped (padding never hides code), or
 * undefined when it is still over `MAX_LINE` (the ledger records it unread).
 *
 * @example readableLine(`q = "SELECT " + id${" ".repeat(2100)}`) // 'q = "SELECT " + id'
 */
export function readableLine(text: string): string | undefined {
  const trimmed = text.length > MAX_LINE ? text.trimEnd() : text;
  return trimmed.length > MAX_LINE ? undefined : trimmed;
}

/** A line of the head file that the patch shows (added or context), reduced to code. */
export interface CodeLine {
  /** Head line number. */
  line: number;
  added: boolean;
  /** The line as written. */
  raw: string;
  /** The line after `sanitizeCode`. */
  code: string;
  /** False when a hunk boundary (or a deleted run) separates it from the previous shown line. */
  follows: boolean;
}

/**
 * The head lines a patch shows, in order, each with its sanitized code.
 *
 * @example codeLines(parsePatch("@@ -1 +1 @@\n+log(x)"), "js")[0] // { line: 1, added: true, ... }
 */
export function codeLines(
  patch: ReadonlyArray<{ kind: "add" | "del" | "context"; line: number; text: string }>,
  lang: CodeLanguage,
): CodeLine[] {
  const out: CodeLine[] = [];
  let previous: number | undefined;
  for (const p of patch) {
    if (p.kind === "del") continue;
    out.push({
      line: p.line,
      added: p.kind === "add",
      raw: p.text,
      // Overlong lines would make the scanners slow; the coverage ledger records them unread.
      code: sanitizeCode(readableLine(p.text) ?? "", lang),
      follows: previous !== undefined && p.line === previous + 1,
    });
    previous = p.line;
  }
  return out;
}

/** The code of one call's arguments, line by line, from its opening parenthesis to the matching one. */
export type CallArguments = CodeLine[];

/**
 * The argument lines of a call whose `(` is at `openCol` of `lines[index].code`, following the
 * call over consecutive lines until its parentheses balance (at most `maxLines`). Each returned
 * line's `code` holds only the part inside the call (without its parentheses).
 *
 * @example callArguments(lines, 0, 11)[0]?.code // '"", { email }'
 */
export function callArguments(
  lines: readonly CodeLine[],
  index: number,
  openCol: number,
  maxLines = 30,
): CallArguments {
  const out: CallArguments = [];
  let depth = 1;
  for (let i = index; i < lines.length && i < index + maxLines; i++) {
    const line = lines[i];
    if (!line || (i > index && !line.follows)) break;
    const code = i === index ? line.code.slice(openCol + 1) : line.code;
    let end = code.length;
    for (let c = 0; c < code.length; c++) {
      if (code[c] === "(") depth++;
      else if (code[c] === ")" && --depth === 0) {
        end = c;
        break;
      }
    }
    out.push({ ...line, code: code.slice(0, end) });
    if (depth <= 0) break;
  }
  return out;
}
