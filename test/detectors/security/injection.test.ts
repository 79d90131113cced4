import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

async function flaggedLines(filename: string, lines: string[]): Promise<number[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const findings = await injectionDetector.detect(detectContext(pr));
  for (const f of findings) {
    expect(f).toMatchObject({
      policy: "SEC-02",
      severity: "high",
      blocking: true,
      detector: "injection",
      file: filename,
    });
  }
  return findings.map((f) => f.line ?? 0);
}

describe("injectionDetector", () => {
  it("flags SQL built with request data in JS (template literal and concatenation)", async () => {
    expect(
      await flaggedLines("src/routes/orders.ts", [
        "const sql = `SELECT * FROM orders WHERE id = ${req.query.id}`;",
        'const q2 = "SELECT * FROM users WHERE name = \'" + req.body.name + "\'";',
        "await db.query(`DELETE FROM carts WHERE owner = ${ownerId}`);",
      ]),
    ).toEqual([1, 2, 3]);
  });

  it("flags Python execute with f-strings, % and .format", async () => {
    expect(
      await flaggedLines("app/db.py", [
        'cursor.execute(f"SELECT * FROM users WHERE id = {user_id}")',
        "cursor.execute(\"SELECT * FROM users WHERE email = '%s'\" % email)",
        "cursor.execute(\"UPDATE users SET name = '{}' WHERE id = 1\".format(name))",
      ]),
    ).toEqual([1, 2, 3]);
  });

  it("does not flag parameterised queries or constant table names", async () => {
    expect(
      await flaggedLines("src/routes/orders.ts", [
        'await db.query("SELECT * FROM orders WHERE id = $1", [req.params.id]);',
        "await db.query(`SELECT * FROM ${TABLE} WHERE id = ?`, [req.query.id]);",
        'cursor.execute("SELECT * FROM users WHERE id = %s", (user_id,))',
        "const total = `Selected ${count} items from the list`;",
      ]),
    ).toEqual([]);
  });

  it("flags shell commands built by interpolation, not argument arrays or regex exec", async () => {
    expect(
      await flaggedLines("src/tools/archive.ts", [
        "execSync(`tar czf ${req.body.name}.tgz uploads`);",
        'child_process.exec("convert " + file + " out.png");',
        'execFile("tar", ["czf", name, "uploads"]);',
        "const m = /(\\d+)/.exec(`${input}`);",
      ]),
    ).toEqual([1, 2]);
    expect(
      await flaggedLines("tools/run.py", [
        'os.system(f"rm -rf {path}")',
        'subprocess.run("git log " + ref, shell=True)',
        'subprocess.run(["git", "log", ref])',
      ]),
    ).toEqual([1, 2]);
  });

  it("flags eval and new Function on non-literals only", async () => {
    expect(
      await flaggedLines("src/calc.js", [
        "const result = eval(req.query.expr);",
        'const f = new Function("a", body);',
        'const two = eval("1 + 1");',
        'const g = new Function("a", "return a * 2");',
        "const v = await page.evaluate(() => 1);",
      ]),
    ).toEqual([1, 2]);
    expect(await flaggedLines("scripts/calc.py", ["value = eval(expression)", 'exec("print(1)")'])).toEqual([1]);
  });

  it("JS and TS: a method named eval, another object's eval, and the word in a string are not code run", async () => {
    expect(
      await flaggedLines("packages/postgres/src/index.ts", [
        "export class PostgresDriver {",
        "  async eval(sel: Selection, expr: Expr) {",
        "    const output = this.parseEval(expr);",
        "    return this.queue(`SELECT ${output} AS value`, sel);",
        "  }",
        "  describe = 'Pre-compile entity functions for runtimes that prohibit eval (e.g. Workers)';",
        "  run(script: string, keys: string[]) {",
        "    return this.redis.eval(script, keys.length, ...keys);",
        "  }",
        "  compile(code: string) {",
        "    return vm.runInNewContext(code, {}) ?? eval(code);",
        "  }",
        "}",
      ]),
    ).toEqual([11]);
  });

  it("JS: what reaches eval or new Function decides, as in Python: a constant local runs no outside code, a parameter may", async () => {
    expect(
      await flaggedLines("src/expr.js", [
        "const local = 'return 2';",
        "eval(local);",
        "const two = new Function(local);",
        "function compile(expr) {",
        "  return new Function('ctx', 'with (ctx) { return ' + expr + ' }');",
        "}",
        "if (_.isFunction(compile)) compile('x');",
      ]),
    ).toEqual([5]);
  });

  it("flags templates compiled from request data", async () => {
    expect(await flaggedLines("app/views.py", ["return render_template_string(request.args.get('tpl'))"])).toEqual([1]);
  });

  it("skips comments, docs, removed lines and files without a patch", async () => {
    expect(await flaggedLines("src/a.ts", ["// const sql = `SELECT * FROM t WHERE id = ${req.query.id}`;"])).toEqual(
      [],
    );
    expect(
      await flaggedLines("docs/security.md", ["const sql = `SELECT * FROM t WHERE id = ${req.query.id}`;"]),
    ).toEqual([]);
    const pr = buildPr({
      files: [
        { filename: "src/a.ts", patch: "@@ -1,1 +1,0 @@\n-const sql = `SELECT * FROM t WHERE id = ${req.query.id}`;" },
        { filename: "bin/tool", status: "added" },
      ],
    });
    expect(await injectionDetector.detect(detectContext(pr))).toEqual([]);
  });
});
