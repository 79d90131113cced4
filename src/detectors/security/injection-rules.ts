import type { SyntaxLanguage } from "../code/grammars.js";
import { calleeNames, type CallRule } from "./call-rule.js";

/**
 * Where each language runs SQL text or a shell command, as data: the calls (by last name, with an
 * optional receiver or full-callee test), which arguments carry the text and how, the nodes that
 * run their own text in a shell (Ruby's backticks), and the properties that take SQL or a shell
 * argument line (C# `CommandText`). `injection-flow.ts` reads this table and never branches on a
 * language's name.
 *
 * @example INJECTION_RULES.ruby.shellTextKinds // ["subshell"]
 */

/**
 * How a sink's arguments carry the text.
 * - `text`: the arguments at `args` are SQL or a whole shell command line.
 * - `argv`: the arguments (or one array argument) are a program and its arguments; only a shell
 *   given `-c` (or `/c`, `-Command`) and a script is a command line, the script.
 * - `text-or-array`: an array first argument is `argv`; anything else is `text` (PHP `proc_open`, Java `exec`).
 * - `text-or-argv`: one argument is `text`; several, or an array, are `argv` (Ruby `system`).
 * - `program-argline`: a shell program first, then one argument line that starts with its `-c` flag
 *   (C# `Process.Start("cmd.exe", "/c " + x)`).
 * - `receiver-argv`: the receiver names a shell and the one array argument holds the flag and the
 *   script (Rust `Command::new("sh").args(["-c", x])`).
 */
export type SinkShape = "text" | "argv" | "text-or-array" | "text-or-argv" | "program-argline" | "receiver-argv";

/** One call that runs SQL or a shell command. */
export interface SinkRule extends CallRule {
  kind: "sql" | "shell";
  /** How the arguments carry the text (default `text`). */
  shape?: SinkShape;
  /** The positional arguments that may carry the text, for `text` (default the first). */
  args?: readonly number[];
  /** For `argv`, where the program's argument list starts (Go's `CommandContext` takes a context first). */
  argvFrom?: number;
  /** Only when the call asks for a shell: Python `shell=True`, JavaScript `{ shell: true }`. */
  when?: "shell-keyword" | "shell-option";
  /** A SQL fragment (an ORM's `where("...")`): built text is enough, no SQL statement shape needed. */
  fragment?: boolean;
  /** A request value passed straight in is injection too (Rails `order(params[:sort])`). */
  rawRequest?: boolean;
}

/** A property whose assigned text is SQL or a shell argument line (C# `cmd.CommandText = ...`). */
export interface PropertySink {
  kind: "sql" | "shell";
  property: RegExp;
  /** A word the file's text holds wherever the property is set (a cheap pre-check before the assignments are read). */
  word: RegExp;
  /** `argline`: an argument line that must start with a shell's `-c` flag to be a command. */
  shape: "text" | "argline";
}

/** One language's sinks. */
export interface InjectionRules {
  sinks: readonly SinkRule[];
  /** Node kinds that run their own text in a shell, substitutions included (Ruby `` `ls #{d}` ``, PHP backticks). */
  shellTextKinds: readonly string[];
  /** What a file's text holds wherever it has such a node (a backtick, `%x`): without it, the tree is not searched. */
  shellTextToken?: RegExp;
  propertySinks: readonly PropertySink[];
  /** Array literal kinds, and calls that build a list, whose elements are a program's arguments. */
  arrayKinds: readonly string[];
  listCalls: RegExp;
  /** Text a file must hold for a request value to reach a `rawRequest` sink (a cheap pre-check). */
  rawRequestText?: RegExp;
}

/** Programs that run their argument as a command line. */
export const SHELLS = /^(\/(usr\/)?bin\/)?(sh|bash|zsh|dash|ash|ksh|cmd(\.exe)?|powershell(\.exe)?|pwsh)$/;
/** The flag that makes a shell run the next argument as a command line. */
export const SHELL_FLAG = /^(-c|\/c|\/C|-Command)$/;
/** An argument line that begins with a shell's command flag (`"/c " + x`, `$"-c \"{x}\""`). */
export const SHELL_FLAG_LINE = /^\s*(-c|\/c|\/C|-Command)(\s|$)/;

/** Methods that run SQL text in JavaScript, Python and Go: drivers, ORMs' raw escapes, query builders' `*Raw`. */
const FIRST_SQL_METHODS = [
  "query",
  "execute",
  "executemany",
  "executescript",
  "raw",
  "unsafe",
  "\\$queryRawUnsafe",
  "\\$executeRawUnsafe",
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
];

const NO_ARRAYS = { arrayKinds: [], listCalls: /(?!)/, propertySinks: [], shellTextKinds: [] } as const;

const JS_RULES: InjectionRules = {
  ...NO_ARRAYS,
  sinks: [
    // An imported or promisified `exec`.
    {
      kind: "shell",
      methods: [
        "exec",
        "execSync",
        "execAsync",
        "execPromise",
        "pexec",
        "execCommand",
        "execaCommand",
        "execaCommandSync",
      ],
      receiver: "none",
    },
    {
      kind: "shell",
      methods: ["exec", "execSync"],
      receiver: /^(child_process|childProcess|cp|shell|shelljs)$|^require\(["'`](node:)?child_process["'`]\)$/,
    },
    {
      kind: "shell",
      methods: ["spawn", "spawnSync", "execFile", "execFileSync"],
      callee: /^(child_process\.|childProcess\.|cp\.)?(spawn|spawnSync|execFile|execFileSync)$/,
      when: "shell-option",
    },
    { kind: "sql", methods: FIRST_SQL_METHODS, receiver: "any" },
  ],
};

/** The JVM's JDBC, JPA, Hibernate and Spring `JdbcTemplate` calls that run SQL text. */
const JVM_SQL: SinkRule = {
  kind: "sql",
  methods: [
    "executeQuery",
    "executeUpdate",
    "executeLargeUpdate",
    "execute",
    "addBatch",
    "prepareStatement",
    "prepareCall",
    "nativeSQL",
    "createQuery",
    "createNativeQuery",
    "createSQLQuery",
    "createNativeMutationQuery",
    "query",
    "queryForObject",
    "queryForList",
    "queryForMap",
    "queryForRowSet",
    "queryForStream",
    "update",
    "batchUpdate",
  ],
  receiver: "any",
};
const JVM_SHELL: readonly SinkRule[] = [
  {
    kind: "shell",
    methods: ["exec"],
    receiver: /(^|\.)getRuntime\(\)$|^(runtime|rt)$/,
    shape: "text-or-array",
  },
  { kind: "shell", methods: ["ProcessBuilder"], callee: /^(java\.lang\.)?ProcessBuilder$/, shape: "argv" },
  { kind: "shell", methods: ["command"], receiver: "any", shape: "argv" },
];
const JVM_LISTS = /^(List\.of|Arrays\.asList|listOf|mutableListOf|arrayOf|arrayListOf)$/;

/** Every language's sinks. */
export const INJECTION_RULES: Readonly<Record<SyntaxLanguage, InjectionRules>> = {
  javascript: JS_RULES,
  typescript: JS_RULES,
  tsx: JS_RULES,
  python: {
    ...NO_ARRAYS,
    sinks: [
      {
        kind: "shell",
        methods: ["system", "popen", "getoutput", "getstatusoutput", "create_subprocess_shell", "popen[234]?"],
        callee:
          /^(os\.system|os\.popen|subprocess\.getoutput|subprocess\.getstatusoutput|commands\.getoutput|asyncio\.create_subprocess_shell|popen2\.\w+)$/,
      },
      {
        kind: "shell",
        methods: ["run", "call", "check_call", "check_output", "Popen"],
        callee: /^(subprocess\.)?(run|call|check_call|check_output|Popen)$/,
        when: "shell-keyword",
      },
      { kind: "sql", methods: FIRST_SQL_METHODS, receiver: "any" },
      { kind: "sql", methods: ["text"], callee: /^(sqlalchemy\.)?text$/ },
    ],
  },
  go: {
    ...NO_ARRAYS,
    sinks: [
      { kind: "shell", methods: ["Command"], callee: /^exec\.Command$/, shape: "argv" },
      { kind: "shell", methods: ["CommandContext"], callee: /^exec\.CommandContext$/, shape: "argv", argvFrom: 1 },
      // The context variants take the context first: look at the first two arguments.
      { kind: "sql", methods: FIRST_SQL_METHODS, receiver: "any", args: [0, 1] },
    ],
  },
  java: {
    ...NO_ARRAYS,
    arrayKinds: ["array_creation_expression", "array_initializer"],
    listCalls: JVM_LISTS,
    sinks: [...JVM_SHELL, JVM_SQL],
  },
  kotlin: {
    ...NO_ARRAYS,
    listCalls: JVM_LISTS,
    sinks: [
      ...JVM_SHELL,
      JVM_SQL,
      // Exposed: `exec("...")` inside a transaction, or `TransactionManager.current().exec(...)`.
      { kind: "sql", methods: ["exec"] },
    ],
  },
  csharp: {
    ...NO_ARRAYS,
    arrayKinds: [
      "array_creation_expression",
      "implicit_array_creation_expression",
      "initializer_expression",
      "collection_expression",
    ],
    sinks: [
      {
        kind: "shell",
        methods: ["Start"],
        callee: /^(System\.Diagnostics\.)?Process\.Start$/,
        shape: "program-argline",
      },
      {
        kind: "shell",
        methods: ["ProcessStartInfo"],
        callee: /^(System\.Diagnostics\.)?ProcessStartInfo$/,
        shape: "program-argline",
      },
      {
        kind: "sql",
        methods: [
          "SqlCommand",
          "NpgsqlCommand",
          "MySqlCommand",
          "SqliteCommand",
          "SQLiteCommand",
          "OracleCommand",
          "OleDbCommand",
          "OdbcCommand",
        ],
      },
      // Entity Framework's raw escapes (`FromSqlInterpolated` and `FromSql($"...")` parameterise).
      {
        kind: "sql",
        methods: [
          "FromSqlRaw",
          "ExecuteSqlRaw",
          "ExecuteSqlRawAsync",
          "SqlQueryRaw",
          "SqlQuery",
          "ExecuteSqlCommand",
          "ExecuteSqlCommandAsync",
        ],
        receiver: "any",
      },
      // Dapper and ADO.NET helpers.
      {
        kind: "sql",
        methods: [
          "Query",
          "QueryAsync",
          "QueryFirst",
          "QueryFirstAsync",
          "QueryFirstOrDefault",
          "QueryFirstOrDefaultAsync",
          "QuerySingle",
          "QuerySingleAsync",
          "QuerySingleOrDefault",
          "QuerySingleOrDefaultAsync",
          "QueryMultiple",
          "QueryMultipleAsync",
          "Execute",
          "ExecuteAsync",
          "ExecuteScalar",
          "ExecuteScalarAsync",
          "ExecuteReader",
          "ExecuteReaderAsync",
        ],
        receiver: "any",
      },
    ],
    propertySinks: [
      { kind: "sql", property: /(^|\.)CommandText$/, word: /CommandText/, shape: "text" },
      { kind: "shell", property: /(^|\.)Arguments$/, word: /Arguments/, shape: "argline" },
    ],
  },
  php: {
    ...NO_ARRAYS,
    arrayKinds: ["array_creation_expression"],
    shellTextKinds: ["shell_command_expression"],
    shellTextToken: /`/,
    rawRequestText: /\$_|request/i,
    sinks: [
      {
        kind: "shell",
        methods: ["exec", "system", "shell_exec", "passthru", "popen", "proc_open", "pcntl_exec"],
        receiver: "none",
        shape: "text-or-array",
      },
      {
        kind: "sql",
        methods: [
          "mysqli_query",
          "mysqli_real_query",
          "mysqli_multi_query",
          "mysqli_prepare",
          "mysql_query",
          "pg_query",
          "pg_send_query",
          "pg_prepare",
          "sqlite_query",
          "sqlsrv_query",
          "odbc_exec",
        ],
        receiver: "none",
        args: [0, 1, 2],
      },
      // Laravel's raw fragments: built text is injection without a whole statement.
      {
        kind: "sql",
        methods: ["raw", "selectRaw", "whereRaw", "orWhereRaw", "havingRaw", "orHavingRaw", "orderByRaw", "groupByRaw"],
        receiver: "any",
        fragment: true,
        rawRequest: true,
      },
      {
        kind: "sql",
        methods: [
          "query",
          "exec",
          "prepare",
          "multi_query",
          "real_query",
          "unprepared",
          "statement",
          "select",
          "insert",
          "update",
          "delete",
          "fetchAll",
          "fetchAssoc",
          "executeQuery",
          "executeStatement",
        ],
        receiver: "any",
      },
    ],
  },
  ruby: {
    ...NO_ARRAYS,
    arrayKinds: ["array"],
    shellTextKinds: ["subshell"],
    shellTextToken: /`|%x/,
    rawRequestText: /params|request|cookies/,
    sinks: [
      { kind: "shell", methods: ["system", "exec", "spawn"], receiver: "none", shape: "text-or-argv" },
      { kind: "shell", methods: ["system", "exec", "spawn"], receiver: /^(Kernel|Process)$/, shape: "text-or-argv" },
      {
        kind: "shell",
        methods: [
          "popen",
          "popen2",
          "popen2e",
          "popen3",
          "capture2",
          "capture2e",
          "capture3",
          "pipeline",
          "pipeline_r",
          "pipeline_w",
          "pipeline_rw",
          "pipeline_start",
        ],
        receiver: /^(IO|Open3)$/,
        shape: "text-or-argv",
      },
      // ActiveRecord fragments a request value must not reach as text.
      {
        kind: "sql",
        methods: ["order", "reorder", "group", "having", "joins", "from", "select", "pluck", "lock", "in_order_of"],
        receiver: "any",
        fragment: true,
        rawRequest: true,
      },
      {
        kind: "sql",
        methods: [
          "where",
          "rewhere",
          "not",
          "find_by",
          "update_all",
          "delete_all",
          "exists\\?",
          "calculate",
          "count",
          "sum",
        ],
        receiver: "any",
        fragment: true,
      },
      {
        kind: "sql",
        methods: [
          "find_by_sql",
          "count_by_sql",
          "execute",
          "exec_query",
          "exec_update",
          "exec_delete",
          "exec_insert",
          "select_all",
          "select_one",
          "select_value",
          "select_values",
          "select_rows",
          "run",
        ],
      },
    ],
  },
  rust: {
    ...NO_ARRAYS,
    arrayKinds: ["array_expression"],
    listCalls: /^vec!$/,
    sinks: [
      {
        kind: "shell",
        methods: ["arg"],
        receiver:
          /^((std|tokio)\.process\.)?Command\.new\("(\/(usr\/)?bin\/)?(sh|bash|zsh|dash|ash|ksh|cmd(\.exe)?|powershell(\.exe)?|pwsh)"\)\.arg\("(-c|\/c|\/C|-Command)"\)$/,
      },
      {
        kind: "shell",
        methods: ["args"],
        receiver:
          /^((std|tokio)\.process\.)?Command\.new\("(\/(usr\/)?bin\/)?(sh|bash|zsh|dash|ash|ksh|cmd(\.exe)?|powershell(\.exe)?|pwsh)"\)$/,
        shape: "receiver-argv",
      },
      // sqlx, diesel, rusqlite, postgres: the `query!` macros and `.bind()` parameterise.
      {
        kind: "sql",
        methods: [
          "query",
          "query_as",
          "query_scalar",
          "query_with",
          "query_as_with",
          "sql_query",
          "execute",
          "execute_batch",
          "batch_execute",
          "query_row",
          "query_map",
          "query_one",
          "query_opt",
          "simple_query",
          "prepare",
          "prepare_cached",
          "raw_sql",
        ],
      },
    ],
  },
};

/**
 * The callee test of every sink of a language: a cheap filter on the call index, built from the
 * rules' last names (a callee that matches no rule's name cannot be a sink).
 *
 * @example sinkNames("ruby").test("User.where") // true
 */
export function sinkNames(lang: SyntaxLanguage): RegExp {
  let names = SINK_NAMES.get(lang);
  if (!names) {
    names = calleeNames(INJECTION_RULES[lang].sinks);
    SINK_NAMES.set(lang, names);
  }
  return names;
}

const SINK_NAMES = new Map<SyntaxLanguage, RegExp>();
