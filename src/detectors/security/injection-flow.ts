import type { SgNode } from "@ast-grep/napi";
import { callSites, type CallSite } from "../code/call-sites.js";
import type { PatchSyntax, SyntaxLanguage } from "../code/syntax-tree.js";
import { callArguments, kindOf, StringBuilderReader, type BuiltString } from "./built-string.js";
import { prefilter } from "../precheck.js";

/** Text that reads as a SQL statement or clause. */
export const SQL_SHAPE =
  /\b(select\b[\s\S]*\bfrom|insert\s+into|update\s+[\w."`]+\s+set|delete\s+from|where\s+[\w.]+\s*(=|like|in\b|<|>)|order\s+by|values\s*\(|(and|or)\s+[\w.]+\s*(=|like|<|>))/i;

/** Methods that run SQL text: drivers, ORMs' raw escapes, query builders' `*Raw`. */
const SQL_METHOD = new Set([
  "query",
  "execute",
  "executemany",
  "executescript",
  "raw",
  "unsafe",
  "$queryRawUnsafe",
  "$executeRawUnsafe",
  "queryRawUnsafe",
  "executeRawUnsafe",
  "exec",
  "exec_driver_sql",
  "prepare",
  "whereRaw",
  "orderByRaw",
  "havingRaw",
  "joinRaw",
  "fromRaw",
  "read_sql",
  "read_sql_query",
  "text",
  "extra",
  "all",
  "get",
  "run",
  "each",
  "Query",
  "QueryRow",
  "QueryContext",
  "QueryRowContext",
  "Exec",
  "ExecContext",
  "Prepare",
  "PrepareContext",
  "Raw",
  "Select",
  "Get",
  "MustExec",
  "Queryx",
  "QueryRowx",
  "Execute",
  // asyncpg and encode/databases.
  "fetch",
  "fetchrow",
  "fetchval",
  "fetch_all",
  "fetch_one",
  "fetch_val",
]);
/** Receivers whose `exec` runs a shell command, not SQL (`child_process.exec`, `require("child_process").exec`). */
const SHELL_RECEIVER = /^(child_process|childProcess|cp|shell|shelljs)$|^require\(["'`](node:)?child_process["'`]\)$/;
/** Bare function names that run a shell command in JavaScript (imported or promisified `exec`). */
const JS_SHELL_FN = /^(exec|execSync|execAsync|execPromise|pexec|execCommand|execaCommand|execaCommandSync)$/;
const PY_SHELL_CALL =
  /^(os\.system|os\.popen|subprocess\.getoutput|subprocess\.getstatusoutput|commands\.getoutput|asyncio\.create_subprocess_shell|popen2\.\w+)$/;
const PY_SUBPROCESS = /^(subprocess\.)?(run|call|check_call|check_output|Popen)$/;
const JS_SPAWN = /^(child_process\.|childProcess\.|cp\.)?(spawn|spawnSync|execFile|execFileSync)$/;
const SHELLS = /^(\/(usr\/)?bin\/)?(sh|bash|zsh|dash|ash|ksh|cmd(\.exe)?|powershell(\.exe)?|pwsh)$/;

/** The last names of every call `sinkKind` can accept: a cheap pre-filter on callee text. */
const SINK_NAMES = new RegExp(
  `(?:^|[^\\w$])(?:${[
    ...SQL_METHOD,
    ...["exec", "execSync", "execAsync", "execPromise", "pexec", "execCommand", "execaCommand", "execaCommandSync"],
    ...["system", "popen", "getoutput", "getstatusoutput", "create_subprocess_shell", "popen2\\.\\w+"],
    ...[
      "run",
      "call",
      "check_call",
      "check_output",
      "Popen",
      "Command",
      "CommandContext",
      "spawn",
      "spawnSync",
      "execFile",
      "execFileSync",
      "text",
    ],
  ]
    .map((n) => n.replace(/\$/g, "\\$"))
    .join("|")})$`,
);

/** Every way `StringBuilderReader` sees text built at run time, by the characters it needs. */
const BUILDS = /\+|format|concat|Sprint/;
/** Python's `%` formatting, and an f-string (or t-string) prefix right before its quote. */
const PY_BUILDS = /%|(?<![\w])(?:[fFtT][rR]?|[rR][fFtT])["']/;
/** A template substitution; `${ALL_CAPS}` alone is a constant and builds nothing. */
const SUBSTITUTION = /\$\{([^}]*)\}?/g;
const CONSTANT_SUBSTITUTION = /^\s*[A-Z_][A-Z0-9_]*\s*$/;

/**
 * False only when the text cannot build a string at run time, so no call in it can receive built
 * SQL or shell text: no `+`, no format or concat call, no `fmt.Sprint*`, no template substitution
 * of a non-constant, and in Python no `%` and no f-string. Checked on the text the parser would
 * read, before any parse: a file without any of these has no injection flow.
 *
 * @example mayBuildStrings('db.query("SELECT 1 FROM t WHERE id = $1", [id])', "typescript") // false
 */
export function mayBuildStrings(text: string, lang: SyntaxLanguage): boolean {
  if (BUILDS.test(text) || (lang === "python" && PY_BUILDS.test(text))) return true;
  for (const m of text.matchAll(SUBSTITUTION)) if (!CONSTANT_SUBSTITUTION.test(m[1] ?? "")) return true;
  return false;
}

/** One place where built text reaches a SQL or shell call. */
export interface InjectionFlow {
  kind: "sql" | "shell";
  /** The 0-based parsed row to report: the call's row if added, else the newest added building row. */
  row: number;
  /** The call as written (shortened), for the message. */
  call: string;
}

/**
 * SQL or shell text built from non-constant values (template literals, `+`, f-strings, `%`,
 * `.format`, `fmt.Sprintf`), directly or through a variable, that reaches a query or exec call,
 * where the call or the building is added by the PR. Parameterised queries (a constant text with
 * placeholders and a values argument) and argument-array process calls are not flows.
 *
 * @example injectionFlows(syntaxOfPatch(file)!) // [{ kind: "sql", row: 3, call: "cursor.execute(q)" }]
 */
export function injectionFlows(syntax: PatchSyntax): InjectionFlow[] {
  const reader = new StringBuilderReader(syntax.root, syntax.lang);
  const out: InjectionFlow[] = [];
  for (const call of callSites(syntax, prefilter(SINK_NAMES))) {
    const kind = sinkKind(call, syntax.lang);
    if (!kind) continue;
    const built = commandText(call, kind, syntax.lang).map((a) => reader.read(a));
    const hit = built.find((b) => b.dynamic && (kind === "shell" || SQL_SHAPE.test(b.literal)));
    if (!hit) continue;
    const row = reportRow(syntax, call.row, hit);
    if (row !== undefined) out.push({ kind, row, call: shorten(call.node.text()) });
  }
  return out;
}

function sinkKind(call: CallSite, lang: SyntaxLanguage): InjectionFlow["kind"] | undefined {
  if (lang === "python") {
    if (PY_SHELL_CALL.test(call.callee)) return "shell";
    if (PY_SUBPROCESS.test(call.callee) && callArguments(call).some((a) => isTrueKeyword(a, "shell"))) return "shell";
  } else if (lang === "go") {
    if (/^exec\.Command(Context)?$/.test(call.callee) && goShellArgs(call) !== undefined) return "shell";
  } else {
    if (call.receiver === undefined && JS_SHELL_FN.test(call.method)) return "shell";
    if (call.receiver !== undefined && SHELL_RECEIVER.test(call.receiver) && /^(exec|execSync)$/.test(call.method))
      return "shell";
    if (
      JS_SPAWN.test(call.callee) &&
      callArguments(call).some((a) => kindOf(a) === "object" && /\bshell\s*:\s*true\b/.test(a.text()))
    )
      return "shell";
  }
  if (call.receiver !== undefined && SQL_METHOD.has(call.method)) return "sql";
  if (lang === "python" && /^(sqlalchemy\.)?text$/.test(call.callee)) return "sql";
  return undefined;
}

/** The arguments that carry the SQL or the shell command. */
function commandText(call: CallSite, kind: InjectionFlow["kind"], lang: SyntaxLanguage): SgNode[] {
  const positional = callArguments(call).filter((a) => kindOf(a) !== "keyword_argument");
  if (lang === "go" && kind === "shell") {
    const script = goShellArgs(call);
    return script ? [script] : [];
  }
  if (kind === "shell") return positional.slice(0, 1);
  // Go's context variants take the context first: look at the first two arguments.
  return positional.slice(0, lang === "go" ? 2 : 1);
}

/** `exec.Command("sh", "-c", script)`: the script argument, when a shell is asked to run text. */
function goShellArgs(call: CallSite): SgNode | undefined {
  const args = call.callee.endsWith("Context") ? callArguments(call).slice(1) : callArguments(call);
  const program = args[0]?.text().replace(/^["`]|["`]$/g, "");
  const flag = args[1]?.text().replace(/^["`]|["`]$/g, "");
  if (program === undefined || !SHELLS.test(program) || !/^(-c|\/c|\/C|-Command)$/.test(flag ?? "")) return undefined;
  return args[2];
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
