import { createRequire } from "node:module";
import type * as AstGrepModule from "@ast-grep/napi";
import type { SgNode } from "@ast-grep/napi";
import type { ChangedFile } from "../../domain/pull-request.js";
import { stepAside } from "../../domain/step-aside.js";
import { GRAMMARS, syntaxLanguageOf, type SyntaxLanguage } from "./grammars.js";
import { headText } from "./head-text.js";

/**
 * Real parsing for the detectors: tree-sitter grammars through ast-grep, so a call inside a
 * string or a comment is never mistaken for code. JavaScript and TypeScript grammars ship in
 * `@ast-grep/napi`; the others come as `@ast-grep/lang-*` packages with prebuilt parsers (the
 * table in `grammars.ts`).
 *
 * @example syntaxOfPatch(file)?.root.findAll({ rule: { kind: "call_expression" } })
 */

export { syntaxLanguageOf, type SyntaxLanguage } from "./grammars.js";

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

/** ast-grep allows one registration per process: every grammar it does not build in, at the first parse of one. */
function ensureDynamicLanguages(): void {
  if (dynamicRegistered) return;
  type Registration = Parameters<typeof AstGrepModule.registerDynamicLanguage>[0];
  const languages: Registration = {};
  for (const grammar of Object.values(GRAMMARS)) {
    if (grammar.dynamicPackage)
      languages[grammar.astGrepName] = require(grammar.dynamicPackage) as Registration[string];
  }
  astGrep().registerDynamicLanguage(languages);
  dynamicRegistered = true;
}

/**
 * Parses source text; tree-sitter recovers from errors, so a partial file (a diff hunk) parses too.
 *
 * @example parseSource("go", "log.Printf(\"%v\", user)").kind() // "source_file"
 */
export function parseSource(lang: SyntaxLanguage, text: string): SgNode {
  const grammar = GRAMMARS[lang];
  if (grammar.dynamicPackage) ensureDynamicLanguages();
  return astGrep().parse(grammar.astGrepName, withPrelude(lang, text)).root();
}

/**
 * A hunk's text as its grammar reads it: a grammar's prelude (PHP's `<?php`) put on its first row
 * when the hunk has no opener of its own, so rows keep their numbers.
 *
 * @example withPrelude("php", "$db->query($sql);") // "<?php $db->query($sql);"
 */
export function withPrelude(lang: SyntaxLanguage, text: string): string {
  const grammar = GRAMMARS[lang];
  const prelude = grammar.prelude;
  const opened = grammar.blockOpener ? grammar.blockOpener.repeat(unopenedBlocks(text)) : "";
  return prelude && !prelude.unless.test(text) ? `${prelude.text}${opened}${text}` : `${opened}${text}`;
}

/** How many `}` close a block the text never opened (a hunk from inside a function). */
function unopenedBlocks(text: string): number {
  let depth = 0;
  let unopened = 0;
  if (!text.includes("}")) return 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 123) depth++;
    else if (c === 125) {
      if (depth === 0) unopened++;
      else depth--;
    }
  }
  return unopened;
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

/** The grammars one detector reads, and the two questions it asks of a changed file. */
export interface GrammarReader {
  languages: readonly SyntaxLanguage[];
  /**
   * Whether this detector reads the file's language by what the code does: a code file in any
   * other language is unread code in the coverage ledger (for this detector's policies).
   */
  reads(file: Pick<ChangedFile, "filename">): boolean;
  /** The grammar this detector reads the file with (a language it knows, and a patch), or undefined. */
  languageOf(file: ChangedFile): SyntaxLanguage | undefined;
}

/**
 * A detector's grammars: a language is read by a detector once that detector's rules know it.
 *
 * @example grammarReader(["python"]).reads({ filename: "cgi-bin/run.pl" }) // false
 */
export function grammarReader(languages: readonly SyntaxLanguage[]): GrammarReader {
  const known = new Set(languages);
  return {
    languages,
    reads: (file) => {
      const lang = syntaxLanguageOf(file.filename);
      return lang !== undefined && known.has(lang);
    },
    languageOf: (file) => {
      const lang = parsedLanguageOf(file);
      return lang !== undefined && known.has(lang) ? lang : undefined;
    },
  };
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
  stepAside();
  const cached = PARSED.get(file);
  if (cached !== undefined) return cached ?? undefined;
  const lang = parsedLanguageOf(file);
  const parsed = lang ? buildPatchSyntax(lang, file) : null;
  PARSED.set(file, parsed);
  return parsed ?? undefined;
}
