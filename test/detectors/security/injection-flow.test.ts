import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** Head lines of SEC-02 findings for one added file. */
async function flagged(filename: string, lines: string[]): Promise<number[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const findings = await injectionDetector.detect(detectContext(pr));
  return findings.map((f) => f.line ?? 0);
}

describe("injection flows read from the syntax tree", () => {
  it("JS/TS: SQL built in a variable over several lines reaches db.query", async () => {
    expect(
      await flagged("src/reports/search.ts", [
        "export async function search(db: Pool, term: string, sort: string) {",
        "  let sql = 'SELECT id, title FROM reports';",
        '  sql += " WHERE title LIKE \'%" + term + "%\'";',
        "  sql += ` ORDER BY ${sort}`;",
        "  const { rows } = await db.query(",
        "    sql,",
        "  );",
        "  return rows;",
        "}",
      ]),
    ).toEqual([5]);
  });

  it("JS: a template-literal shell command reaches exec or execSync, not execFile with an array", async () => {
    expect(
      await flagged("scripts/thumbs.mjs", [
        'import { exec, execFile } from "node:child_process";',
        "export function thumb(src, width) {",
        "  const cmd = `convert ${src} -resize ${width} out.png`;",
        "  exec(cmd, (err) => { if (err) throw err; });",
        '  execFile("convert", [src, "-resize", String(width), "out.png"]);',
        "}",
      ]),
    ).toEqual([4]);
  });

  it("JS: spawn with shell: true and a built command", async () => {
    expect(
      await flagged("src/run.ts", [
        "spawn(`git checkout ${branch}`, { shell: true });",
        'spawn("git", ["checkout", branch]);',
      ]),
    ).toEqual([1]);
  });

  it("Python: f-string, % and .format reach cursor.execute through a variable; parameters do not", async () => {
    expect(
      await flagged("app/repo.py", [
        "def find(cur, name, status):",
        '    query = f"""',
        "        SELECT id, email",
        "        FROM accounts",
        "        WHERE name = '{name}'",
        '    """',
        "    cur.execute(query)",
        "    q2 = \"SELECT * FROM t WHERE status = '%s'\" % status",
        "    cur.execute(q2)",
        "    q3 = \"DELETE FROM t WHERE name = '{}'\".format(name)",
        "    cur.execute(q3)",
        '    cur.execute("SELECT * FROM t WHERE name = %s AND status = %s", (name, status))',
        '    cur.execute("SELECT * FROM t LIMIT %d" % 10)',
        "    return cur.fetchall()",
      ]),
    ).toEqual([7, 9, 11]);
  });

  it("Python: os.system and subprocess with shell=True, not an argument list", async () => {
    expect(
      await flagged("tools/backup.py", [
        "import os, subprocess",
        "def backup(path, dest):",
        '    cmd = "tar czf %s %s" % (dest, path)',
        "    subprocess.run(cmd, shell=True, check=True)",
        '    os.system("rm -rf " + path)',
        '    subprocess.run(["tar", "czf", dest, path], check=True)',
      ]),
    ).toEqual([4, 5]);
  });

  it("Go: fmt.Sprintf and + reach db.Query/QueryContext/Exec; placeholders and numeric verbs do not", async () => {
    expect(
      await flagged("internal/store/users.go", [
        "package store",
        "",
        "func (s *Store) Find(ctx context.Context, name string, limit int) (*sql.Rows, error) {",
        "\tq := fmt.Sprintf(\"SELECT id FROM users WHERE name = '%s'\", name)",
        "\trows, err := s.db.QueryContext(ctx, q)",
        '\t_, err = s.db.Exec("DELETE FROM sessions WHERE user_name = \'" + name + "\'")',
        '\trows, err = s.db.Query("SELECT id FROM users WHERE name = $1", name)',
        '\trows, err = s.db.Query(fmt.Sprintf("SELECT id FROM users LIMIT %d", limit))',
        "\treturn rows, err",
        "}",
      ]),
    ).toEqual([5, 6]);
  });

  it("Go: exec.Command through sh -c with built text, not a program with arguments", async () => {
    expect(
      await flagged("cmd/deploy/main.go", [
        "package main",
        "func deploy(tag string) error {",
        '\tscript := "docker pull registry/app:" + tag',
        '\tif err := exec.Command("sh", "-c", script).Run(); err != nil {',
        "\t\treturn err",
        "\t}",
        '\treturn exec.Command("docker", "pull", "registry/app:"+tag).Run()',
        "}",
      ]),
    ).toEqual([4]);
  });

  it("ignores SQL and calls inside strings and comments, and constant-only building", async () => {
    expect(
      await flagged("app/docs.py", [
        '"""',
        'Example: cursor.execute(f"SELECT * FROM t WHERE id = {id}")',
        '"""',
        "# cur.execute(\"SELECT * FROM t WHERE a = '%s'\" % a)",
        'TABLE = "orders"',
        'cur.execute("SELECT id FROM " + TABLE + " WHERE id = %s", (order_id,))',
      ]),
    ).toEqual([]);
  });

  it("reports the building line when only it is added and the query call already existed", async () => {
    const patch = [
      "@@ -10,3 +10,3 @@ def lookup(cur, sku):",
      '-    sql = "SELECT * FROM items WHERE sku = %s"',
      "-    cur.execute(sql, (sku,))",
      "+    sql = f\"SELECT * FROM items WHERE sku = '{sku}'\"",
      "+    cur.execute(sql)",
      "     return cur.fetchone()",
    ].join("\n");
    const pr = buildPr({ files: [{ filename: "app/items.py", patch }] });
    expect((await injectionDetector.detect(detectContext(pr))).map((f) => f.line)).toEqual([11]);
    const onlyBuild = [
      "@@ -10,3 +10,3 @@",
      '-    sql = "SELECT * FROM items WHERE sku = %s"',
      "+    sql = f\"SELECT * FROM items WHERE sku = '{sku}'\"",
      "     cur.execute(sql)",
      "     return 1",
    ].join("\n");
    const pr2 = buildPr({ files: [{ filename: "app/items.py", patch: onlyBuild }] });
    expect((await injectionDetector.detect(detectContext(pr2))).map((f) => f.line)).toEqual([10]);
  });
});

describe("injection flows: a project's own query helper named for SQL", () => {
  it("TS: values interpolated into SQL passed to this.sql.getRowsBySQlQuery are flagged", async () => {
    expect(
      await flagged("app/persistence/BlockService.ts", [
        "export class BlockService {",
        "  constructor(private sql: PgService) {}",
        "  getBlocks(channel: string, from: number) {",
        "    const q = `select * from blocks where channel = '${channel}' and blocknum >= ${from}`;",
        "    return this.sql.getRowsBySQlQuery(q);",
        "  }",
        "}",
      ]),
    ).toEqual([5]);
  });

  it("TS twin: the same helper with placeholders and a values array is not", async () => {
    expect(
      await flagged("app/persistence/BlockService.ts", [
        "export class BlockService {",
        "  constructor(private sql: PgService) {}",
        "  getBlocks(channel: string, from: number) {",
        "    const q = 'select * from blocks where channel = $1 and blocknum >= $2';",
        "    return this.sql.getRowsBySQlQuery(q, [channel, from]);",
        "  }",
        "}",
      ]),
    ).toEqual([]);
  });

  it("JS: concatenation into performSqlQuery is flagged; a constant text and non-SQL text are not", async () => {
    expect(
      await flagged("src/server.js", [
        "function load(id) {",
        '  return performSqlQuery("SELECT state FROM wasm WHERE wasm_id = \'" + id + "\';");',
        "}",
        "function loadSafe(id) {",
        '  return performSqlQuery("SELECT state FROM wasm WHERE wasm_id = ?;", [id]);',
        "}",
        "function label(id) {",
        '  return formatSqlLabel("wasm " + id);',
        "}",
      ]),
    ).toEqual([2]);
  });

  it("JS twin: a bare SQL(...) (sql-template-strings' own call) is not read as a SQL-named helper", async () => {
    expect(
      await flagged("src/users.js", [
        'const SQL = require("sql-template-strings");',
        "function q(name) {",
        "  return SQL(`SELECT * FROM users WHERE name = ${name}`);",
        "}",
      ]),
    ).toEqual([]);
  });
});

describe("injection flows: variables that hold only literals", () => {
  it("a table name from a local literal is not a flow; one from a parameter is", async () => {
    expect(
      await flagged("src/archive.ts", [
        "export async function archive(db: Pool, id: string, tableName: string) {",
        '  const table = "orders";',
        "  await db.query(`UPDATE ${table} SET archived = true WHERE id = $1`, [id]);",
        "  await db.query(`UPDATE ${tableName} SET archived = true WHERE id = $1`, [id]);",
        "}",
      ]),
    ).toEqual([4]);
  });
});

describe("injection flows: TypeScript generics on the query call", () => {
  it("sees await pool.query<Row>(sql) as a query call", async () => {
    expect(
      await flagged("src/tickets/list.ts", [
        "export async function list(pool: Pool, status: string) {",
        '  const sql = "SELECT id FROM tickets WHERE status = \'" + status + "\'";',
        "  const { rows } = await pool.query<Ticket>(sql);",
        "  return rows;",
        "}",
      ]),
    ).toEqual([3]);
  });
});

describe("injection flows: several targets in one assignment", () => {
  it("follows the matching value in Go and Python multi-assignments", async () => {
    expect(
      await flagged("internal/q.go", [
        "package q",
        "func f(db *sql.DB, name string) {",
        "\tq, limit := fmt.Sprintf(\"SELECT id FROM users WHERE name = '%s'\", name), 10",
        "\tdb.Query(q, limit)",
        "}",
      ]),
    ).toEqual([4]);
    expect(
      await flagged("app/q.py", [
        "def f(cur, name):",
        "    sql, params = f\"SELECT id FROM users WHERE name = '{name}'\", ()",
        "    cur.execute(sql, params)",
        '    label, query = "x", "SELECT id FROM users WHERE name = %s"',
        "    cur.execute(query, (name,))",
      ]),
    ).toEqual([3]);
  });
});

describe("injection flows: SQL's own escape, a quote doubled everywhere, and SET statements", () => {
  const lookup = (expr: string) => [
    "exports.find = function (db, name) {",
    `  return db.query("SELECT * FROM users WHERE name = '" + ${expr} + "'");`,
    "};",
  ];

  it("JS: a value with every quote doubled or backslashed is escaped; the first quote only, or none, is not", async () => {
    expect(await flagged("lib/users.js", lookup("name"))).toEqual([2]);
    expect(await flagged("lib/users.js", lookup("name.replace(/'/g, \"''\")"))).toEqual([]);
    expect(await flagged("lib/users.js", lookup('name.replaceAll("\'", "\'\'")'))).toEqual([]);
    expect(await flagged("lib/users.js", lookup("name.replace(/'/g, \"\\\\'\")"))).toEqual([]);
    // `replace` with a string, or a regular expression without `g`, changes the first quote only.
    expect(await flagged("lib/users.js", lookup('name.replace("\'", "\'\'")'))).toEqual([2]);
    expect(await flagged("lib/users.js", lookup("name.replace(/'/, \"''\")"))).toEqual([2]);
    // Another quote, or another replacement, is no escape.
    expect(await flagged("lib/users.js", lookup('name.replace(/"/g, "\'\'")'))).toEqual([2]);
    expect(await flagged("lib/users.js", lookup('name.replace(/\'/g, "")'))).toEqual([2]);
  });

  it("JS: a schema list spliced into SET search_path is SQL; each name with its quotes doubled is not (knex's fix)", async () => {
    const searchPath = (expr: string) => [
      "exports.setSchemaSearchPath = function (connection, path) {",
      `  path = path.map((schemaName) => \`"\${${expr}}"\`).join(',');`,
      "  return connection.query(`set search_path to ${path}`);",
      "};",
    ];
    expect(await flagged("lib/dialects/postgres/index.js", searchPath("schemaName"))).toEqual([3]);
    expect(await flagged("lib/dialects/postgres/index.js", searchPath('schemaName.replace(/"/g, \'""\')'))).toEqual([]);
    // What a callback gives each element: placeholders built from a list splice no value of it.
    const inList = (callback: string) => [
      "exports.byIds = function (db, ids) {",
      `  const marks = ids.map(${callback}).join(',');`,
      "  return db.query(`SELECT * FROM t WHERE id IN (${marks})`, ids);",
      "};",
    ];
    expect(await flagged("lib/ids.js", inList("() => '?'"))).toEqual([]);
    expect(await flagged("lib/ids.js", inList("(_, i) => '$' + (i + 1)"))).toEqual([]);
    expect(await flagged("lib/ids.js", inList("(id) => `'${id}'`"))).toEqual([3]);
    // SET as a statement only: a message that says "set" is not SQL.
    expect(
      await flagged("lib/log.js", [
        "exports.note = function (db, key) {",
        "  return db.query(`could not set ${key} to a value`);",
        "};",
      ]),
    ).toEqual([]);
  });
});

describe("injection flows: a function written inside another reads the names it borrows from it", () => {
  const wrapped = (setup: string[], sink: string) => [
    "const { exec } = require('child_process');",
    "exports.status = function (dir, db) {",
    ...setup.map((l) => `  ${l}`),
    "  return new Promise(function (resolve, reject) {",
    `    ${sink};`,
    "  });",
    "};",
  ];

  it("JS: a constant command borrowed by a callback is no flow; one built from a parameter is", async () => {
    expect(await flagged("lib/git.js", wrapped(["const cmd = 'git status';"], "exec(cmd, resolve)"))).toEqual([]);
    expect(
      await flagged("lib/git.js", wrapped(["const cmd = 'git -C ' + dir + ' status';"], "exec(cmd, resolve)")),
    ).toEqual([5]);
    // SQL text borrowed from the function around: read as the SQL it is.
    const sql = (where: string) =>
      wrapped([`const sql = "SELECT * FROM repos WHERE ${where}";`], "db.query(sql, resolve)");
    expect(await flagged("lib/repos.js", sql("dir = '\" + dir + \"'"))).toEqual([5]);
    expect(await flagged("lib/repos.js", sql("dir = ?"))).toEqual([]);
  });

  it("JS: a name the outer function assigns again after the callback is written reads as before (outside data)", async () => {
    const later = [
      "const { exec } = require('child_process');",
      "exports.status = function (dir) {",
      "  let cmd = 'git status';",
      "  const run = () => exec(cmd);",
      "  cmd = 'git -C ' + dir + ' status';",
      "  return run();",
      "};",
    ];
    expect(await flagged("lib/git.js", later)).toEqual([4]);
  });

  it("Python: a nested def called where it is written borrows its function's locals; a later assignment is not borrowed", async () => {
    const nested = (setup: string, after = "") => [
      "import subprocess",
      "def status(directory):",
      `    ${setup}`,
      "    def run():",
      "        return subprocess.check_output(cmd, shell=True)",
      ...(after ? [`    ${after}`] : []),
      "    return run()",
    ];
    expect(await flagged("tools/git.py", nested('cmd = "git status"'))).toEqual([]);
    expect(await flagged("tools/git.py", nested('cmd = "git -C " + directory + " status"'))).toEqual([5]);
    expect(await flagged("tools/git.py", nested('cmd = "git status"', 'cmd = "git -C " + directory'))).toEqual([5]);
  });

  it("JS: knex's search path set inside a promise: the names spliced are flagged, the names with quotes doubled are not", async () => {
    const searchPath = (expr: string) => [
      "exports.setSchemaSearchPath = function (connection, path) {",
      `  path = path.map((schemaName) => \`"\${${expr}}"\`).join(',');`,
      "  return new Promise(function (resolver, rejecter) {",
      "    connection.query(`set search_path to ${path}`, function (err) {",
      "      if (err) return rejecter(err);",
      "      resolver(true);",
      "    });",
      "  });",
      "};",
    ];
    expect(await flagged("lib/dialects/postgres/index.js", searchPath("schemaName"))).toEqual([4]);
    expect(await flagged("lib/dialects/postgres/index.js", searchPath('schemaName.replace(/"/g, \'""\')'))).toEqual([]);
  });
});
