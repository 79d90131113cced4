import { headText } from "../code/head-text.js";
import { syntaxOfPatch, type PatchSyntax } from "../code/syntax-tree.js";
import { GRAMMARS, type SyntaxLanguage } from "../code/grammars.js";
import type { DetectContext, Detector } from "../detector.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import { candidatePaths } from "../dataflow/project-imports.js";
import { codeChanges } from "./file-kind.js";
import { CODE_LANGUAGES, codeLineDetector } from "./line-detector.js";
import { kindOf } from "./built-string.js";
import {
  injectionFlows,
  mayBuildStrings,
  mayPassRequestData,
  importsCalledWithText,
  importsGivenToSinks,
  mayReachSink,
  mayHoldSqlText,
  type ProjectLinks,
  type ProjectModule,
} from "./injection-flow.js";
import { INJECTION_RULES } from "./injection-rules.js";
import { interpolates, readsRequestData } from "./interpolation.js";
import { matchLineRules, type LineRule } from "./line-rules.js";
import { precheck } from "../precheck.js";
import { STRING_SYNTAX } from "./string-syntax.js";
import { DDL_WORDS, QUOTE_WRAP, quotedUnescaped } from "./sql-quote-wrap.js";
import { BARE_RETURN, bareEscaperReturns, ESCAPING_CALL } from "./sql-escaper-returns.js";

const SQL_SHAPE =
  /\b(select\b.*\bfrom|insert\s+into|update\s+[\w."`]+\s+set|delete\s+from|where\s+\w+\s*(=|like|in\b|<|>)|order\s+by|values\s*\()/i;
const SQL_SINK =
  /\b(execute|executemany|executescript|query|raw|unsafe|\$queryRawUnsafe|\$executeRawUnsafe|queryRawUnsafe|executeRawUnsafe|exec_driver_sql|prepare|sequelize\.query|knex\.raw)\s*\(/;
const JS_SHELL = /(?:(?<![\w.$])|\b(?:child_process|childProcess|cp)\.)(exec|execSync)\s*\(/;
const JS_SPAWN_SHELL = /\b(spawn|spawnSync|execFile|execFileSync)\s*\(.*\bshell\s*:\s*true/;
const PY_SHELL = /\bos\.(system|popen)\s*\(|\bsubprocess\.\w+\s*\(.*\bshell\s*=\s*True|\bcommands\.getoutput\s*\(/;
const LITERAL_ONLY_CALL = /^\s*(["'])[^"'`]*\1\s*\)/;
const TEMPLATE_SINK =
  /\b(render_template_string|jinja2\.Template|Environment\(\)\.from_string|from_string|Handlebars\.compile|ejs\.render|pug\.render|nunjucks\.renderString|_\.template)\s*\(/;

/** Head lines that lie inside a comment or a multi-line string (after its first line). */
function textRows(syntax: PatchSyntax): Set<number> {
  const rows = new Set<number>();
  const grammar = GRAMMARS[syntax.lang];
  const comments = new Set(grammar.commentKinds);
  const kinds = [...grammar.commentKinds, ...grammar.stringKinds].map((kind) => ({ kind }));
  for (const node of syntax.root.findAll({ rule: { any: kinds } })) {
    const { start, end } = node.range();
    const first = comments.has(kindOf(node)) ? start.line : start.line + 1;
    for (let row = first; row <= end.line; row++) {
      const line = syntax.lineAt(row);
      if (line !== undefined) rows.add(line);
    }
  }
  return rows;
}

/** The argument text after the first match of `call` on the line. */
function after(line: string, call: RegExp): string {
  const m = call.exec(line);
  return m ? line.slice(m.index + m[0].length) : "";
}

const RULES: readonly LineRule[] = [
  {
    id: "sql-interpolation",
    test: (line, lang) =>
      SQL_SHAPE.test(line) && interpolates(line, lang) && (readsRequestData(line) || SQL_SINK.test(line)),
    message:
      "SQL text built by interpolating or concatenating values (request data reaches the query): " +
      "use a parameterised query (placeholders such as ? or $1 with a values array).",
  },
  {
    id: "shell-interpolation",
    test: (line, lang) =>
      (lang !== "python" && (JS_SHELL.test(line) || JS_SPAWN_SHELL.test(line)) && interpolates(line, lang)) ||
      (lang !== "js" && PY_SHELL.test(line) && interpolates(line, lang)),
    message:
      "A shell command built by interpolation (exec/execSync, os.system or subprocess with shell=True): " +
      "pass arguments as an array (execFile/spawn without a shell, subprocess.run([...])) instead.",
  },
  {
    id: "eval",
    test: (line, lang) => {
      const evalCall = lang === "python" ? /(?<![\w.])(eval|exec)\s*\(/ : /(?<![\w.$])eval\s*\(/;
      if (evalCall.test(line) && !LITERAL_ONLY_CALL.test(after(line, evalCall))) return true;
      const fn = /\bnew\s+Function\s*\(/;
      if (lang !== "python" && fn.test(line)) {
        const args = after(line, fn);
        return !/^(\s*(["'])[^"'`]*\2\s*,?)*\s*\)/.test(args);
      }
      const vm = /\bvm\.(runInNewContext|runInThisContext|runInContext)\s*\(/;
      return lang !== "python" && vm.test(line) && !LITERAL_ONLY_CALL.test(after(line, vm));
    },
    message:
      "Code evaluated from a non-literal string (eval / new Function / vm.run*): if any part can come " +
      "from a user, this is code injection; parse the data instead of executing it.",
  },
  {
    id: "template-injection",
    test: (line, lang) => TEMPLATE_SINK.test(line) && (readsRequestData(line) || interpolates(line, lang)),
    message:
      "A template compiled from request data or an interpolated string (server-side template injection): " +
      "keep templates constant and pass user data as template variables.",
  },
];

/** The line rules for a file whose syntax tree is read: SQL only when request data is spliced in, no shell rule. */
const TREE_FILE_RULES: readonly LineRule[] = RULES.filter((r) => r.id !== "shell-interpolation").map((r) =>
  r.id === "sql-interpolation"
    ? {
        ...r,
        test: (line: string, lang: Parameters<LineRule["test"]>[1], before: string) =>
          readsRequestData(line) && r.test(line, lang, before),
      }
    : r,
);

/** The same, for a language whose `eval` calls are sinks the data flow reads: the flow decides them. */
const TREE_FILE_RULES_CODE_READ = TREE_FILE_RULES.filter((r) => r.id !== "eval");

/** Languages with `code` sinks (`INJECTION_RULES`): their `eval` is judged by what reaches it. */
function readsCode(lang: SyntaxLanguage): boolean {
  return INJECTION_RULES[lang].sinks.some((r) => r.kind === "code");
}

const FLOW_MESSAGE = {
  sql:
    "SQL text built from a non-constant value (template literal, concatenation, f-string, % or .format, " +
    "fmt.Sprintf) reaches a query call: use a parameterised query (placeholders such as ? , $1 or %s with a values argument).",
  shell:
    "A shell command built from a non-constant value reaches a shell (exec/execSync, os.system, subprocess with " +
    "shell=True, sh -c): pass the program and its arguments as an array (execFile/spawn, subprocess.run([...]), exec.Command(name, args...)).",
  code:
    "Code evaluated from a non-constant value (eval / exec / new Function / vm.run*) that may come from outside: " +
    "this is code injection; parse the data (JSON.parse, json.loads, ast.literal_eval) instead of executing it.",
} as const;

const QUOTED_MESSAGE =
  'A value put between SQL\'s quotes with nothing escaping it ("\'" + value + "\'"): a quote in the value ends ' +
  "the string and the rest is read as SQL; bind it as a parameter, or escape it with the driver's escape function.";

const BARE_RETURN_MESSAGE =
  "A function that escapes a value for SQL on its other paths returns it here as given (a value typed as a number, " +
  "or of another type, that the caller sent as text): its caller splices it into SQL; escape it here too, or convert it (Number(v)).";

/** SEC-02 over each changed code file, its imported project files read first (`injectionDetector`). */
const lineDetector: Detector = codeLineDetector(
  { id: "injection", policy: "SEC-02", severity: "high", blocking: true },
  (file, lang) => {
    const found = new Map<number, string>();
    // A file that builds no string at run time has no flow: it is parsed only if a line rule asks.
    const text = lang ? headText(file).text : "";
    // Text built in an imported project file (`readImports`) may reach a sink here unbuilt.
    const linked = IMPORTED.get(file);
    const mayFlow =
      lang !== undefined &&
      (mayBuildStrings(text, lang) ||
        mayPassRequestData(text, lang) ||
        mayReachSink(text, lang) ||
        linked !== undefined);
    const syntax = lang && precheck(mayFlow) ? syntaxOfPatch(file) : undefined;
    if (syntax) {
      for (const flow of injectionFlows(syntax, text, linked)) {
        const line = syntax.lineAt(flow.row);
        if (line !== undefined && !found.has(line)) found.set(line, `${FLOW_MESSAGE[flow.kind]} (\`${flow.call}\`)`);
      }
    }
    // Rows a tree rule found, each with its message unless a flow already named the line.
    const keep = (tree: PatchSyntax, rows: number[], message: string) => {
      for (const row of rows) {
        const line = tree.lineAt(row);
        if (line !== undefined && !found.has(line)) found.set(line, message);
      }
    };
    // A value quoted for SQL by hand, unescaped, in a file whose strings hold SQL (or that writes
    // schema statements): wherever it goes.
    const quoted =
      lang && JS_FAMILY.has(lang) && precheck(QUOTE_WRAP.test(text)) ? (syntax ?? syntaxOfPatch(file)) : undefined;
    if (quoted && (mayHoldSqlText(quoted) || DDL_WORDS.test(text)))
      keep(quoted, quotedUnescaped(quoted), QUOTED_MESSAGE);
    // A function that escapes a parameter for SQL on some paths and returns it bare on another.
    const escaper =
      lang && JS_FAMILY.has(lang) && precheck(BARE_RETURN.test(text) && ESCAPING_CALL.test(text))
        ? (syntax ?? syntaxOfPatch(file))
        : undefined;
    if (escaper && mayHoldSqlText(escaper)) keep(escaper, bareEscaperReturns(escaper), BARE_RETURN_MESSAGE);
    // With a syntax tree, SQL and shell flows are read from it; the line rules keep what it does not
    // follow (SQL built from request data before any call, eval, templates), outside strings and comments.
    const treeRules = syntax && readsCode(syntax.lang) ? TREE_FILE_RULES_CODE_READ : TREE_FILE_RULES;
    const matches = matchLineRules(file, lang ? treeRules : RULES);
    // Which rows are strings or comments is read from the tree only when a line rule matched.
    const tree = lang && matches.length > 0 ? (syntax ?? syntaxOfPatch(file)) : undefined;
    const inText = tree ? textRows(tree) : new Set<number>();
    // A line whose SQL is a string that binds its values (Scala's `sql"..."`) builds no SQL text.
    const bound = lang ? STRING_SYNTAX[lang].boundStrings : undefined;
    for (const m of matches) {
      if (found.has(m.line) || inText.has(m.line) || bound?.test(m.text)) continue;
      found.set(m.line, m.rule.message);
    }
    return found;
  },
);

/** The project files each changed file imports by a relative path and calls, read from the head first. */
const IMPORTED = new WeakMap<ChangedFile, ProjectLinks>();
/**
 * How many project files one changed file's imports are read, and the size of each: a call into a
 * file past these reads as without this (its result is outside data), as it did before.
 */
const MAX_IMPORTED = 32;
const MAX_IMPORTED_CHARS = 512 * 1024;
const JS_FAMILY = new Set<SyntaxLanguage>(["javascript", "typescript", "tsx"]);

/**
 * Reads, from the head, the project files each JavaScript or TypeScript change imports by a
 * relative path where a sink call of it is given what their functions return (`import {
 * createQueryForTile } from "./queries"` then `pool.query(createQueryForTile(...))`): its data flow
 * then follows those calls into them (`injectionFlows`); and the files it calls with text it builds
 * (`utils.exec('ls ' + dir)`), whose runners make those calls sinks. A module the head does not have
 * (or cannot give) is left unread and its functions' results are outside data, as without it.
 */
async function readImports(ctx: DetectContext): Promise<void> {
  // One reading of each project file per review: the files that import it share it (and its parse).
  const read = new Map<string, ProjectModule | null>();
  // A file the pull request adds whole is its own head text: its tree is the one its review parses.
  const added = new Map(
    [...codeChanges(ctx.pr.files)].filter((f) => f.status === "added").map((f) => [f.filename, f] as const),
  );
  for (const file of codeChanges(ctx.pr.files)) {
    const lang = CODE_LANGUAGES.languageOf(file);
    if (!lang || !JS_FAMILY.has(lang)) continue;
    const text = headText(file).text;
    // Only a file that imports from its project by a relative path (a pre-check), and only the
    // imports whose results a sink call is given (read from its tree).
    if (!precheck(/["'`]\.{1,2}\//.test(text))) continue;
    const syntax = syntaxOfPatch(file);
    const called = syntax ? importsGivenToSinks(syntax, text) : [];
    // And the imports it calls with text it builds, whose runners make those calls sinks.
    const runners = syntax ? importsCalledWithText(syntax, text) : [];
    const specifiers = [...new Set([...called, ...runners].map((i) => i.specifier))].slice(0, MAX_IMPORTED);
    const modules = new Map<string, ProjectModule>();
    for (const specifier of specifiers) {
      for (const candidate of candidatePaths(file.filename, specifier)) {
        if (!read.has(candidate)) {
          let text: string | undefined;
          try {
            text = await ctx.head.read(candidate);
          } catch {
            // A head that cannot give the file: its functions' results read as before.
          }
          const own = added.get(candidate);
          read.set(
            candidate,
            text === undefined || text.length > MAX_IMPORTED_CHARS
              ? null
              : { path: candidate, text, ...(own ? { tree: () => syntaxOfPatch(own) } : {}) },
          );
        }
        const module = read.get(candidate);
        if (module) modules.set(specifier, module);
        if (module) break;
      }
    }
    if (modules.size > 0)
      IMPORTED.set(file, {
        imports: called.filter((i) => modules.has(i.specifier)),
        modules,
        runners: runners.filter((i) => modules.has(i.specifier)),
      });
    else IMPORTED.delete(file);
  }
}

/**
 * SEC-02: injection in added code. In JavaScript, TypeScript, Python and Go the syntax tree is
 * read: SQL or shell text built from non-constant values (template literals, `+`, f-strings, `%`,
 * `.format`, `fmt.Sprintf`), directly or through a variable, that reaches a query or exec call,
 * following calls into the project files a JavaScript or TypeScript change imports (`readImports`).
 * Line rules also catch SQL built from request data, shell interpolation in other languages,
 * `eval`-like calls on non-literals and templates compiled from request data. Severity high,
 * blocking. Parameterised queries and argument-array process calls are not flagged.
 *
 * @example await injectionDetector.detect(ctx) // [{ policy: "SEC-02", line: 14, ... }]
 */
export const injectionDetector: Detector = {
  ...lineDetector,
  async detect(ctx) {
    await readImports(ctx);
    return lineDetector.detect(ctx);
  },
};
