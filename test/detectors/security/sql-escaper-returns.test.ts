import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFileFindingLines, addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** Head lines of SEC-02 findings for one added file. */
const flagged = (filename: string, lines: string[]) => addedFileFindingLines(injectionDetector, filename, lines);

/** A connector whose `toDatabase` (lines 4 on) writes a value for SQL text; `find` splices it in (line 2, a parameter: flagged by the flow). */
const connector = (body: string[]) => [
  "Connector.prototype.find = function (model, id, cb) {",
  "  this.query('SELECT * FROM ' + this.table(model) + ' WHERE id = ' + this.toDatabase(this.prop(model), id), cb);",
  "};",
  "Connector.prototype.toDatabase = function (prop, val) {",
  ...body,
  "};",
];

describe("SEC-02: a function that escapes a value for SQL on some paths and returns it bare on another", () => {
  it("LoopBack's toDatabase returning a Number property's value as given is flagged at that return", async () => {
    const found = await flagged(
      "lib/mysql.js",
      connector([
        "  if (val === null) return 'NULL';",
        "  if (prop.type.name === 'Number') return val;",
        "  return this.client.escape(val.toString());",
      ]),
    );
    expect(found).toEqual([2, 6]);
    const pr = buildPr({
      files: [
        {
          filename: "lib/mysql.js",
          patch: addedFilePatch(connector(["  if (prop.raw) { return val; }", "  return escape(val);"])),
        },
      ],
    });
    const messages = (await injectionDetector.detect(detectContext(pr))).map((f) => f.message);
    expect(messages.some((m) => /returns it here as given/.test(m))).toBe(false);
  });

  it("a bare return followed by a comment is still read (the file's pre-check lets it through)", async () => {
    expect(
      await flagged(
        "lib/mysql.js",
        connector([
          "  if (prop.type.name === 'Number') return val; // numbers go as they are",
          "  return this.client.escape(val.toString());",
        ]),
      ),
    ).toEqual([2, 5]);
  });

  it("the same with an Oracle-style ternary escape and a guard that does not prove the value plain", async () => {
    expect(
      await flagged(
        "lib/oracle.js",
        connector([
          "  if (prop.type.name === 'Number') {",
          "    if (!val && val !== 0) return 'NULL';",
          "    return val;",
          "  }",
          "  return prop.raw ? null : escape(val.toString());",
        ]),
      ),
    ).toEqual([2, 7]);
  });

  it("twins: converted, guarded as a number, constant, empty, raw, escaped by type, or no escaping anywhere", async () => {
    for (const body of [
      ["  if (prop.type.name === 'Number') return Number(val);", "  return this.client.escape(val.toString());"],
      ["  if (typeof val === 'number' || typeof val === 'boolean') return val;", "  return this.client.escape(val);"],
      ["  if (Number.isInteger(val)) return val;", "  return this.client.escape(val);"],
      ["  if (val === null || val === undefined) return val;", "  return this.client.escape(val);"],
      ["  if (!val) return val;", "  return this.client.escape(val);"],
      ["  if (this.isRaw(val)) return val;", "  return this.client.escape(val);"],
      ["  if (typeof val === 'string') val = escape(val);", "  return val;"],
      ["  if (prop.type.name === 'Number') return val;", "  return val.toString();"],
    ])
      expect([body[0], await flagged("lib/connector.js", connector(body))]).toEqual([body[0], [2]]);
  });

  it("twins: a name's quoting that an option turns off (Sequelize's quoteIdentifier, TypeORM's escape(name)) is not a value's", async () => {
    expect(
      await flagged("src/query-generator.js", [
        "class QueryGenerator {",
        "  selectQuery(table) { return 'SELECT * FROM ' + this.quoteIdentifier(table); }",
        "  quoteIdentifier(identifier) {",
        "    if (this.options.quoteIdentifiers === false) return identifier;",
        "    return quoteIdentifier(identifier, '\"', '\"');",
        "  }",
        "  escape(name) {",
        "    if (!this.expressionMap.disableEscaping) return name;",
        "    return this.driver.escape(name);",
        "  }",
        "}",
      ]),
    ).toEqual([]);
  });

  it("a file whose strings hold no SQL is not asked", async () => {
    expect(
      await flagged("lib/html.js", [
        "exports.text = function (val, plain) {",
        "  if (plain) return val;",
        "  return escapeHtml(val);",
        "};",
      ]),
    ).toEqual([]);
  });
});
