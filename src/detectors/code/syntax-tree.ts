import { createRequire } from "node:module";
import type * as AstGrepModule from "@ast-grep/napi";
import type { SgNode } from "@ast-grep/napi";
import type { ChangedFile } from "../../domain/pull-request.js";
import { headText } from "./head-text.js";

/**
 * Real parsing for the detectors: tree-sitter grammars through ast-grep, so a call inside a
 * string or a comment is never mistaken for code. JavaScript and TypeScript grammars ship in
 * `@ast-grep/napi`; Python and Go come as `@ast-grep/lang-*` packages with prebuilt parsers.
 *
 * @example syntaxOfPatch(file)?.root.findAll({ rule: { kind: "call_expression" } })
 */

/** The grammars the detectors parse with. */
export type SyntaxLanguage = "javascript" | "typescript" | "tsx" | "python" | "go";

/**
 * The grammar for a repository path, or undefined for a file no grammar reads.
 *
 * @example syntaxLanguageOf("api/users.py") // "python"
 */
export function syntaxLanguageOf(path: string): SyntaxLanguage | undefined {
  if (/\.(?:c|m)?tsx$/i.test(path)) return "tsx";
  if (/\.(?:c|m)?ts$/i.test(path)) return "typescript";
  if (/\.(?:c|m)?jsx?$/i.test(path)) return "javascript";
  if (/\.py$/i.test(path)) return "python";
  if (/\.go$/i.test(path)) return "go";
  return undefined;
}

const require = createRequire(import.meta.url);

let napi: typeof AstGrepModule | undefined;

/**
 * ast-grep's native addon, loaded by the first parse: a pull request with no file a grammar reads
 * (docs, configuration) never loads it.
 *
 * @example astGrep().parse(astGrep().Lang.JavaScript, "f(x)").root().kind() // "program"
 */
export function astGrep(): typeof AstGrepModule {
  napi ??= require("@ast-grep/napi") as typeof AstGrepModule;
  return napi;
}

let dynamicRegistered = false;

/** ast-grep allows one registration per process; Python and Go are loaded on first use. */
function ensureDynamicLanguages(): void {
  if (dynamicRegistered) return;
  astGrep().registerDynamicLanguage({
    python: require("@ast-grep/lang-python") as Parameters<typeof AstGrepModule.registerDynamicLanguage>[0][string],
    go: require("@ast-grep/lang-go") as Parameters<typeof AstGrepModule.registerDynamicLanguage>[0][string],
  });
  dynamicRegistered = true;
}

/**
 * Parses source text; tree-sitter recovers from errors, so a partial file (a diff hunk) parses too.
 *
 * @example parseSource("go", "log.Printf(\"%v\", user)").kind() // "source_file"
 */
export function parseSource(lang: SyntaxLanguage, text: string): SgNode {
  const { parse, Lang } = astGrep();
  switch (lang) {
    case "javascript":
      return parse(Lang.JavaScript, text).root();
    case "typescript":
      return parse(Lang.TypeScript, text).root();
    case "tsx":
      return parse(Lang.Tsx, text).root();
    case "python":
    case "go":
      ensureDynamicLanguages();
      return parse(lang, text).root();
  }
}

/** The head-side text of a patch (context and added lines), parsed, with a map back to the diff. */
export interface PatchSyntax {
  lang: SyntaxLanguage;
  root: SgNode;
  /** The head file's line number of a parsed row (0-based), or undefined for a row between hunks. */
  lineAt(row: number): number | undefined;
  /** Whether the parsed row is a line this pull request adds. */
  isAdded(row: number): boolean;
}

function buildPatchSyntax(lang: SyntaxLanguage, file: ChangedFile): PatchSyntax {
  const head = headText(file);
  return {
    lang,
    root: parseSource(lang, head.text),
    lineAt: (row) => head.lines[row],
    isAdded: (row) => head.added[row] === true,
  };
}

/**
 * The grammar a changed file is read with (a known language and a patch), without parsing it: a
 * detector reads such a file the tree's way even when its textual pre-check spares the parse.
 *
 * @example parsedLanguageOf({ filename: "app.py", patch: "@@ -0,0 +1 @@\n+x = 1", ... }) // "python"
 */
export function parsedLanguageOf(file: ChangedFile): SyntaxLanguage | undefined {
  return file.patch ? syntaxLanguageOf(file.filename) : undefined;
}

/**
 * Whether a grammar reads this file's language: what the code detectors read by what the code
 * does. A file in any other language is unread code in the coverage ledger.
 *
 * @example readsByGrammar({ filename: "cgi-bin/run.pl", ... }) // false
 */
export function readsByGrammar(file: Pick<ChangedFile, "filename">): boolean {
  return syntaxLanguageOf(file.filename) !== undefined;
}

/** One parse per changed file and review: every detector that asks gets the same tree. */
const PARSED = new WeakMap<ChangedFile, PatchSyntax | null>();

/**
 * The parsed head side of a changed file's patch, or undefined when no grammar reads the file or
 * it has no patch. Cached per file object, so detectors share one parse.
 *
 * @example syntaxOfPatch({ filename: "app.py", patch: "@@ -0,0 +1 @@\n+print(x)", ... })?.lang // "python"
 */
export function syntaxOfPatch(file: ChangedFile): PatchSyntax | undefined {
  const cached = PARSED.get(file);
  if (cached !== undefined) return cached ?? undefined;
  const lang = parsedLanguageOf(file);
  const parsed = lang ? buildPatchSyntax(lang, file) : null;
  PARSED.set(file, parsed);
  return parsed ?? undefined;
}
