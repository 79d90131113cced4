import type { SyntaxLanguage } from "../code/grammars.js";
import { calleeNames } from "./call-rule.js";
import type { InjectionRules } from "./injection-rule-types.js";
import { FIRST_SQL_METHODS, NO_ARRAYS, JS_RULES, JVM_SQL, JVM_SHELL, JVM_LISTS } from "./injection-sinks-shared.js";

export {
  type InjectionRules,
  type PropertySink,
  SHELL_FLAG,
  SHELL_FLAG_LINE,
  SHELLS,
  type SinkRule,
  type SinkShape,
} from "./injection-rule-types.js";

/**
 * Where each language runs SQL text or a shell command, as data: the calls (by last name, with an
 * optional receiver or full-callee test), which arguments carry the text and how, the nodes that
 * run their own text in a shell (Ruby's backticks), and the properties that take SQL or a shell
 * argument line (C# `CommandText`). `injection-flow.ts` reads this table and never branches on a
 * language's name.
 *
 * @example INJECTION_RULES.ruby.shellTextKinds // ["subshell"]
 */

/** Programs that run a script given after `-c`. */
const SHELL_PROGRAMS = ["sh", "bash", "zsh", "dash", "ash", "ksh", "/bin/sh", "/bin/bash"];

/** C and C++: the C library's shell calls, the SQL clients' text calls. */
const C_RULES: InjectionRules = {
  ...NO_ARRAYS,
  sinks: [
    { kind: "shell", methods: ["system", "popen", "_popen", "_wsystem"], receiver: "none" },
    // `execl("/bin/sh", "sh", "-c", cmd, NULL)`: the arguments from the second are the program's argv.
    { kind: "shell", methods: ["execl", "execlp", "execle"], receiver: "none", shape: "argv", argvFrom: 1 },
    {
      kind: "sql",
      methods: [
        "mysql_query",
        "mysql_real_query",
        "mysql_send_query",
        "sqlite3_exec",
        "sqlite3_prepare",
        "sqlite3_prepare_v2",
        "sqlite3_prepare_v3",
        "PQexec",
        "PQsendQuery",
        "PQprepare",
        "SQLExecDirect",
        "SQLPrepare",
      ],
      receiver: "none",
      args: [1],
    },
  ],
};

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
      // An argument list that asks a shell to run a script: `subprocess.run(["sh", "-c", script])`.
      {
        kind: "shell",
        methods: ["run", "call", "check_call", "check_output", "Popen"],
        callee: /^(subprocess\.)?(run|call|check_call|check_output|Popen)$/,
        shape: "argv",
      },
      { kind: "sql", methods: FIRST_SQL_METHODS, receiver: "any" },
      { kind: "sql", methods: ["text"], callee: /^(sqlalchemy\.)?text$/ },
      // `eval(s)` and `exec(s)` run their text as Python.
      { kind: "code", methods: ["eval", "exec"], callee: /^(builtins\.)?(eval|exec)$/ },
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
  bash: {
    ...NO_ARRAYS,
    sinks: [
      // `eval "$x"` runs its arguments as a command line; `sh -c "$x"` runs its script.
      { kind: "shell", methods: ["eval"], receiver: "none", args: [0, 1, 2, 3] },
      { kind: "shell", methods: SHELL_PROGRAMS, receiver: "none", shape: "receiver-argv" },
    ],
  },
  scala: {
    ...NO_ARRAYS,
    listCalls: /^(Seq|List|Array|Vector)$/,
    sinks: [
      // scala.sys.process: `Process("ls " + d)` and `Seq("sh", "-c", cmd)` (run with `.!`).
      {
        kind: "shell",
        methods: ["Process"],
        callee: /^(scala\.sys\.process\.|sys\.process\.)?Process$/,
        shape: "text-or-argv",
      },
      { kind: "shell", methods: ["Seq", "List"], receiver: "none", shape: "argv" },
      ...JVM_SHELL,
      // Anorm's `SQL(...)` takes text (its `SQL"..."` interpolator binds), Slick's `sqlu`/`sql` bind too.
      { kind: "sql", methods: ["SQL"], receiver: "none" },
      JVM_SQL,
    ],
  },
  swift: {
    ...NO_ARRAYS,
    arrayKinds: ["array_literal"],
    sinks: [
      {
        kind: "sql",
        methods: ["sqlite3_exec", "sqlite3_prepare", "sqlite3_prepare_v2", "sqlite3_prepare_v3"],
        args: [1],
      },
      // GRDB, SQLite.swift, FMDB: raw statements (their `arguments:` and `?` bind).
      {
        kind: "sql",
        methods: [
          "execute",
          "run",
          "prepare",
          "scalar",
          "executeQuery",
          "executeUpdate",
          "fetchAll",
          "fetchOne",
          "fetchCursor",
        ],
        receiver: "any",
      },
      { kind: "shell", methods: ["system", "popen"], receiver: "none" },
    ],
    // `process.arguments = ["-c", cmd]` with `/bin/sh` as the executable.
    propertySinks: [{ kind: "shell", property: /(^|\.)arguments$/, word: /arguments/, shape: "flag-array" }],
  },
  c: C_RULES,
  cpp: {
    ...C_RULES,
    sinks: [
      ...C_RULES.sinks,
      // libpqxx, SQLiteCpp, Qt: `txn.exec(q)`, `db.exec(q)`, `query.exec(q)`.
      { kind: "sql", methods: ["exec", "exec0", "exec1", "execute", "exec_params"], receiver: "any" },
    ],
  },
  dart: {
    ...NO_ARRAYS,
    arrayKinds: ["list_literal"],
    sinks: [
      {
        kind: "shell",
        methods: ["run", "runSync", "start"],
        receiver: /^Process$/,
        shape: "program-argv",
      },
      // sqflite's raw calls, the postgres and mysql1 drivers (`substitutionValues`/`?` bind).
      {
        kind: "sql",
        methods: ["rawQuery", "rawInsert", "rawUpdate", "rawDelete", "execute", "query", "mappedResultsQuery"],
        receiver: "any",
      },
    ],
  },
  elixir: {
    ...NO_ARRAYS,
    arrayKinds: ["list"],
    sinks: [
      { kind: "shell", methods: ["cmd"], receiver: /^System$/, shape: "program-argv" },
      { kind: "shell", methods: ["cmd"], receiver: /^:os$/ },
      // Ecto's raw SQL (its parameters list binds); the repo's `query` helpers alike.
      { kind: "sql", methods: ["query!?", "query_many!?"], receiver: /(^|\.)(Ecto\.Adapters\.SQL|SQL)$/, args: [1] },
      {
        kind: "sql",
        methods: ["query!?", "query_many!?"],
        receiver: /(^|\.)(Repo|Postgrex|MyXQL|Exqlite\.\w+)$/,
        args: [0, 1],
      },
    ],
  },
  lua: {
    ...NO_ARRAYS,
    sinks: [
      { kind: "shell", methods: ["execute"], receiver: /^os$/ },
      { kind: "shell", methods: ["popen"], receiver: /^io$/ },
      // LuaSQL, lsqlite3, lua-resty-mysql and pgmoon: `conn:execute(q)`, `db:exec(q)`, `db:query(q)`.
      {
        kind: "sql",
        methods: ["execute", "exec", "query", "nrows", "rows", "urows", "prepare", "send_query"],
        receiver: "any",
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
