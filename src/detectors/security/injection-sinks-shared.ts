import { PG_PROMISE_QUERY_METHODS } from "../dataflow/flow-syntax.js";
import { SQL_PACKAGE } from "./import-aliases.js";
import type { InjectionRules, SinkRule } from "./injection-rule-types.js";

/** Sinks several languages share: the SQL methods and rules of JavaScript, TypeScript, Python and Go, the JVM's SQL and process calls. */

/** Methods that run SQL text in JavaScript, Python and Go: drivers, ORMs' raw escapes, query builders' `*Raw`. */
export const FIRST_SQL_METHODS = [
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

export const NO_ARRAYS = { arrayKinds: [], listCalls: /(?!)/, propertySinks: [], shellTextKinds: [] } as const;

export const JS_RULES: InjectionRules = {
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
    // Text run as JavaScript: `eval(s)`, `new Function("a", body)`, `vm.runInNewContext(s)` and its
    // kin. Not another object's `eval` (`redis.eval(script)`) nor a method a class declares so named.
    // The lookbehind keeps the pre-check's name whole (`isFunction(` names no constructor).
    { kind: "code", methods: ["eval"], receiver: "none", constructs: false },
    { kind: "code", methods: ["(?<![\\w$])Function"], receiver: "none", constructs: true, args: [0, 1, 2, 3, 4, 5] },
    { kind: "code", methods: ["runInNewContext", "runInThisContext", "runInContext"], receiver: /^vm$/ },
    { kind: "sql", methods: FIRST_SQL_METHODS, receiver: "any" },
    // pg-promise's query methods: only text shaped like a SQL statement counts, as for `query`.
    { kind: "sql", methods: PG_PROMISE_QUERY_METHODS, receiver: "any" },
    // A project's own query helper named for SQL (`this.sql.getRowsBySQlQuery(text)`,
    // `performSqlQuery(text)`, WebSQL's `tx.executeSql(text)`): SQL-shaped text built from values
    // reaching it is spliced SQL like any driver call. Not a bare `SQL`/`sql` (the tagged template
    // of sql-template-strings and @nearform/sql binds its values).
    {
      kind: "sql",
      methods: ["[A-Za-z_$]*(?:Sql|SQl|SQL)[A-Za-z_$]+", "[A-Za-z_$]+(?:Sql|SQl|SQL)"],
      constructs: false,
    },
    // Query builders' condition fragments (TypeORM's `qb.where(...)`, `andWhere`, `orWhere`,
    // `having`): text is SQL there, but knex's `where("col", value)` takes a column name, so only a
    // value spliced where SQL expects a value counts (``orWhere(`${col} ILIKE '%${q}%'`)``), not a
    // column or alias spliced as a name beside a bound `:param`.
    {
      kind: "sql",
      methods: [
        "where",
        "andWhere",
        "orWhere",
        "having",
        "andHaving",
        "orHaving",
        "raw",
        "whereRaw",
        "orWhereRaw",
        "andWhereRaw",
        "havingRaw",
        "orHavingRaw",
        "andHavingRaw",
        "joinRaw",
      ],
      receiver: "any",
      fragment: true,
      splice: "value",
    },
    // Sequelize's `literal` puts its text into the statement as written (`sequelize.literal(...)`,
    // `Sequelize.literal(...)`, or `literal` imported from the package): read as a condition is.
    {
      kind: "sql",
      methods: ["literal"],
      receiver: new RegExp(`(?:^|\\.)[Ss]equelize$|^${SQL_PACKAGE}$`),
      fragment: true,
      splice: "value",
    },
    // A SQL object built from text, by a class named for SQL (LoopBack's
    // `new ParameterizedSQL(text, params)`): its text is often a fragment (`col LIKE ?`) that a
    // statement is assembled from later, so, as in a condition, only a value spliced where SQL
    // expects one counts (``new ParameterizedSQL(`to_tsquery('${q}')`)``), not a column's name.
    {
      kind: "sql",
      methods: ["[A-Z][A-Za-z_$]*(?:Sql|SQL)"],
      receiver: "none",
      constructs: true,
      fragment: true,
      splice: "value",
    },
  ],
};

/** The JVM's JDBC, JPA, Hibernate and Spring `JdbcTemplate` calls that run SQL text. */
export const JVM_SQL: SinkRule = {
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
export const JVM_SHELL: readonly SinkRule[] = [
  {
    kind: "shell",
    methods: ["exec"],
    receiver: /(^|\.)getRuntime\(\)$|^(runtime|rt)$/,
    receiverType: /(java\.lang\.)?Runtime/,
    shape: "text-or-array",
    environment: 1,
  },
  { kind: "shell", methods: ["ProcessBuilder"], callee: /^(java\.lang\.)?ProcessBuilder$/, shape: "argv" },
  { kind: "shell", methods: ["command"], receiver: "any", shape: "argv" },
];
export const JVM_LISTS = /^(List\.of|Arrays\.asList|listOf|mutableListOf|arrayOf|arrayListOf)$/;
