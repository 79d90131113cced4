import type { SgNode } from "@ast-grep/napi";
import type { ChangedFile } from "../../domain/pull-request.js";
import { parsePatch } from "../../domain/patch.js";
import { callSites, type CallSite } from "../../detectors/code/call-sites.js";
import { codeLanguage, MAX_LINE, sanitizeCode, type CodeLanguage } from "../../detectors/code-lines.js";
import {
  grammarReader,
  parseSource,
  syntaxLanguageOf,
  syntaxOfPatch,
  type SyntaxLanguage,
} from "../../detectors/code/syntax-tree.js";
import { ALL_GRAMMARS } from "../../detectors/code/grammars.js";
import {
  AUTH_STATUS,
  AUTH_SUBJECT,
  CALLS,
  CONDITION,
  REJECTION,
  TOKEN_SOURCE,
  UNPARSED_VERIFICATION,
  type ArgumentTest,
  type CallRule,
  type CallShows,
  type CheckLanguage,
  type VerificationOff,
} from "./vocabulary.js";

/** What one line of code shows for a SEC-03 clearance. */
export interface LineCheck {
  /** A verify/compare call; a condition that turns the caller away; or a decode that verifies nothing. */
  kind: "verification" | "rejection" | "decode-only";
  /** The call (`jwt.verify`) or, for a rejection, the line's code, for messages. */
  what: string;
  /**
   * For a verification by a project's own helper (`jwtVerify.verify`, `verifyToken`), not a library's
   * call: its method name. It shows a verification only once its body is followed (`CallFollower`).
   */
  helper?: string;
}

/** What a clearance of one file must cite: a verification, or (where no token is at stake) a rejection too. */
export type CheckNeed = "verification" | "verification-or-rejection";

/** The lines of one file by number, as a tool showed them (undefined for a line not shown). */
export type LineSource = (line: number) => string | undefined;

/** Lines read after the cited one, to finish a call or a condition that spans lines. */
const MAX_FOLLOWING = 12;
/** Lines of a condition's block in which its refusal is looked for. */
const REJECTION_LINES = 5;

/**
 * The vocabulary each grammar is read with. A grammar absent here (the shell, Scala, Swift, C,
 * C++, Dart, Elixir, Lua) has no check vocabulary of its own yet: its files are read by words,
 * as a file without a grammar is.
 */
const FAMILY: Readonly<Partial<Record<SyntaxLanguage, CheckLanguage>>> = {
  javascript: "js",
  typescript: "js",
  tsx: "js",
  python: "python",
  go: "go",
  java: "java",
  kotlin: "kotlin",
  csharp: "csharp",
  php: "php",
  ruby: "ruby",
  rust: "rust",
};

/** The grammars whose checks the vocabulary knows: a file in any other language is read as text. */
const CHECK_GRAMMARS = grammarReader(ALL_GRAMMARS.filter((g) => FAMILY[g] !== undefined));

/**
 * The check vocabulary a grammar is read with, or undefined for a grammar without one.
 *
 * @example checkFamilyOf("tsx") // "js"
 */
export function checkFamilyOf(grammar: SyntaxLanguage): CheckLanguage | undefined {
  return FAMILY[grammar];
}

/**
 * The check vocabulary of a file, by its name, or undefined when none reads it.
 *
 * @example checkFamilyOfFile("src/auth/token.ts") // "js"
 */
export function checkFamilyOfFile(file: string): CheckLanguage | undefined {
  const grammar = checkGrammarOf(file);
  return grammar ? FAMILY[grammar] : undefined;
}

function familyOf(grammar: SyntaxLanguage): CheckLanguage {
  // `checkGrammarOf` answers only grammars with a family.
  return FAMILY[grammar] ?? "js";
}

function checkGrammarOf(path: string): SyntaxLanguage | undefined {
  return CHECK_GRAMMARS.reads({ filename: path }) ? syntaxLanguageOf(path) : undefined;
}

function sanitized(text: string, lang: CodeLanguage): string {
  return text.length > MAX_LINE ? "" : sanitizeCode(text, lang);
}

function bracketDelta(code: string): number {
  let d = 0;
  for (const ch of code) {
    if (ch === "(" || ch === "[" || ch === "{") d++;
    else if (ch === ")" || ch === "]" || ch === "}") d--;
  }
  return d;
}

const indentOf = (text: string): number => /^\s*/.exec(text)?.[0].length ?? 0;

/**
 * The cited line and the lines that finish it: until its brackets balance, or (Python) the block a
 * line ending in `:` opens. Stops at a line no tool showed. Dedented to the cited line.
 */
function snippetAt(lineAt: LineSource, line: number, lang: CodeLanguage): string[] {
  const first = lineAt(line) ?? "";
  const texts = [first];
  const firstIndent = indentOf(first);
  const code = sanitized(first, lang);
  let depth = bracketDelta(code);
  // A Python block opened by `:`, a Ruby one by `if`/`unless` (closed by `end`, not a bracket).
  const opensBlock =
    (lang === "python" && code.trimEnd().endsWith(":")) || (lang === "ruby" && /^\s*(if|unless|elsif)\b/.test(code));
  for (let k = 1; k <= MAX_FOLLOWING && (depth > 0 || (opensBlock && k <= REJECTION_LINES)); k++) {
    const next = lineAt(line + k);
    if (next === undefined) break;
    if (depth <= 0 && next.trim() !== "" && indentOf(next) <= firstIndent) break;
    texts.push(next);
    depth += bracketDelta(sanitized(next, lang));
  }
  return texts.map((t) => (indentOf(t) >= firstIndent ? t.slice(firstIndent) : t.trimStart()));
}

const EMPTY_VALUES = new Set(["nil", "None", "null", "undefined"]);

const unquote = (s: string): string => s.replace(/^[rbuRBU]?(["'])(.*)\1$/s, "$2");

function keywordArgument(call: CallSite, name: string): SgNode | undefined {
  return call.args.find((a) => String(a.kind()) === "keyword_argument" && a.field("name")?.text() === name);
}

function positional(call: CallSite): SgNode[] {
  return call.args.filter((a) => String(a.kind()) !== "keyword_argument");
}

function holds(test: ArgumentTest, call: CallSite): boolean {
  if ("keyword" in test) return keywordArgument(call, test.keyword) !== undefined;
  const arg = positional(call)[test.argument];
  return arg !== undefined && !EMPTY_VALUES.has(arg.text().trim());
}

/** True when the arguments turn verification off, or might (options that are not a literal). */
function turnedOff(off: VerificationOff, call: CallSite): boolean {
  if (off.keyword !== undefined) return keywordArgument(call, off.keyword)?.field("value")?.text() === off.value;
  if (off.argument !== undefined) return positional(call)[off.argument]?.text().trim() === off.value;
  if (!off.optionsKey) return false;
  const options = keywordArgument(call, off.optionsKey.keyword)?.field("value");
  if (!options) return false;
  // Options built elsewhere cannot be read here: they may turn verification off.
  if (String(options.kind()) !== "dictionary") return true;
  return options
    .children()
    .filter((p) => String(p.kind()) === "pair")
    .some(
      (p) => unquote(p.field("key")?.text() ?? "") === off.optionsKey?.key && p.field("value")?.text() === off.value,
    );
}

/**
 * What a parsed call shows, by the vocabulary: the first rule whose callee matches decides, and its
 * argument tests turn a would-be verification into a decode.
 *
 * @example classifyCall("python", call) // { shows: "decode-only", library: true } for jwt.decode(t, options={"verify_signature": False})
 */
export function classifyCall(
  family: CheckLanguage,
  call: CallSite,
): { shows: CallShows; library: boolean } | undefined {
  const rule: CallRule | undefined = CALLS[family].find((r) => r.callee.test(call.callee));
  if (!rule) return undefined;
  if (rule.shows === "decode-only") return { shows: "decode-only", library: rule.library };
  const verifies =
    (rule.requires ?? []).every((t) => holds(t, call)) && !(rule.off ?? []).some((o) => turnedOff(o, call));
  return { shows: verifies ? "verification" : "decode-only", library: rule.library };
}

/**
 * What the line `line` of `file` shows for a SEC-03 clearance, read with the lines after it that
 * finish it: a verify/compare call that starts on it (`jwt.verify`, `hmac.compare_digest`,
 * `jwt.decode(t, key, algorithms=[...])`, Go `jwt.Parse` with a key function, ...), else a decode
 * that verifies nothing (`jwt.decode` of jsonwebtoken, `jwtDecode`, `verify_signature: False`),
 * else a condition on the caller, token or session that refuses (`if (!req.user) return
 * res.sendStatus(401)`). Strings and comments never count. Undefined for anything else.
 *
 * @example lineCheck("src/auth/token.ts", (n) => ["const c = jwt.verify(t, key);"][n - 1], 1) // { kind: "verification", what: "jwt.verify" }
 */
export function lineCheck(file: string, lineAt: LineSource, line: number): LineCheck | undefined {
  const text = lineAt(line);
  if (text === undefined || text.length > MAX_LINE) return undefined;
  const grammar = checkGrammarOf(file);
  const lang = codeLanguage(file) ?? "c-like";
  if (!grammar) {
    const m = UNPARSED_VERIFICATION.exec(sanitized(text, lang));
    return m ? { kind: "verification", what: m[0].replace(/\s*\($/, "") } : undefined;
  }
  const family = familyOf(grammar);
  // Only a call or a condition shows anything: most lines are neither, and need no parse.
  if (!text.includes("(") && !CONDITION[family].test(text)) return undefined;
  const snippet = snippetAt(lineAt, line, lang);
  const calls = callSites({ lang: grammar, root: parseSource(grammar, snippet.join("\n")) }).filter((c) => c.row === 0);
  const shown = calls.map((c) => ({ call: c.callee, method: c.method, ...classifyCall(family, c) }));
  // A library's verification first: a project's helper on the same line needs following.
  const verification =
    shown.find((s) => s.shows === "verification" && s.library) ?? shown.find((s) => s.shows === "verification");
  if (verification)
    return {
      kind: "verification",
      what: verification.call,
      ...(verification.library ? {} : { helper: verification.method }),
    };
  const decode = shown.find((s) => s.shows === "decode-only");
  if (decode) return { kind: "decode-only", what: decode.call };

  const condition = sanitized(snippet[0] ?? "", lang);
  if (!CONDITION[family].test(condition)) return undefined;
  const block = snippet
    .slice(0, REJECTION_LINES)
    .map((t) => sanitized(t, lang))
    .join("\n");
  if (!REJECTION[family].test(block)) return undefined;
  if (!AUTH_SUBJECT.test(condition) && !AUTH_STATUS.test(block)) return undefined;
  return { kind: "rejection", what: condition.trim() };
}

/**
 * What a SEC-03 clearance of a changed file must cite. Code whose added lines call a library's
 * verify or decode (`jwt.verify`, `jwt.decode`, `bcrypt.compare`, ...) or read a credential from the
 * request (an `Authorization` header, a bearer token) must show the verification itself; other auth
 * code (a route guard, a session's expiry) may show a check that refuses instead. A file without a
 * patch to read must show a verification.
 *
 * @example clearanceNeed(addedFile("src/auth/token.ts", ["const c = jwtDecode(t);"])) // "verification"
 */
export function clearanceNeed(file: ChangedFile | undefined): CheckNeed {
  if (!file?.patch) return "verification";
  const lang = codeLanguage(file.filename) ?? "c-like";
  const added = parsePatch(file.patch).filter((l) => l.kind === "add");
  if (added.some((l) => TOKEN_SOURCE.test(sanitized(l.text, lang)))) return "verification";
  const grammar = checkGrammarOf(file.filename);
  const syntax = grammar ? syntaxOfPatch(file) : undefined;
  if (!grammar || !syntax) return "verification";
  const family = familyOf(grammar);
  const library = callSites(syntax).some((c) => syntax.isAdded(c.row) && classifyCall(family, c)?.library === true);
  return library ? "verification" : "verification-or-rejection";
}

/**
 * Whether a line's check is the one a clearance needs.
 *
 * @example showsNeededCheck({ kind: "rejection", what: "if (!req.user)" }, "verification") // false
 */
export function showsNeededCheck(check: LineCheck | undefined, need: CheckNeed): boolean {
  if (check?.kind === "verification") return true;
  return check?.kind === "rejection" && need === "verification-or-rejection";
}
