import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFileFindingLines } from "../pr-builder.js";

/** Head lines of SEC-02 findings for one added file. */
const flagged = (filename: string, lines: string[]) => addedFileFindingLines(injectionDetector, filename, lines);

/** A connector's value formatter, the sink elsewhere: `toDatabase` quotes values by hand (LoopBack's shape). */
const formatter = (body: string[]) => [
  "const sql = 'SELECT * FROM t WHERE id = ';",
  "MsSQL.prototype.toDatabase = function (prop, val, wrap) {",
  "  if (val === null) return 'NULL';",
  ...body,
  "  return val;",
  "};",
];

describe("injection: a value put between SQL's quotes by hand, unescaped", () => {
  it('JS: a formatter that returns or stores "\'" + val + "\'" is flagged at each line, though no query call is in sight', async () => {
    expect(
      await flagged(
        "lib/mssql.js",
        formatter([
          "  if (prop.type && prop.type.modelName) {",
          '    return "\'" + JSON.stringify(val) + "\'";',
          "  }",
          "  if (typeof val === 'string') {",
          '    val = "\'" + val + "\'";',
          "  }",
        ]),
      ),
    ).toEqual([5, 8]);
  });

  it("TS: a template that is only '${value}', assigned, is flagged (knex's defaultTo)", async () => {
    expect(
      await flagged("src/column.ts", [
        "const RESET = 'UPDATE t SET c = DEFAULT WHERE id = ?';",
        "export function defaultTo(value: string): string {",
        "  const quoted = `'${value}'`;",
        "  return `default ${quoted}`;",
        "}",
      ]),
    ).toEqual([3]);
  });

  it("JS: a helper named only for quoting, which escapes nothing, is flagged; one that escaped the value first is not", async () => {
    const helper = (body: string[]) => [
      "const sql = 'SELECT * FROM t WHERE name = ';",
      "function quote(v) {",
      ...body,
      "}",
    ];
    expect(await flagged("lib/sql.js", helper(['  return "\'" + v + "\'";']))).toEqual([3]);
    expect(
      await flagged("lib/sql.js", helper(["  v = v.replace(/'/g, \"''\");", '  return "\'" + v + "\'";'])),
    ).toEqual([]);
    // The escape chained on the assignment's next line.
    const chained = ["  v = String(v)", "    .replace(/'/g, \"''\");", '  return "\'" + v + "\'";'];
    expect(await flagged("lib/sql.js", helper(chained))).toEqual([]);
    // A later statement's escape of another name does not count.
    const later = ["  v = String(v)", "  w = w.replace(/'/g, \"''\");", '  return "\'" + v + "\'";'];
    expect(await flagged("lib/sql.js", helper(later))).toEqual([5]);
    // A replace that strips backslashes leaves the quotes in (Drizzle Kit's clearDefaults).
    const stripped = ["  v = v", "    .replace(/\\\\/g, '');", "  return `'${v}'`;"];
    expect(await flagged("lib/sql.js", helper(stripped))).toEqual([5]);
    // One whose arguments start on their own line is trusted (TypeORM's jsonString).
    const wrapped = ["  v = JSON.stringify(v).replaceAll(", '    "\'",', "    \"''\",", "  );", "  return `'${v}'`;"];
    expect(await flagged("lib/sql.js", helper(wrapped))).toEqual([]);
  });

  it("JS: a column compiler that writes schema statements, not queries, is read as SQL (knex's defaultTo)", async () => {
    const compiler = (line: string) => [
      "ColumnCompiler.prototype.notNull = 'not null';",
      "ColumnCompiler.prototype.defaultTo = function (value) {",
      line,
      "  return `default ${value}`;",
      "};",
    ];
    expect(await flagged("lib/columncompiler.js", compiler("  value = `'${value}'`;"))).toEqual([3]);
    expect(
      await flagged("lib/columncompiler.js", compiler("  value = this.client._escapeBinding(value.toString());")),
    ).toEqual([]);
  });

  it("twin: escaped, replaced, a number, a date's ISO text, or the else of a string test are not", async () => {
    expect(
      await flagged(
        "lib/mssql.js",
        formatter([
          "  if (prop.type && prop.type.modelName) {",
          '    return "\'" + escape(JSON.stringify(val)) + "\'";',
          "  }",
          '  if (wrap) return "\'" + val.toString().replace(/\'/g, "\'\'") + "\'";',
          "  if (prop.type.name === 'Number') return \"'\" + Number(val) + \"'\";",
          "  if (prop.type.name === 'Date') return `'${val.toISOString()}'`;",
          "  if (typeof val === 'string') {",
          '    return "\'" + val.replace(/\'/g, "\'\'") + "\'";',
          "  } else {",
          "    return `'${val}'`;",
          "  }",
        ]),
      ),
    ).toEqual([]);
  });

  it("TS: a method named for sanitising whose body escapes nothing is flagged, an optional member too (OneUptime's sanitizeValue)", async () => {
    const statements = (body: string[]) => [
      "const INSERT = 'INSERT INTO spans (id, name) VALUES ';",
      "export class Statements {",
      "  private sanitizeValue(value: unknown, text: boolean, list: string[]): unknown {",
      ...body,
      "    return value;",
      "  }",
      "}",
    ];
    const bare = [
      "    if (text) value = `'${value?.toString()}'`;",
      "    if (list) value = `[${list.map((v) => {",
      "      return `'${v}'`;",
      "    }).join(', ')}]`;",
    ];
    expect(await flagged("src/statements.ts", statements(bare))).toEqual([4, 6]);
    // A comment that speaks of escaping escapes nothing, nor does a number made on another path.
    const said = [
      "    // the value is escaped and quoted by the caller",
      "    if (!text) value = parseInt(String(value));",
      ...bare,
    ];
    expect(await flagged("src/statements.ts", statements(said))).toEqual([6, 8]);
    // Named for sanitising with an escape in its body: read as an escaper is (knex's escapeString).
    const escaping = [
      "    if (typeof value === 'string' && /['\\\\]/.test(value)) return `'${value.replace(/'/g, \"''\")}'`;",
      "    if (text) value = `'${value?.toString()}'`;",
    ];
    expect(await flagged("src/statements.ts", statements(escaping))).toEqual([]);
    // Bytes written as hex or base64 hold no quote (Sequelize's Oracle `escapeBuffer`).
    const bytes = [
      "    if (value instanceof Buffer) { const hex = value.toString('hex'); return `'${hex}'`; }",
      '    if (list) return "\'" + Buffer.from(list.join()).toString("base64") + "\'";',
    ];
    expect(await flagged("src/statements.ts", statements(bytes))).toEqual([]);
  });

  it("twin: inside an escaping function, in a callback's log line, or in a file without SQL, nothing", async () => {
    expect(
      await flagged("lib/string.js", [
        "const sql = 'SELECT * FROM t WHERE id = ';",
        "function escapeString(val) {",
        '  if (!/[\\\\\']/.test(val)) return "\'" + val + "\'";',
        '  return "\'" + val.replace(/\'/g, "\'\'") + "\'";',
        "}",
        "function warn(parts) {",
        "  log.warn(`use [${parts.map((p) => `'${p}'`).join(', ')}]`);",
        "}",
      ]),
    ).toEqual([]);
    expect(await flagged("lib/label.js", ["function label(name) {", '  return "\'" + name + "\'";', "}"])).toEqual([]);
  });
});
