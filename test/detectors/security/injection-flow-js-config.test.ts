import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFileFindingLines } from "../pr-builder.js";

/** Head lines of SEC-02 findings for one added file. */
const flagged = (filename: string, lines: string[]) => addedFileFindingLines(injectionDetector, filename, lines);

describe("injection flows: a file's own function named like an imported exec", () => {
  it("JS: a local execCommand that runs execFile with an argument array is no shell", async () => {
    expect(
      await flagged("src/command.js", [
        "var child_process = require('child_process');",
        "function execCommand(command, options) {",
        "  var parts = command.split(' ');",
        "  return child_process.execFile(parts[0], parts.slice(1), options);",
        "}",
        "function lint(files, options) {",
        "  return execCommand('scss-lint ' + files.join(' '), options);",
        "}",
      ]),
    ).toEqual([]);
  });

  it("JS twin: a local execCommand that runs exec is flagged where it runs the shell", async () => {
    expect(
      await flagged("src/command.js", [
        "var child_process = require('child_process');",
        "function execCommand(command, options) {",
        "  return child_process.exec(command, options);",
        "}",
        "function lint(files, options) {",
        "  return execCommand('scss-lint ' + files.join(' '), options);",
        "}",
      ]),
    ).toEqual([3]);
  });

  it("JS twin: an imported execCommand (not defined in the file) is still a shell", async () => {
    expect(
      await flagged("src/command.js", [
        "const { execCommand } = require('./shell');",
        "function lint(files) {",
        "  return execCommand('scss-lint ' + files.join(' '));",
        "}",
      ]),
    ).toEqual([3]);
  });
});

describe("injection flows: a Map's get is no query", () => {
  const store = (declaration: string) => [
    "export class Store {",
    `  ${declaration}`,
    "  find(id: string) {",
    "    return this.rows.get(`SELECT * FROM items WHERE id = '${id}'`);",
    "  }",
    "}",
  ];

  it("TS: get on a field declared a Map (or made by new Map) is not flagged", async () => {
    expect(await flagged("lib/store.ts", store("private rows: Map<string, Row> = new Map();"))).toEqual([]);
    expect(await flagged("lib/store.ts", store("private rows = new Map<string, Row>();"))).toEqual([]);
  });

  it("TS twin: the same get on a field that is no Map (a sqlite handle) is flagged", async () => {
    expect(await flagged("lib/store.ts", store("private rows: Database;"))).toEqual([4]);
  });
});

describe("injection flows: SQL that splices only the options the object was configured with", () => {
  const adapter = (fields: string[], constructorBody: string[], query: string) => [
    "export class PostgresAdapter {",
    ...fields.map((f) => `  ${f}`),
    "  constructor(private pool: any, opts: Partial<Options> = {}) {",
    ...constructorBody.map((l) => `    ${l}`),
    "  }",
    "  async cleanup() {",
    `    await this.pool.query(${query});`,
    "  }",
    "}",
  ];
  const configured = adapter(
    ["public readonly tableName: string;", "public cleanupInterval: number;"],
    [
      'this.tableName = opts.tableName || "socket_io_attachments";',
      "this.cleanupInterval = opts.cleanupInterval || 30000;",
    ],
    "`DELETE FROM ${this.tableName} WHERE created_at < now() - interval '${this.cleanupInterval} milliseconds'`",
  );

  it("TS: a readonly table name and a number option, each with a constant default, are not flagged", async () => {
    expect(await flagged("lib/index.ts", configured)).toEqual([]);
  });

  it("TS twin: the table name field spliced where SQL expects a value is flagged", async () => {
    const lines = adapter(
      ["public readonly tableName: string;"],
      ['this.tableName = opts.tableName || "socket_io_attachments";'],
      "`DELETE FROM attachments WHERE name = '${this.tableName}'`",
    );
    expect(await flagged("lib/index.ts", lines)).toEqual([7]);
  });

  it("TS twin: a table name field that is not readonly, or set from a parameter with no default, is flagged", async () => {
    const writable = adapter(
      ["public tableName: string;"],
      ['this.tableName = opts.tableName || "socket_io_attachments";'],
      "`DELETE FROM ${this.tableName}`",
    );
    const noDefault = adapter(
      ["public readonly tableName: string;"],
      ["this.tableName = opts.tableName;"],
      "`DELETE FROM ${this.tableName}`",
    );
    expect(await flagged("lib/index.ts", writable)).toEqual([7]);
    expect(await flagged("lib/index.ts", noDefault)).toEqual([7]);
  });

  it("TS twin: a string option spliced beside the configured ones is flagged", async () => {
    const lines = adapter(
      ["public readonly tableName: string;", "public readonly channel: string;"],
      ['this.tableName = opts.tableName || "t";', 'this.channel = opts.channel || "c";'],
      "`DELETE FROM ${this.tableName} WHERE channel = '${this.channel}'`",
    );
    expect(await flagged("lib/index.ts", lines)).toEqual([9]);
  });
});
