import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** SEC-02 findings (line and message) for one added file. */
async function findings(filename: string, lines: string[]): Promise<Array<{ line: number; message: string }>> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  return (await injectionDetector.detect(detectContext(pr))).map((f) => ({ line: f.line ?? 0, message: f.message }));
}

async function flagged(filename: string, lines: string[]): Promise<number[]> {
  return (await findings(filename, lines)).map((f) => f.line);
}

describe("Python eval/exec judged by what reaches them", () => {
  it("request data through a dict reaches eval: SEC-02 code injection on the eval line", async () => {
    const found = await findings("app/calc.py", [
      "from flask import request",
      "",
      "def calc():",
      '    given = request.form.get("expr")',
      '    table = {"a": "1", "b": given}',
      '    expr = table["b"]',
      "    return str(eval(expr))",
    ]);
    expect(found.map((f) => f.line)).toEqual([7]);
    expect(found[0]?.message).toMatch(/eval/);
  });

  it("a constant, or a value picked from a constant key, reaching exec raises nothing", async () => {
    expect(
      await flagged("app/calc.py", [
        "from flask import request",
        "",
        "def calc():",
        '    given = request.form.get("expr")',
        '    table = {"a": "x = 1", "b": given}',
        '    exec(table["a"])',
        '    exec("y = 2" if given else "y = 3")',
      ]),
    ).toEqual([]);
  });

  it("a guard that returns unless the value is one quoted literal makes eval safe; a guard missing a test does not", async () => {
    const body = (test: string) => [
      "from flask import request",
      "",
      "def literal():",
      '    value = request.args.get("v", "")',
      `    if ${test}:`,
      '        return "a plain string literal, please"',
      "    return str(eval(value))",
    ];
    expect(
      await flagged(
        "app/literal.py",
        body('not value.startswith("\'") or not value.endswith("\'") or "\'" in value[1:-1]'),
      ),
    ).toEqual([]);
    expect(
      await flagged(
        "app/literal.py",
        body("not value.startswith('\\'') or not value.endswith('\\'') or '\\'' in value[1:-1]"),
      ),
    ).toEqual([]);
    // Without the test for a quote inside, `'a' + __import__('os').system('id') + 'b'` passes it.
    expect(await flagged("app/literal.py", body('not value.startswith("\'") or not value.endswith("\'")'))).toEqual([
      7,
    ]);
  });
});

describe("guards on a local before a shell (Python)", () => {
  /** A view that reads `count`, raises where `test` holds, then runs a shell with it on line 8. */
  const guarded = (test: string) => [
    "import os, re",
    "from flask import request",
    "",
    "def ping():",
    '    count = request.args.get("count", "")',
    `    if ${test}:`,
    '        raise ValueError("bad count")',
    '    os.system("ping -c " + count + " localhost")',
  ];

  it("an early return unless the value is digits makes os.system safe; an emptiness check does not", async () => {
    expect(await flagged("app/ping.py", guarded("not count.isdigit()"))).toEqual([]);
    expect(await flagged("app/ping.py", guarded("not count"))).toEqual([8]);
  });

  it("isinstance with a number type and a whole-text digits pattern guard the value; str, a prefix match or MULTILINE do not", async () => {
    for (const test of [
      "not isinstance(count, int)",
      "not isinstance(count, (int, float))",
      'not re.fullmatch(r"\\d+", count)',
      'not re.match(r"\\d{1,3}$", count)',
      'not re.search(r"^[0-9]+$", count)',
    ])
      expect([test, await flagged("app/ping.py", guarded(test))]).toEqual([test, []]);
    for (const test of [
      "not isinstance(count, str)",
      'not re.match(r"\\d+", count)',
      'not re.search(r"\\d+$", count)',
      'not re.fullmatch(r"[\\w-]+", count)',
      'not re.match(r"^\\d+$", count, re.M)',
      'not re.match(r"^\\d+$", count, flags=re.MULTILINE)',
    ])
      expect([test, await flagged("app/ping.py", guarded(test))]).toEqual([test, [8]]);
  });

  it("a value checked inside the branch that uses it is safe there; one merely non-empty is not", async () => {
    const branch = (test: string) => [
      "import subprocess",
      "from flask import request",
      "",
      "def show():",
      '    name = request.args.get("name", "")',
      `    if ${test}:`,
      '        subprocess.run(f"ls {name}", shell=True)',
    ];
    expect(await flagged("app/show.py", branch("name.isalnum()"))).toEqual([]);
    expect(await flagged("app/show.py", branch("name"))).toEqual([7]);
  });

  it("a passed test cleans only where it holds: not in the other branch, not through `or`", async () => {
    const shaped = (lines: string[]) => [
      "import os",
      "from flask import request",
      "",
      "def run():",
      '    name = request.args.get("name", "")',
      ...lines,
    ];
    expect(
      await flagged(
        "app/run.py",
        shaped(["    if name.isalnum():", "        pass", "    else:", '        os.system("ls " + name)']),
      ),
    ).toEqual([9]);
    expect(
      await flagged(
        "app/run.py",
        shaped(["    if name.isalnum() or len(name) > 3:", '        os.system("ls " + name)']),
      ),
    ).toEqual([7]);
    expect(
      await flagged(
        "app/run.py",
        shaped(["    if name.isalnum() and len(name) > 3:", '        os.system("ls " + name)']),
      ),
    ).toEqual([]);
  });

  it("an allow-list of constants or an equality guards the value; an allow-list read from the request does not", async () => {
    const listed = (allowed: string) => [
      "import os",
      "from flask import request",
      "",
      "def export():",
      '    fmt = request.args.get("fmt", "")',
      `    allowed = ${allowed}`,
      "    if fmt not in allowed:",
      '        return "unknown format"',
      '    os.system(f"make export-{fmt}")',
    ];
    expect(await flagged("app/export.py", listed('["csv", "json"]'))).toEqual([]);
    expect(await flagged("app/export.py", listed('request.args.getlist("allowed")'))).toEqual([9]);
    expect(
      await flagged("app/export.py", [
        "import os",
        "from flask import request",
        "",
        "def export():",
        '    fmt = request.args.get("fmt", "")',
        '    if fmt != "csv":',
        '        return "unknown format"',
        '    os.system(f"make export-{fmt}")',
      ]),
    ).toEqual([]);
  });

  it("request.path in a view whose route is fixed is a constant; in a route with a variable part it is request data", async () => {
    const view = (route: string) => [
      "import subprocess",
      "from flask import Flask, request",
      "",
      "app = Flask(__name__)",
      "",
      `@app.route("${route}", methods=["POST"])`,
      "def tool():",
      '    part = request.path.split("/")[1]',
      '    subprocess.run(["sh", "-c", f"echo {part}"])',
      '    return "ok"',
    ];
    expect(await flagged("app/tool.py", view("/tools/echo"))).toEqual([]);
    expect(await flagged("app/tool.py", view("/tools/<path:rest>"))).toEqual([9]);
  });
});

describe("guards on a local before a shell (JavaScript)", () => {
  it("an early return unless a constant list includes the value makes exec safe; a list from the request does not", async () => {
    const handler = (allowed: string) => [
      'const { exec } = require("child_process");',
      "function build(req, res) {",
      "  const target = req.query.target;",
      `  const allowed = ${allowed};`,
      "  if (!allowed.includes(target)) return res.status(400).end();",
      "  exec(`make ${target}`, () => res.end());",
      "}",
      "module.exports = build;",
    ];
    expect(await flagged("src/build.js", handler('["docs", "dist"]'))).toEqual([]);
    expect(await flagged("src/build.js", handler("req.query.allowed"))).toEqual([6]);
  });
});

describe("guards that a value is a number or matches a closed pattern (JavaScript, TypeScript)", () => {
  /** A route that reads `id`, runs `guard`, then splices `id` (or `ids`) into SQL on line 6. */
  const route = (guard: string, use = "  db.query(`SELECT * FROM t WHERE id = ${id}`);") => [
    "const express = require('express'); const app = express();",
    "app.get('/t', (req, res) => {",
    "  const id = req.query.id;",
    "  const ids = req.body.ids;",
    guard,
    use,
    "});",
  ];
  const inList = "  db.query(`SELECT * FROM t WHERE id IN (${ids.join(',')})`);";

  it("typeof, Number.isInteger, isNaN and an anchored digits pattern that return early make the splice safe", async () => {
    for (const guard of [
      "  if (typeof id !== 'number') throw new Error('id');",
      "  if (typeof id !== 'number' || id < 0) return res.sendStatus(400);",
      "  if (typeof id !== 'number' && typeof id !== 'bigint') return res.sendStatus(400);",
      "  if (!Number.isInteger(id)) return res.sendStatus(400);",
      "  if (isNaN(id)) return res.sendStatus(400);",
      "  if (!/^\\d+$/.test(id)) return res.sendStatus(400);",
      "  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return res.sendStatus(400);",
    ])
      expect([guard, await flagged("src/t.js", route(guard))]).toEqual([guard, []]);
    for (const guard of [
      "  if (!ids.every((n) => typeof n === 'number')) throw new Error('ids');",
      "  if (!ids.every(Number.isInteger)) throw new Error('ids');",
    ])
      expect([guard, await flagged("src/t.ts", route(guard, inList))]).toEqual([guard, []]);
  });

  it("twins: a test that lets a quote, a space or `--` through, or proves nothing, leaves the splice flagged", async () => {
    for (const guard of [
      "  const unchecked = true;",
      "  if (typeof id !== 'string') throw new Error('id');",
      "  if (Number.isNaN(id)) return res.sendStatus(400);",
      "  if (isNaN(parseInt(id))) return res.sendStatus(400);",
      "  if (!/^[\\w-]+$/.test(id)) return res.sendStatus(400);",
      "  if (!/^\\d+/.test(id)) return res.sendStatus(400);",
      "  if (!/^\\d+$/m.test(id)) return res.sendStatus(400);",
      "  if (!/^.+$/.test(id)) return res.sendStatus(400);",
      "  if (!/^\\d+|x$/.test(id)) return res.sendStatus(400);",
      "  if (/^\\d+$/.test(id)) console.log('digits');",
      "  if (typeof id !== 'number' && id.length > 3) return res.sendStatus(400);",
    ])
      expect([guard, await flagged("src/t.js", route(guard))]).toEqual([guard, [6]]);
    for (const guard of [
      "  if (!ids.every((n) => n.length < 5)) throw new Error('ids');",
      "  if (!ids.every((n, i) => typeof i === 'number')) throw new Error('ids');",
    ])
      expect([guard, await flagged("src/t.ts", route(guard, inList))]).toEqual([guard, [6]]);
  });
});

describe("JavaScript/TypeScript tagged templates that bind their values", () => {
  const query = (call: string) => [
    'import SQL from "sql-template-strings";',
    'import { db, sql, prisma } from "./db";',
    "",
    "export async function find(req: { query: { id: string } }) {",
    "  const id = req.query.id;",
    `  return ${call};`,
    "}",
  ];

  it("SQL`...${id}`, sql`...`, prisma.$queryRaw`...` send the value as a parameter: no SEC-02", async () => {
    expect(await flagged("src/users.ts", query("db.query(SQL`SELECT * FROM users WHERE id = ${id}`)"))).toEqual([]);
    expect(await flagged("src/users.ts", query("db.query(sql`SELECT * FROM users WHERE id = ${id}`)"))).toEqual([]);
    expect(await flagged("src/users.ts", query("prisma.$queryRaw`SELECT * FROM users WHERE id = ${id}`"))).toEqual([]);
  });

  it("the same value in a plain template literal, or through sql.unsafe or $queryRawUnsafe, is SEC-02", async () => {
    expect(await flagged("src/users.ts", query("db.query(`SELECT * FROM users WHERE id = ${id}`)"))).toEqual([6]);
    expect(
      await flagged("src/users.ts", query("db.query(sql.unsafe(`SELECT * FROM users WHERE id = ${id}`))")),
    ).toEqual([6]);
    expect(
      await flagged("src/users.ts", query("prisma.$queryRawUnsafe(`SELECT * FROM users WHERE id = ${id}`)")),
    ).toEqual([6]);
  });
});

describe("a replacement that removes every character outside a closed class leaves plain text", () => {
  const js = (expr: string) => [
    "const express = require('express'); const app = express();",
    "app.get('/t', (req, res) => {",
    "  const page = req.query.page;",
    `  db.query(\`SELECT * FROM t OFFSET \${${expr}}\`);`,
    "});",
  ];
  const py = (expr: string) => [
    "from flask import request",
    "def view():",
    "    p = request.args.get('p')",
    `    cursor.execute("SELECT * FROM t WHERE id = " + ${expr})`,
  ];

  it("JavaScript's replace(/[^0-9]/g, '') and Python's re.sub(r'\\D+', '', s) are no splice; a space kept, one match, or a text put back are", async () => {
    for (const expr of ["page.replace(/[^0-9]/g, '')", "page.replace(/[^\\w.]+/g, '')", "page.replaceAll(/\\D/g, '')"])
      expect([expr, await flagged("src/t.js", js(expr))]).toEqual([expr, []]);
    for (const expr of [
      "page.replace(/[^0-9]/, '')",
      "page.replace(/[^\\w ]/g, '')",
      "page.replace(/[^\\w-]/g, '')",
      "page.replace(/[^0-9]/g, ' OR ')",
    ])
      expect([expr, await flagged("src/t.js", js(expr))]).toEqual([expr, [4]]);
    for (const expr of ['re.sub(r"[^0-9]", "", p)', 're.sub(r"\\D+", "", p)'])
      expect([expr, await flagged("app/view.py", py(expr))]).toEqual([expr, []]);
    for (const expr of ['re.sub(r"[^\\w ]", "", p)', 're.sub(r"[^0-9]", "", p, 1)', 're.sub(r"[^0-9]", "--", p)'])
      expect([expr, await flagged("app/view.py", py(expr))]).toEqual([expr, [4]]);
  });
});
