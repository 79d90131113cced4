import type { SgNode } from "@ast-grep/napi";
import { callSites, type CallSite } from "../code/call-sites.js";
import { parseSource, syntaxLanguageOf, type PatchSyntax, type SyntaxLanguage } from "../code/syntax-tree.js";
import { matchesCall } from "./call-rule.js";
import { callArguments, kindOf, StringBuilderReader, type BuiltString } from "./built-string.js";
import {
  INJECTION_RULES,
  SHELL_FLAG,
  SHELL_FLAG_LINE,
  SHELLS,
  sinkNames,
  type InjectionRules,
  type SinkRule,
} from "./injection-rules.js";
import { OutsideReader } from "./request-sources.js";
import {
  canonicalModule,
  importAliases,
  type ImportAliases,
  SQL_PACKAGE,
  sqlPackageFunctions,
} from "./import-aliases.js";
import { FlowReader } from "../dataflow/flow-reader.js";
import { assigns, fieldOf, parametersOf } from "../dataflow/flow-state.js";
import { FLOW_SYNTAX, type FlowSyntax } from "../dataflow/flow-syntax.js";
import { calledExport, type ProjectImport, projectImports } from "../dataflow/project-imports.js";
import { carried, choicesOf, type FlowValue } from "../dataflow/flow-value.js";
import { splicesValue, textNames } from "./sql-splice.js";
import { STRING_SYNTAX } from "./string-syntax.js";
import { GRAMMARS } from "../code/grammars.js";
import { precheck, prefilter } from "../precheck.js";
import { escapeRegExp } from "../../domain/reg-exp.js";

/**
 * Text that reads as a SQL statement or clause (PostgreSQL's `NOTIFY channel, 'payload'` too, and a
 * `SET name TO value` or `SET @v = ...` statement, read only at the start of the text).
 */
export const SQL_SHAPE =
  /\b(select\b[\s\S]*\bfrom|insert\s+into|update\s+[\w."`]+\s+set|delete\s+from|where\s+[\w.]+\s*(=|like|in\b|<|>)|order\s+by|values\s*\(|(and|or)\s+[\w.]+\s*(=|like|<|>)|notify\s+[^,;']*,\s*')|\{\s*(\?\s*=\s*)?call\s|^\s*(set\s+(session\s+|local\s+)?[\w.@"]+\s*(to\b|=))/i;

/** A template substitution; `${ALL_CAPS}` alone is a constant and builds nothing. */
const SUBSTITUTION = /\$\{([^}]*)\}?/g;
const CONSTANT_SUBSTITUTION = /^\s*[A-Z_][A-Z0-9_]*\s*$/;

/**
 * False only when the text cannot build a string at run time, so no call in it can receive built
 * SQL or shell text: none of the grammar's building text (`+`, a format or concat call,
 * `fmt.Sprint*`, Python's `%` and f-strings, Ruby's `#{`, PHP's `.`, Kotlin's `$`...) and no
 * template substitution of a non-constant. Checked on the text the parser would read, before any
 * parse: a file without any of these has no injection flow.
 *
 * @example mayBuildStrings('db.query("SELECT 1 FROM t WHERE id = $1", [id])', "typescript") // false
 */
export function mayBuildStrings(text: string, lang: SyntaxLanguage): boolean {
  if (STRING_SYNTAX[lang].buildsText.test(text)) return true;
  for (const m of text.matchAll(SUBSTITUTION)) if (!CONSTANT_SUBSTITUTION.test(m[1] ?? "")) return true;
  return false;
}

/**
 * True when a request value could reach a sink that takes one straight in (Rails `order(params[:s])`),
 * though no string is built: the language has such sinks and the text names a request.
 *
 * @example mayPassRequestData("User.order(params[:sort])", "ruby") // true
 */
export function mayPassRequestData(text: string, lang: SyntaxLanguage): boolean {
  return INJECTION_RULES[lang].rawRequestText?.test(text) === true;
}

/**
 * True when the language's data flow is followed and the text names one of its shell sinks: outside
 * data may reach a shell without any string being built (a parameter, an argument array, a
 * process's environment).
 *
 * @example mayReachSink('String[] a = {p}; r.exec(a);', "java") // true
 */
export function mayReachSink(text: string, lang: SyntaxLanguage): boolean {
  // SQL reads as SQL only when text is built or written whole (both seen without this); a shell
  // or `eval` runs a bare value too (a parameter, an argument array, an environment).
  return FLOW_SYNTAX[lang] !== undefined && sinkCallPattern(lang, ["shell", "code"]).test(text);
}

/**
 * A pattern for a call, by its name, of a sink of the language of one of these kinds (`exec(`,
 * `.query(`, a generic `query<T>(`), made once per language and kinds. It names no boundary before
 * the name: a pre-check, broader than the calls the tree then reads.
 */
function sinkCallPattern(lang: SyntaxLanguage, kinds: readonly SinkRule["kind"][]): RegExp {
  const key = `${lang} ${kinds.join(" ")}`;
  let called = SINK_CALLS.get(key);
  if (!called) {
    const names = new Set(INJECTION_RULES[lang].sinks.filter((r) => kinds.includes(r.kind)).flatMap((r) => r.methods));
    called = new RegExp(`(?:${[...names].join("|")})\\s*(?:<[^>]*>)?\\(`);
    SINK_CALLS.set(key, called);
  }
  return called;
}

const SINK_CALLS = new Map<string, RegExp>();

/** One place where built text reaches a SQL or shell call, or outside data reaches `eval`. */
export interface InjectionFlow {
  kind: SinkRule["kind"];
  /** The 0-based parsed row to report: the call's row if added, else the newest added building row. */
  row: number;
  /** The call as written (shortened), for the message. */
  call: string;
}

/**
 * SQL or shell text built from non-constant values (template literals, `+`, `.`, f-strings, `%`,
 * `.format`, `fmt.Sprintf`, `String.format`, `sprintf`, `format!`, interpolated strings, appends),
 * directly or through a variable, that reaches a query or exec call (or a node that runs its own
 * text in a shell, or a property that takes SQL), where the sink or the building is added by the
 * PR. The sinks of each language are `INJECTION_RULES`'. Parameterised queries (a constant text
 * with placeholders and a values argument) and argument-array process calls are not flows.
 *
 * @example injectionFlows(syntaxOfPatch(file)!) // [{ kind: "sql", row: 3, call: "cursor.execute(q)" }]
 */
export function injectionFlows(syntax: PatchSyntax, headText = "", linked?: ProjectLinks): InjectionFlow[] {
  const reader = StringBuilderReader.of(syntax);
  const fileRules = INJECTION_RULES[syntax.lang];
  const outside = new OutsideReader(syntax.lang, reader, headText);
  const out: InjectionFlow[] = [];
  const report = (kind: InjectionFlow["kind"], node: SgNode, callRow: number, hit: BuiltString) => {
    const row = reportRow(syntax, callRow, hit);
    if (row !== undefined) out.push({ kind, row, call: shorten(node.text()) });
  };
  const literals = STRING_SYNTAX[syntax.lang].literalArguments;
  const imports = fileImports(headText || syntax.root.text(), syntax.lang);
  // The functions the file declares, read once a bare call asks (most files' sinks are methods).
  let ownFunctions: Set<string> | undefined;
  const declares = (name: string) => {
    ownFunctions ??= ownFunctionNames(syntax);
    return ownFunctions.has(name);
  };
  let text: string | undefined;
  const rootText = () => {
    text ??= syntax.root.text();
    return text;
  };
  const ownRules = { ...fileRules, sinks: fileRules.sinks.filter((r) => !isBareShell(r)) };
  const noSqlRules = { ...fileRules, sinks: fileRules.sinks.filter((r) => r.kind !== "sql") };
  const sites = callSites(syntax, prefilter(sinkNamesWith(syntax.lang, imports)));
  // SQL text may also come from the imported project functions the file calls: asked of them too,
  // once. The links are only to files whose calls' results a sink is given (`importsGivenToSinks`).
  const holdsSql = linked && linked.modules.size > 0 ? linkModules(syntax, linked) : undefined;
  let moduleSql: boolean | undefined;
  const modulesHoldSql = () => {
    moduleSql ??= holdsSql?.() === true;
    return moduleSql;
  };
  for (const site of sites) {
    const call = resolveImport(site, imports, syntax.lang);
    // A bare call of a function the file defines runs that function (its own calls are judged where
    // they are), not an imported or promisified `exec`: `execCommand(cmd)` over `execFile(cmd[0], ...)`.
    const own = call.receiver === undefined && declares(call.method);
    // `this.requests.get(id)` on a `Map` is a lookup, not a query.
    const rules = own ? ownRules : noDatabaseReceiver(call, syntax, rootText) ? noSqlRules : fileRules;
    // Only literals that splice nothing: no built text and no request data reach this call (a
    // pre-check: with pre-checks off, its arguments are read as any call's are).
    const mayCarry = !literals?.test(call.argumentList.text());
    if (!precheck(mayCarry)) continue;
    // A call that only SQL rules take (`map.get(k)`, `re.exec(s)` read as SQL sinks by name) is
    // reported only for text that reads as SQL, and that text is made of the file's strings: a file
    // whose strings hold no SQL word has no SQL to reach it, so its functions need not be run (a
    // pre-check: with pre-checks off, the call is read as any sink call is).
    if (onlyWordedSql(call, rules, syntax) && !precheck(mayHoldSqlText(syntax) || modulesHoldSql())) continue;
    // Where the language's data flow is followed, the values that reach the call decide.
    const flow = rules.sinks.some((r) => matchesCall(r, call) || receiverTyped(r, call, syntax))
      ? FlowReader.of(syntax)
      : undefined;
    const reached = flow ? flowHit(call, rules, flow, syntax, reader) : undefined;
    if (reached !== undefined) {
      if (reached)
        report(reached.kind, call.node, reached.row ?? call.row, {
          literal: reached.value.literal,
          dynamic: true,
          rows: [...reached.value.rows],
        });
      continue;
    }
    const sink = sinkOf(call, rules, reader);
    if (!sink) continue;
    // Code run from anything but a constant, where the flow could not tell what reaches it.
    const code = sink.rule.kind === "code" ? sink.text.find((a) => !reader.isConstant(a)) : undefined;
    if (code) {
      report("code", call.node, call.row, { literal: "", dynamic: true, rows: [call.row] });
      continue;
    }
    const built = sink.text.map((a) => reader.read(a));
    const hit = built.find(
      (b) => b.dynamic && (sink.rule.kind === "shell" || sink.rule.fragment || SQL_SHAPE.test(b.literal)),
    );
    if (hit) {
      report(sink.rule.kind, call.node, call.row, hit);
      continue;
    }
    const raw = sink.rule.rawRequest ? sink.text.find((a) => outside.fromOutside(a)) : undefined;
    if (raw) report(sink.rule.kind, call.node, call.row, { literal: "", dynamic: true, rows: [call.row] });
  }
  if (linked) runnerCalls(syntax, linked, report);
  const mayHoldShellText =
    fileRules.shellTextKinds.length > 0 &&
    (headText === "" || fileRules.shellTextToken === undefined || precheck(fileRules.shellTextToken.test(headText)));
  if (mayHoldShellText) {
    for (const node of syntax.root.findAll({ rule: { any: fileRules.shellTextKinds.map((kind) => ({ kind })) } })) {
      const row = node.range().start.line;
      const built = reader.readText(node);
      if (built.dynamic) report("shell", node, row, built);
    }
  }
  for (const sink of fileRules.propertySinks) {
    // Setting the property names it: a file whose text never does sets none (the assignments stay unread).
    if (headText !== "" && !precheck(sink.word.test(headText))) continue;
    for (const [name, values] of reader.assignedNames()) {
      if (!sink.property.test(name)) continue;
      for (const { row, value } of values) {
        if (sink.shape === "flag-array") {
          const [flag, script] = argvOf([value], fileRules, reader);
          const built = flag && script && SHELL_FLAG.test(unquoted(flag)) ? reader.read(script) : undefined;
          if (built?.dynamic) report(sink.kind, value.parent() ?? value, row, built);
          continue;
        }
        const built = reader.read(value);
        const hit =
          built.dynamic &&
          (sink.kind === "sql"
            ? SQL_SHAPE.test(built.literal)
            : sink.shape !== "argline" || SHELL_FLAG_LINE.test(built.literal));
        if (hit) report(sink.kind, value.parent() ?? value, row, built);
      }
    }
  }
  return out.sort((a, b) => a.row - b.row);
}

/**
 * True when every sink rule the call matches is a SQL rule that reports only text SQL_SHAPE reads
 * as SQL (no fragment, no raw request value, no environment): then neither the flow nor the string
 * reader reports it unless the file's strings hold a SQL word.
 */
function onlyWordedSql(call: CallSite, rules: InjectionRules, syntax: PatchSyntax): boolean {
  let any = false;
  for (const rule of rules.sinks) {
    if (!matchesCall(rule, call) && !receiverTyped(rule, call, syntax)) continue;
    if (rule.kind !== "sql" || rule.fragment || rule.rawRequest || rule.environment !== undefined) return false;
    any = true;
  }
  return any;
}

/**
 * What any text SQL_SHAPE matches holds, one alternative of it per entry: a keyword and a word or
 * sign its clause needs too (`select` and `from`, `and`/`or` as a word and an operator, `{` and
 * `call`...). Keep in step with SQL_SHAPE.
 */
const SQL_WORDS: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/select/i, /from/i],
  [/insert/i, /into/i],
  [/update/i, /set/i],
  [/delete/i, /from/i],
  [/where/i, /[=<>]|like|in/i],
  [/order/i, /by/i],
  [/values/i, /\(/],
  [/\b(?:and|or)\b/i, /[=<>]|like/i],
  [/notify/i, /[,']/],
  [/call/i, /\{/],
  [/\bset\s/i, /\bto\b|=/i],
];

/** Whether a text (a whole file, strings and all) holds the words of any SQL_SHAPE alternative. */
export function mayHoldSqlWords(text: string): boolean {
  return SQL_WORDS.some(([word, also]) => word.test(text) && also.test(text));
}

const SQL_TEXT = new WeakMap<SgNode, boolean>();
const STRING_KINDS = new Map<SyntaxLanguage, string[]>();

/**
 * False when no string of the file (every kind of string, string part, character, heredoc body or
 * substitution the data flow's or the string reader's tables name) holds a SQL word: the literal
 * text of any value the flow or the string reader builds is made of these strings' text (and of
 * numbers and booleans, which hold no SQL keyword), so it cannot read as SQL. A keyword split across
 * strings that follow each other in the file (`"SEL" + "ECT ..."`) is read in their text joined; one
 * split across strings written in another order (`b = "ECT ..."; a = "SEL"; a + b`) is the case this
 * does not cover, and the pre-check differential checks it on real code. Where the file is linked
 * to the project files it imports (`linkModules`), their whole text is asked too.
 *
 * @example mayHoldSqlText(syntaxOf('m.get(k + "x")')) // false
 */
export function mayHoldSqlText(syntax: Pick<PatchSyntax, "root" | "lang">): boolean {
  const cached = SQL_TEXT.get(syntax.root);
  if (cached !== undefined) return cached;
  const kinds = stringKindsOf(syntax);
  // The flow also writes numbers and booleans as text (`"in" + 1/0` is "inInfinity").
  const seen = SQL_WORDS.map(([word, also]) => [word.test(AS_TEXT), also.test(AS_TEXT)]);
  let may = false;
  // Each string apart (no SQL_WORDS pattern spans two), stopping at the first alternative met.
  const texts: string[] = [];
  for (const node of kinds.length > 0 ? syntax.root.findAll({ rule: { any: kinds.map((kind) => ({ kind })) } }) : []) {
    // An escape (`"\\nor x = "`) reads as a break between words: the string reader may drop it.
    const text = node.text().replace(/\\./g, " ");
    texts.push(text);
    may = SQL_WORDS.some(([word, also], i) => {
      const s = seen[i] as boolean[];
      s[0] ||= word.test(text);
      s[1] ||= also.test(text);
      return s[0] && s[1];
    });
    if (may) break;
  }
  // A keyword split across strings that follow each other (`"SEL" + "ECT * FROM t"`), read with
  // their quotes and marks dropped: the strings' text, one after the other.
  if (!may && texts.length > 1) {
    const joined = texts.map((t) => t.replace(/[^A-Za-z0-9_{}=<>(),' ]/g, "")).join("");
    may = SQL_WORDS.some(
      ([word, also], i) =>
        (word.test(joined) || (seen[i] as boolean[])[0]) && (also.test(joined) || (seen[i] as boolean[])[1]),
    );
  }
  SQL_TEXT.set(syntax.root, may);
  return may;
}

/** What numbers and booleans read as, when the flow joins them to text. */
const AS_TEXT = "true false Infinity NaN";

/** The string kinds of the tables that are kinds of this grammar (a table shared by languages names others' too). */
function stringKindsOf(syntax: Pick<PatchSyntax, "root" | "lang">): string[] {
  const known = STRING_KINDS.get(syntax.lang);
  if (known) return known;
  const s = STRING_SYNTAX[syntax.lang];
  const f = FLOW_SYNTAX[syntax.lang];
  const all = new Set([
    ...GRAMMARS[syntax.lang].stringKinds,
    ...s.stringKinds,
    ...s.constantStringKinds,
    ...s.contentKinds,
    ...s.bodyKinds,
    ...s.substitutionKinds,
    ...(s.heredoc ? [s.heredoc.marker, s.heredoc.body] : []),
    ...(f?.stringKinds ?? []),
    ...(f?.stringContentKinds ?? []),
    ...(f?.charKinds ?? []),
    ...(f?.stringBodyKinds ?? []),
    ...(f?.heredoc ? [f.heredoc.marker, f.heredoc.body] : []),
  ]);
  const valid = [...all].filter((kind) => {
    try {
      syntax.root.find({ rule: { kind } });
      return true;
    } catch {
      return false;
    }
  });
  STRING_KINDS.set(syntax.lang, valid);
  return valid;
}

/** Languages whose bare shell sinks (`exec`, `execCommand`) a function of the file's own may shadow. */
const OWN_FUNCTION_LANGS: ReadonlySet<SyntaxLanguage> = new Set([
  "javascript",
  "typescript",
  "tsx",
] as SyntaxLanguage[]);

/** A shell sink named by a bare call only (an imported or promisified `exec`). */
function isBareShell(rule: SinkRule): boolean {
  return rule.kind === "shell" && rule.receiver === "none";
}

/**
 * The names of the functions a JavaScript or TypeScript file defines itself: `function f() {}`,
 * `const f = function () {}`, `const f = () => {}`. Empty for other languages.
 *
 * @example ownFunctionNames(syntaxOf("function execCommand(c) {}")) // Set { "execCommand" }
 */
function ownFunctionNames(syntax: Pick<PatchSyntax, "root" | "lang">): Set<string> {
  const names = new Set<string>();
  if (!OWN_FUNCTION_LANGS.has(syntax.lang)) return names;
  const kinds = ["function_declaration", "generator_function_declaration", "variable_declarator"];
  for (const node of syntax.root.findAll({ rule: { any: kinds.map((kind) => ({ kind })) } })) {
    const name = node.field("name");
    if (!name || kindOf(name) !== "identifier") continue;
    if (kindOf(node) === "variable_declarator" && !FUNCTION_VALUES.has(kindOf(node.field("value") ?? name))) continue;
    names.add(name.text());
  }
  return names;
}

const FUNCTION_VALUES = new Set(["function_expression", "function", "arrow_function", "generator_function"]);

/** A collection type of JavaScript: its `get`, `all`, `run` are no driver's. */
const COLLECTION_TYPES = "(?:Readonly)?(?:Map|Set|WeakMap|WeakSet)";

/**
 * True when a JavaScript or TypeScript call's receiver is no database: a name (or `this.name`) the
 * file declares a `Map` or `Set` (`requests: Map<string, R> = new Map()`, `const seen = new Set()`),
 * whose `get` and `all` are a collection's; a name it sets to a regular expression, whose `exec`
 * matches text (`FROM.exec(sql)`); or one of the language's own objects (``String.raw`...` ``,
 * `Promise.all`).
 *
 * @example noDatabaseReceiver(call("this.requests.get(id)"), syntax, () => "requests = new Map()") // true
 */
function noDatabaseReceiver(call: CallSite, syntax: PatchSyntax, text: () => string): boolean {
  if (!OWN_FUNCTION_LANGS.has(syntax.lang) || call.receiver === undefined) return false;
  if (BUILT_INS.has(call.receiver)) return true;
  const name = /^(?:this\.)?([A-Za-z_$][\w$]*)$/.exec(call.receiver)?.[1];
  if (!name) return false;
  const escaped = escapeRegExp(name);
  const declared = new RegExp(
    `(?<![\\w$])${escaped}\\s*(?:[?!]?\\s*:\\s*${COLLECTION_TYPES}\\s*<|=\\s*new\\s+${COLLECTION_TYPES}\\s*[<(])`,
  );
  // A regular expression's `exec` matches text: `const RE = /.../`, `= new RegExp(...)`.
  const pattern = new RegExp(`(?<![\\w$.])${escaped}\\s*(?::\\s*RegExp\\s*)?=\\s*(?:/[^/*\\s]|new\\s+RegExp\\s*\\()`);
  return declared.test(text()) || (call.method === "exec" && pattern.test(text()));
}

/** JavaScript's own objects: `String.raw`, `Promise.all`, `Object.entries` run no SQL. */
const BUILT_INS = new Set(["String", "Promise", "Object", "Array", "JSON", "Math", "Reflect", "Number", "Symbol"]);

/** What a file's imports name: the sink modules' functions and the module itself, and the SQL packages' functions. */
interface FileImports {
  aliases?: ImportAliases;
  sql?: ReadonlyMap<string, string>;
}

/** What the file's imports name, read once per file (`importAliases`, `sqlPackageFunctions`). */
function fileImports(text: string, lang: SyntaxLanguage): FileImports {
  return { aliases: importAliases(text, lang), sql: sqlPackageFunctions(text, lang) };
}

/** The language's sink names, and the local names its imports give them. */
function sinkNamesWith(lang: SyntaxLanguage, imports: FileImports): RegExp {
  const names = sinkNames(lang);
  const locals = [...(imports.aliases?.functions.keys() ?? []), ...(imports.sql?.keys() ?? [])];
  if (locals.length === 0) return names;
  const local = locals.map((n) => n.replace(/\$/g, "\\$")).join("|");
  return new RegExp(`${names.source}|(?:^|[^\\w$])(?:${local})$`);
}

/**
 * The call as the sink tables name it: `run(x)` of `{ exec: run }` is `exec(x)`, `proc.exec` of a
 * module alias `child_process.exec`, and a SQL package's function called bare is a call on the
 * package (`r(x)` of `import { raw as r } from "@mikro-orm/core"` is `sql_package.raw(x)`).
 */
function resolveImport(call: CallSite, imports: FileImports, lang: SyntaxLanguage): CallSite {
  const { aliases, sql } = imports;
  const bare = call.receiver === undefined;
  const own = bare ? aliases?.functions.get(call.method) : undefined;
  const packaged = bare && own === undefined ? sql?.get(call.method) : undefined;
  const module = !bare && aliases?.modules.has(call.receiver ?? "") ? canonicalModule(lang) : undefined;
  const resolved =
    own !== undefined
      ? { method: own, callee: own }
      : packaged !== undefined
        ? { method: packaged, callee: `${SQL_PACKAGE}.${packaged}`, receiver: SQL_PACKAGE }
        : module !== undefined
          ? { method: call.method, callee: `${module}.${call.method}`, receiver: module }
          : undefined;
  if (!resolved) return call;
  return { node: call.node, argumentList: call.argumentList, args: call.args, row: call.row, ...resolved };
}

/**
 * The sink a call is and the value that carries outside data into it, by the data flow: `null`
 * when the call is a sink that no outside data reaches, undefined when the flow did not reach the
 * call (the string reader decides then).
 */
function flowHit(
  call: CallSite,
  rules: InjectionRules,
  flow: FlowReader,
  syntax: PatchSyntax,
  strings: StringBuilderReader,
): { kind: SinkRule["kind"]; value: FlowValue; row?: number } | null | undefined {
  let reachedAny = false;
  for (const rule of rules.sinks) {
    if (!matchesCall(rule, call) && !receiverTyped(rule, call, syntax)) continue;
    if (!whenHolds(rule, call) && !shellByFlow(rule, call, flow)) continue;
    // Text that is a literal (or an ALL_CAPS constant) where the command goes carries nothing in:
    // the function need not be run (`db.query("SELECT ... WHERE id = $1", [id])`).
    const positional = sqlTextArguments(call, rule);
    const carriers = (rule.shape ?? "text") === "text" ? (rule.args ?? [0]).map((i) => positional[i]) : positional;
    if (rule.environment === undefined && carriers.every((n) => n === undefined || strings.isConstant(n))) {
      reachedAny = true;
      continue;
    }
    // A builder's condition: only a value spliced where SQL expects one (not a column name).
    if (rule.splice === "value" && !carriers.some((n) => n !== undefined && splicesValue(n, strings))) {
      const given = runnerSplice(carriers, flow, strings);
      if (given) return { kind: rule.kind, ...given };
      reachedAny = true;
      continue;
    }
    // A runner only the file calls (`run_command(self, command)` gives its parameter whole to the
    // shell, `const query = (text) => client.query(text)` to the database): the commands and SQL its
    // callers build decide, not the parameter as outside data.
    const values = runnerValues(call, rule, flow) ?? flowCarriers(call, rule, flow);
    if (values === undefined) continue;
    reachedAny = true;
    const value = values.find((v) => {
      const c = carried(v);
      return c.outside && (rule.kind !== "sql" || rule.fragment === true || SQL_SHAPE.test(v.literal));
    });
    // A builder's condition is reported where it is written, not where its chain starts.
    const row = rule.splice === "value" ? carriers.find((n) => n !== undefined)?.range().start.line : undefined;
    if (value) return { kind: rule.kind, value, row };
  }
  return reachedAny ? null : undefined;
}

/** A project file a changed file imports by a relative path, read from the head. */
export interface ProjectModule {
  path: string;
  text: string;
  /** The module's tree where the pull request adds it whole (parsed once, for it and its importers). */
  tree?: () => { root: SgNode; lang: SyntaxLanguage } | undefined;
}

/** A changed file's imports of project files and those files, by import specifier (`importsGivenToSinks`). */
export interface ProjectLinks {
  imports: readonly ProjectImport[];
  modules: ReadonlyMap<string, ProjectModule>;
  /** The imports the file calls with built text (`importsCalledWithText`): calls of a runner there are sinks. */
  runners?: readonly ProjectImport[];
}

/** Each module's syntax tree and reader, each made once, as long as the review keeps the module. */
const MODULE_READS = new WeakMap<ProjectModule, ModuleRead>();

/** A module's tree and reader, each made once. */
interface ModuleRead {
  tree: { root: SgNode; lang: SyntaxLanguage } | null;
  reader?: FlowReader | null;
}

/**
 * Each module's runners (`moduleRunners`), found once. Apart from MODULE_READS, which parses the
 * module when first asked: a module whose text calls no sink is never parsed for its runners.
 */
const MODULE_RUNNERS = new WeakMap<ProjectModule, ReadonlyMap<string, ModuleRunner>>();

/** A function of a module that hands one of its parameters whole to a shell or a database. */
interface ModuleRunner {
  kind: "shell" | "sql";
  /** The parameter's position. */
  index: number;
}

/** A module's tree and reader, parsed once; null where the parser could not read it. */
function moduleRead(module: ProjectModule): ModuleRead {
  let read = MODULE_READS.get(module);
  if (!read) {
    const lang = syntaxLanguageOf(module.path);
    let tree: { root: SgNode; lang: SyntaxLanguage } | null = null;
    try {
      tree = module.tree?.() ?? (lang ? { root: parseSource(lang, module.text), lang } : null);
    } catch {
      // A module the parser cannot read: its functions' results are outside data, as before.
    }
    read = { tree };
    MODULE_READS.set(module, read);
  }
  return read;
}

/** A module's own reader (`FlowReader.detached`), made once; null where it cannot be read. */
function moduleReader(module: ProjectModule): FlowReader | null {
  const read = moduleRead(module);
  read.reader ??= read.tree ? (FlowReader.detached(read.tree) ?? null) : null;
  return read.reader;
}

/** Whether a module's strings hold a SQL word (`mayHoldSqlText` on its tree). */
function moduleHoldsSql(module: ProjectModule): boolean {
  const { tree } = moduleRead(module);
  return tree ? mayHoldSqlText(tree) : true;
}

/**
 * Links the file's data flow to the project files it imports (`import { build } from "./queries"`):
 * a call of such a function returns what that function returns for the call's values.
 */
function linkModules(syntax: PatchSyntax, { imports, modules }: ProjectLinks): (() => boolean) | undefined {
  const flow = FlowReader.of(syntax);
  if (!flow) return undefined;
  flow.link((local) => {
    const found = imports.find((i) => i.local === local);
    const module = found ? modules.get(found.specifier) : undefined;
    if (!found || !module) return undefined;
    const reader = moduleReader(module);
    return reader ? { reader, name: found.name } : undefined;
  });
  // Whether a module the file imports (and links to) holds SQL words in its strings.
  const linkedModules = [...new Set(imports.map((i) => i.specifier))].flatMap((s) => modules.get(s) ?? []);
  return () => linkedModules.some((m) => mayHoldSqlWords(m.text) && moduleHoldsSql(m));
}

/**
 * The functions of a module that hand one of their parameters, unchanged, to a shell or SQL sink
 * (Nginx Proxy Manager's `exec: function (cmd) { ... exec(cmd, ...) }`), by the name an importer
 * calls them by (`DEFAULT_EXPORT` for `module.exports = function` or `export default`). Read once.
 *
 * @example moduleRunners(utils).get("exec") // { kind: "shell", index: 0 }
 */
function moduleRunners(module: ProjectModule): ReadonlyMap<string, ModuleRunner> {
  const known = MODULE_RUNNERS.get(module);
  if (known) return known;
  const runners = new Map<string, ModuleRunner>();
  MODULE_RUNNERS.set(module, runners);
  // A module that calls no sink by name holds no runner: it is not parsed for this (a pre-check).
  const lang = syntaxLanguageOf(module.path);
  if (!lang || !precheck(sinkCallPattern(lang, ["shell", "sql"]).test(module.text))) return runners;
  const tree = moduleRead(module).tree;
  const t = tree ? FLOW_SYNTAX[tree.lang] : undefined;
  if (!tree || !t) return runners;
  const imports = fileImports(module.text, tree.lang);
  const rules = INJECTION_RULES[tree.lang];
  let own: Set<string> | undefined;
  for (const site of callSites(tree, prefilter(sinkNamesWith(tree.lang, imports)))) {
    const call = resolveImport(site, imports, tree.lang);
    own ??= ownFunctionNames(tree);
    const shadowed = call.receiver === undefined && own.has(call.method);
    const rule = rules.sinks.find(
      (r) => !(shadowed && isBareShell(r)) && matchesCall(r, call) && whenHolds(r, call) && wholeTextArgument(call, r),
    );
    const arg = formatted(rule ? wholeTextArgument(call, rule) : undefined, t);
    if (!rule || rule.kind === "code" || !arg || !t.identifierKinds.includes(kindOf(arg))) continue;
    const param = arg.text();
    // The nearest function whose parameter it is, and the parameter never assigned there.
    let fn: SgNode | null = arg.parent();
    let index = -1;
    for (; fn; fn = fn.parent()) {
      if (!t.functionKinds.includes(kindOf(fn))) continue;
      index = parametersOf(fn, t).findIndex((p) => (fieldOf(p, "name", t) ?? p).text() === param);
      if (index >= 0) break;
    }
    if (!fn || index < 0) continue;
    if (assigns(fn.text(), param)) continue;
    for (const name of moduleReader(module)?.exportedNames(fn) ?? [])
      if (!runners.has(name)) runners.set(name, { kind: rule.kind, index });
  }
  return runners;
}

/**
 * The text a driver's `format` is given (`mysql.format(query)`, `mysql.format(query, values)`): it
 * binds the values to the text's `?` and leaves the text as it was, so the text is what runs.
 */
function formatted(arg: SgNode | undefined, t: FlowSyntax): SgNode | undefined {
  if (!arg || !t.escapingFormats || !t.callKinds.includes(kindOf(arg))) return arg;
  const callee = fieldOf(arg, "function", t)?.text().replace(/\s+/g, "");
  if (!callee || !t.escapingFormats.test(callee)) return arg;
  return fieldOf(arg, "arguments", t)?.namedChildren()[0] ?? arg;
}

/**
 * Calls of an imported project function that is a runner (`moduleRunners`): `utils.exec('htpasswd
 * -b "' + file + '" ...')` is a shell sink as `exec` itself is, whatever a sink rule of the same
 * name says of it (a SQL `db.exec`). Each is judged by what the flow says reaches the runner's parameter.
 */
function runnerCalls(
  syntax: PatchSyntax,
  { runners, modules }: ProjectLinks,
  report: (kind: "shell" | "sql", node: SgNode, row: number, hit: BuiltString) => void,
): void {
  // Only the imports whose modules hold a runner: the file's calls are not read for the others.
  const live = (runners ?? []).filter((i) => {
    const module = modules.get(i.specifier);
    return module !== undefined && moduleRunners(module).size > 0;
  });
  if (live.length === 0) return;
  const flow = FlowReader.of(syntax);
  if (!flow) return;
  const byLocal = new Map(live.map((i) => [i.local, i] as const));
  const calls = callSites(syntax, (c) => byLocal.has(c.receiver ?? c.method));
  for (const call of calls) {
    const found = byLocal.get(call.receiver ?? call.method);
    const module = found ? modules.get(found.specifier) : undefined;
    if (!found || !module) continue;
    if (!RUNNER_NAME.test(call.method)) continue;
    const name = calledExport(found, call.receiver !== undefined ? call.method : undefined);
    const runner = name ? moduleRunners(module).get(name) : undefined;
    if (!runner) continue;
    const arg = call.args.filter((a) => !OPTION_KINDS.has(kindOf(a)))[runner.index];
    const values = arg ? flow.valuesAt(arg) : undefined;
    const value = values?.find((v) => carried(v).outside && (runner.kind === "shell" || SQL_SHAPE.test(v.literal)));
    if (value)
      report(runner.kind, call.node, call.row, { literal: value.literal, dynamic: true, rows: [...value.rows] });
  }
}

/**
 * The imports of the project's own files (`projectImports`) from the files some of whose calls'
 * results a sink call of the file is given (`givenLocals`): the files worth reading for its data
 * flow, and every name the file imports from them.
 *
 * @example importsGivenToSinks(syntaxOf('import { build } from "./q"; pool.query(build(x));'))[0]?.specifier // "./q"
 */
export function importsGivenToSinks(syntax: PatchSyntax, headText = ""): ProjectImport[] {
  const text = headText || syntax.root.text();
  const imports = projectImports(text);
  if (imports.length === 0) return [];
  const sites = callSites(syntax, prefilter(sinkNamesWith(syntax.lang, fileImports(text, syntax.lang))));
  const given = givenLocals(imports, text, sites);
  const files = new Set(imports.filter((i) => given.has(i.local)).map((i) => i.specifier));
  return imports.filter((i) => files.has(i.specifier));
}

/**
 * The imports of the project's own files that the file calls with text it builds (`utils.exec('ls '
 * + dir)`, ``q.run(`SELECT ... ${id}`)``): the files whose runners (`moduleRunners`) may make those
 * calls sinks. A call's argument counts as built when it splices into a string (`+` beside a
 * quote, or a template substitution).
 *
 * @example importsCalledWithText(syntaxOf('const u = require("./u"); u.exec("ls " + d);'))[0]?.local // "u"
 */
export function importsCalledWithText(syntax: PatchSyntax, headText = ""): ProjectImport[] {
  const text = headText || syntax.root.text();
  const imports = projectImports(text);
  if (imports.length === 0) return [];
  // Read from the text, not the tree: the 400 characters after each call's `(`.
  const called = new Set<string>();
  for (const m of text.matchAll(new RegExp(`(?<![\\w$.])${importedCall(imports)}`, "g"))) {
    const after = m.index + m[0].length;
    if (!m[1] || called.has(m[1]) || !RUNNER_NAME.test(m[2] ?? m[1])) continue;
    if (BUILT_TEXT.test(text.slice(after, after + 400))) called.add(m[1]);
  }
  return imports.filter((i) => called.has(i.local));
}

/**
 * A call of one of the imported names, or of a member of one (`build(`, `q.build(`), as a regular
 * expression's source: the name is group 1, the member group 2.
 *
 * @example new RegExp(importedCall([{ local: "q", ... }])).exec("q.build(x)")?.[2] // "build"
 */
function importedCall(imports: readonly ProjectImport[]): string {
  const locals = imports.map((i) => i.local.replace(/\$/g, "\\$")).join("|");
  return `(${locals})\\s*(?:\\.\\s*([\\w$]+)\\s*)?\\(`;
}

/** Text spliced into a string: `+` beside a quote, or a template substitution. */
const BUILT_TEXT = /["'`]\s*\+|\+\s*["'`]|`[^`]*\$\{/;

/**
 * The names a runner of another file is called by (`utils.exec`, `db.runQuery`, `run(cmd)`,
 * `shell.command`, a module that is only a query function, `db(sql)`): only these calls are read
 * for runners, so that a change's every call of a project function with built text
 * (`log.info("x " + y)`) does not read that function's file.
 */
const RUNNER_NAME = /exec|run|query|sql|spawn|shell|command|cmd|system|popen|statement|raw|^db$|^database$/i;

/**
 * The imported names (`ProjectImport.local`) whose calls' results a sink call is given: an argument
 * that is such a call (`pool.query(build(x))`, `q.build(x)`), or names a local (or its member,
 * `query.sql`) the file assigns from one (`const query = build(x)`, anywhere in the file).
 */
function givenLocals(imports: readonly ProjectImport[], text: string, sites: readonly CallSite[]): Set<string> {
  const given = new Set<string>();
  if (imports.length === 0 || sites.length === 0) return given;
  const call = new RegExp(`^(?:await\\s+)?${importedCall(imports)}`);
  const assigned = assignedFromCalls(text, imports);
  for (const site of sites)
    for (const arg of site.args) {
      const written = arg.text();
      const local =
        call.exec(written)?.[1] ?? assigned.get(/^([A-Za-z_$][\w$]*)(?:\s*\.\s*[\w$]+)*$/.exec(written)?.[1] ?? "");
      if (local) given.add(local);
    }
  return given;
}

/** How far before a call `assignedFromCalls` looks for the name it is assigned to. */
const ASSIGNMENT_REACH = 400;
const WHITESPACE = /\s/;
/** `name =`, `name: Type =` (and `await`) right before a call, read backwards from the call. */
const ASSIGNED_BEFORE = /(?<![\w$.])([A-Za-z_$][\w$]*)\s*(?::[^=;(){},\n]+)?=\s*(?:await\s+)?$/;

/**
 * The locals assigned from a call of one of the imported names (`const query = build(x)`, `q: Q = await
 * m.build(x)`), each with the local called, the last assignment winning. Each call is found first,
 * then the assignment looked for in the text right before it: one search of the text for the
 * names, not one for an assignment at every name the text holds.
 *
 * @example assignedFromCalls("const q = build(x);", [{ local: "build", ... }]).get("q") // "build"
 */
function assignedFromCalls(text: string, imports: readonly ProjectImport[]): Map<string, string> {
  const assigned = new Map<string, string>();
  for (const m of text.matchAll(new RegExp(`(?<![\\w$.])${importedCall(imports)}`, "g"))) {
    // Only `=` or `await` can stand right before an assigned call (whitespace apart).
    let end = m.index;
    while (end > 0 && WHITESPACE.test(text.charAt(end - 1))) end--;
    if (text.charAt(end - 1) !== "=" && !text.endsWith("await", end)) continue;
    const from = Math.max(0, m.index - ASSIGNMENT_REACH);
    let before = ASSIGNED_BEFORE.exec(text.slice(from, m.index));
    // An assignment that reaches back past the window is read again on the whole text before it.
    if (before && before.index === 0 && from > 0) before = ASSIGNED_BEFORE.exec(text.slice(0, m.index));
    if (before?.[1] && m[1]) assigned.set(before[1], m[1]);
  }
  return assigned;
}

/**
 * The shell text a runner's callers in the file give it, when the sink's text is one of its
 * parameters passed whole (`FlowReader.callerValuesAt`); undefined otherwise, or when a caller gives
 * a list (an argument array is judged as the sink's shape says).
 */
function runnerValues(call: CallSite, rule: SinkRule, flow: FlowReader): FlowValue[] | undefined {
  const arg = wholeTextArgument(call, rule);
  const given = arg ? flow.callerValuesAt(arg) : undefined;
  return given && !given.some((v) => v.items) ? [...given] : undefined;
}

/**
 * A value spliced where SQL expects one, in text the file's calls give a runner that puts its
 * parameter into a fragment (mikro-orm's `const cast = (key) => raw(type in types ? `cast(${key}
 * as bit)` : key)` called as ``cast(`json_value(${root}, '$.${path}')`)``): the outside value and
 * the row of the argument that splices it.
 */
function runnerSplice(
  carriers: readonly (SgNode | undefined)[],
  flow: FlowReader,
  strings: StringBuilderReader,
): { value: FlowValue; row: number } | undefined {
  for (const param of carriers.flatMap((c) => (c ? textNames(c) : []))) {
    for (const arg of flow.callerArgumentsAt(param) ?? []) {
      if (!splicesValue(arg, strings)) continue;
      const value = flow.valuesAt(arg)?.find((v) => carried(v).outside);
      if (value) return { value, row: arg.range().start.line };
    }
  }
  return undefined;
}

/**
 * The one argument a shell or SQL sink takes its whole command line or statement in (a `text`
 * rule's one position, a `text-or-array` rule's first argument), with no environment beside it and
 * no fragment: what a runner hands its parameter to, in the file (`runnerValues`) or in a module
 * another file imports (`moduleRunners`). Undefined for any other rule.
 */
function wholeTextArgument(call: CallSite, rule: SinkRule): SgNode | undefined {
  if (rule.kind === "code" || rule.fragment || rule.environment !== undefined) return undefined;
  const shape = rule.shape ?? "text";
  if (shape !== "text" && shape !== "text-or-array") return undefined;
  const [index, ...more] = shape === "text" ? (rule.args ?? [0]) : [0];
  return more.length === 0 ? call.args.filter((a) => !OPTION_KINDS.has(kindOf(a)))[index ?? 0] : undefined;
}

/** The values that carry a sink's SQL or shell text, by the flow; undefined when the flow did not reach the call. */
function flowCarriers(call: CallSite, rule: SinkRule, flow: FlowReader): FlowValue[] | undefined {
  const positional = sqlTextArguments(call, rule);
  const values = positional.map((a) => flow.valueAt(a));
  if (values.some((v) => v === undefined)) return undefined;
  const given = values as FlowValue[];
  const shape = rule.shape ?? "text";
  const script = (argv: readonly FlowValue[]): FlowValue[] => {
    const [program, flag, text] = argv;
    return named(program, SHELLS) && named(flag, SHELL_FLAG) && text ? [text] : [];
  };
  const argvOfValues = (vs: readonly FlowValue[]) => (vs.length === 1 && vs[0]?.items ? vs[0].items : vs);
  if (shape === "argv") return script(argvOfValues(given.slice(rule.argvFrom ?? 0)));
  const env = rule.environment === undefined ? undefined : given[rule.environment];
  const environment = env ? (env.items ?? [env]) : [];
  if (shape === "text-or-array" || shape === "text-or-argv") {
    const [first] = given;
    if (!first) return [];
    if (first.items) return [...script(first.items), ...environment];
    if (shape === "text-or-argv" && given.length > 1) return script(given);
    return [first, ...environment];
  }
  // Each run apart: a wrapper's parameter (outside data, no text) and a caller's constant SQL are not one value.
  if (shape === "text")
    return (rule.args ?? [0]).flatMap((i) => {
      const arg = positional[i];
      if (!arg) return [];
      // `query({ text, values })`: the object's value holds the local `text` under its name.
      const text = rule.kind === "sql" && i === 0 ? objectQueryText(arg) : undefined;
      const key = text && "key" in text ? text.key : undefined;
      const values = flow.valuesAt(arg) ?? [];
      return key ? values.map((v) => v.entries?.get(key) ?? v) : [...values];
    });
  // `Process.Start("cmd.exe", "/c " + x)`: a shell program, then a line that starts with its flag.
  if (shape === "program-argline") {
    const [program, line] = given;
    return named(program, SHELLS) && line && SHELL_FLAG_LINE.test(line.literal) ? [line] : [];
  }
  // `Command::new("sh").args(["-c", x])`: the rule's receiver names the shell; the flag, then the script.
  if (shape === "receiver-argv") {
    const [flag, text] = argvOfValues(given);
    return named(flag, SHELL_FLAG) && text ? [text] : [];
  }
  return undefined;
}

/** A value that is one of a few constants, each of which the test accepts (`"sh"`, a choice of `"sh"` or `"cmd.exe"`). */
function named(v: FlowValue | undefined, test: RegExp): boolean {
  const choices = v ? choicesOf(v) : [];
  return choices.length > 0 && choices.every((c) => typeof c === "string" && test.test(c));
}

/** The rule's condition on the call holds: `shell=True` (Python), `{ shell: true }` (JavaScript), or none. */
function whenHolds(rule: SinkRule, call: CallSite): boolean {
  if (rule.when === "shell-keyword") return callArguments(call).some((a) => isTrueKeyword(a, "shell"));
  if (rule.when === "shell-option")
    return callArguments(call).some((a) => kindOf(a) === "object" && /\bshell\s*:\s*true\b/.test(a.text()));
  return true;
}

/**
 * Python's `shell=` given through a name or a dict of options, when the flow knows it may be true:
 * `shell=use_shell` after `use_shell = True`, `**opts` after `opts = {"shell": True}`.
 */
function shellByFlow(rule: SinkRule, call: CallSite, flow: FlowReader): boolean {
  if (rule.when !== "shell-keyword") return false;
  const mayBeTrue = (v: FlowValue | undefined) => v !== undefined && choicesOf(v).includes(true);
  return callArguments(call).some((a) => {
    if (kindOf(a) === "keyword_argument" && a.field("name")?.text() === "shell") {
      const value = a.field("value");
      return value ? mayBeTrue(flow.valueAt(value)) : false;
    }
    return kindOf(a) === "dictionary_splat" && mayBeTrue(flow.valueAt(a)?.entries?.get("shell"));
  });
}

/** A call on a local declared with the rule's receiver type (`Runtime r = Runtime.getRuntime(); r.exec(...)`). */
function receiverTyped(rule: SinkRule, call: CallSite, syntax: PatchSyntax): boolean {
  if (!rule.receiverType || !call.receiver || !/^[A-Za-z_$][\w$]*$/.test(call.receiver)) return false;
  if (!new RegExp(`^(?:${rule.methods.join("|")})$`).test(call.method)) return false;
  const declared = new RegExp(`\\b(?:${rule.receiverType.source})\\s+${call.receiver}\\s*[=;]`);
  return declared.test(syntax.root.text());
}

/** A call that matches a sink rule, and the nodes that carry its SQL or shell text. */
interface Sink {
  rule: SinkRule;
  text: SgNode[];
}

/** The first rule of the language that the call matches and whose shape finds text in it. */
function sinkOf(call: CallSite, rules: InjectionRules, reader: StringBuilderReader): Sink | undefined {
  for (const rule of rules.sinks) {
    if (!matchesCall(rule, call)) continue;
    if (!whenHolds(rule, call)) continue;
    const text = commandText(call, rule, rules, reader);
    if (text) return { rule, text };
  }
  return undefined;
}

/** The arguments that carry the SQL or the shell command, or undefined when the shape does not apply. */
function commandText(
  call: CallSite,
  rule: SinkRule,
  rules: InjectionRules,
  reader: StringBuilderReader,
): SgNode[] | undefined {
  const positional = sqlTextArguments(call, rule);
  const shape = rule.shape ?? "text";
  if (shape === "argv") return scriptOf(argvOf(positional.slice(rule.argvFrom ?? 0), rules, reader));
  if (shape === "text-or-array" || shape === "text-or-argv") {
    const args = positional[0] && kindOf(positional[0]) === "hash" ? positional.slice(1) : positional;
    const first = args[0];
    if (!first) return [];
    const argv = argvOf([first], rules, reader);
    if (argv.length > 1 || (shape === "text-or-argv" && args.length > 1))
      return scriptOf(argv.length > 1 ? argv : args);
    return [first];
  }
  if (shape === "program-argline") {
    const [program, line] = positional;
    if (!program || !line || !SHELLS.test(unquoted(program))) return undefined;
    const built = reader.read(line);
    return SHELL_FLAG_LINE.test(built.literal) ? [line] : undefined;
  }
  if (shape === "program-argv") {
    const [program, list] = positional;
    return program && list ? scriptOf([program, ...argvOf([list], rules, reader)]) : undefined;
  }
  if (shape === "receiver-argv") {
    const argv = argvOf(positional, rules, reader);
    return argv[0] && SHELL_FLAG.test(unquoted(argv[0])) && argv[1] ? [argv[1]] : undefined;
  }
  const text = (rule.args ?? [0]).map((i) => positional[i]).filter((a): a is SgNode => a !== undefined);
  if (rule.splice !== "value") return text;
  const spliced = text.filter((a) => splicesValue(a, reader));
  return spliced.length > 0 ? spliced : undefined;
}

/** Keyword arguments and trailing options (Python `shell=True`, Ruby `exception: true`) carry no command. */
const OPTION_KINDS = new Set(["keyword_argument", "pair"]);

/** The keys of a query given as one object whose text a database runs (`objectQueryText`). */
const CONFIG_TEXT_KEYS = new Set(["text", "sql", "query"]);

/**
 * The text of a query given as one object literal: node-postgres's `query({ text, values })`,
 * mysql's `query({ sql, timeout })`, libSQL's `execute({ sql, args })`, Sequelize's `query({ query,
 * values })`. A key written out gives its value's node; the shorthand (`{ text, values }`) gives
 * the name under which the object's flow value holds the local. Its other keys are bound values
 * and options; an object with none of these keys (or not an object) gives undefined.
 *
 * @example objectQueryText(pgQueryObject)?.value?.text() // "`SELECT v FROM t WHERE v LIKE '${m}'`"
 */
function objectQueryText(arg: SgNode | undefined): { value: SgNode } | { key: string } | undefined {
  if (!arg || kindOf(arg) !== "object") return undefined;
  let shorthand: string | undefined;
  for (const part of arg.namedChildren()) {
    if (part.kind() === "shorthand_property_identifier" && CONFIG_TEXT_KEYS.has(part.text())) shorthand ??= part.text();
    const key = part.kind() === "pair" ? part.field("key") : null;
    const value = part.field("value");
    if (key && value && CONFIG_TEXT_KEYS.has(unquoted(key))) return { value };
  }
  return shorthand === undefined ? undefined : { key: shorthand };
}

/** A call's positional arguments, a SQL sink's query object standing for its text's node (`objectQueryText`). */
function sqlTextArguments(call: CallSite, rule: SinkRule): SgNode[] {
  const positional = call.args.filter((a) => !OPTION_KINDS.has(kindOf(a)));
  const text = rule.kind === "sql" ? objectQueryText(positional[0]) : undefined;
  return text && "value" in text ? [text.value, ...positional.slice(1)] : positional;
}

/** A program and its arguments: one array or list argument stands for its elements. */
function argvOf(args: SgNode[], rules: InjectionRules, reader: StringBuilderReader): SgNode[] {
  if (args.length !== 1 || !args[0]) return args;
  let only = args[0];
  while (kindOf(only) === "reference_expression" || kindOf(only) === "parenthesized_expression") {
    only = only.namedChildren()[0] ?? only;
    if (only === args[0]) break;
  }
  if (rules.arrayKinds.includes(kindOf(only))) return elements(only, rules);
  const list = rules.listCalls.source !== "(?!)" ? reader.callOf(only) : undefined;
  if (list && rules.listCalls.test(list.callee)) return list.args;
  return args;
}

/** An array literal's elements, through its initializer and element wrappers. */
function elements(array: SgNode, rules: InjectionRules): SgNode[] {
  const named = array.namedChildren().filter((c) => !ARRAY_NOISE.has(kindOf(c)));
  const inner = named.find((c) => rules.arrayKinds.includes(kindOf(c)));
  if (inner && named.length === 1) return elements(inner, rules);
  return named.map((c) => (ELEMENT_WRAPPERS.has(kindOf(c)) ? (c.namedChildren()[0] ?? c) : c));
}

const ARRAY_NOISE = new Set([
  "type_identifier",
  "dimensions",
  "predefined_type",
  "array_type",
  "generic_name",
  "identifier_type",
]);
const ELEMENT_WRAPPERS = new Set(["array_element_initializer"]);

/** `sh -c script`: the script, when a shell is asked to run text; undefined for any other program. */
function scriptOf(argv: SgNode[]): SgNode[] | undefined {
  const [program, flag, script] = argv;
  if (!program || !SHELLS.test(unquoted(program)) || !flag || !SHELL_FLAG.test(unquoted(flag)) || !script)
    return undefined;
  return [script];
}

function unquoted(node: SgNode): string {
  return node.text().replace(/^["'`]|["'`]$/g, "");
}

function isTrueKeyword(node: SgNode, name: string): boolean {
  return (
    kindOf(node) === "keyword_argument" && node.field("name")?.text() === name && node.field("value")?.text() === "True"
  );
}

/** The call's row when the PR adds it; else the newest added row that built the text. */
function reportRow(syntax: PatchSyntax, callRow: number, built: BuiltString): number | undefined {
  if (syntax.isAdded(callRow)) return callRow;
  const added = built.rows.filter((r) => syntax.isAdded(r)).sort((a, b) => b - a);
  return added[0];
}

function shorten(text: string): string {
  const one = text.replace(/\s+/g, " ");
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
}
