import { describe, expect, it } from "vitest";
import { candidatePaths, projectImports } from "../../../src/detectors/dataflow/project-imports.js";
import { withoutPrechecks } from "../../../src/detectors/precheck.js";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFilePatch, buildPr, detectContext, headFiles } from "../pr-builder.js";

/** Head lines of SEC-02 findings for one added file, with the head holding `head` too. */
async function flagged(filename: string, lines: string[], head: Record<string, string>): Promise<number[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const found = await injectionDetector.detect(
    detectContext(pr, { head: headFiles({ [filename]: lines.join("\n"), ...head }) }),
  );
  return found.map((f) => f.line ?? -1).sort((a, b) => a - b);
}

/** A tile server that runs the SQL another file of the project builds (clusterbuster's shape). */
const tiler = (query: string) => [
  'import pg from "pg";',
  'import { createQueryForTile } from "./queries";',
  "export async function tile(pool: pg.Pool, table: string, z: number) {",
  "  const query = createQueryForTile({ table, z });",
  `  return pool.query(${query});`,
  "}",
];

const queries = (body: string) => ({
  "lib/queries.ts": [
    "export function createQueryForTile({ table, z }: { table: string; z: number }) {",
    `  ${body}`,
    "}",
  ].join("\n"),
});

describe("SEC-02 follows calls into the project files a change imports", () => {
  it("SQL text another file builds from the call's values is flagged where it is run; bound values are not", async () => {
    const spliced = queries("return `SELECT mvt FROM ${table} WHERE z = ${z}`;");
    expect(await flagged("lib/tiler.ts", tiler("query"), spliced)).toEqual([5]);
    const bound = queries("return { sql: 'SELECT mvt FROM tiles WHERE t = $1 AND z = $2', values: [table, z] };");
    expect(await flagged("lib/tiler.ts", tiler("query.sql, query.values"), bound)).toEqual([]);
  });

  it("follows a local assigned from the call with a type and await, over two lines", async () => {
    const spliced = queries("return `SELECT mvt FROM ${table} WHERE z = ${z}`;");
    const typed = [
      'import { createQueryForTile } from "./queries";',
      "export async function tile(pool: Pool, table: string, z: number) {",
      "  const query: string =",
      "    await createQueryForTile({ table, z });",
      "  return pool.query(query);",
      "}",
    ];
    expect(await flagged("lib/tiler.ts", typed, spliced)).toEqual([5]);
  });

  it("follows a call given straight to the sink and a namespace's member, with the pre-checks on and off", async () => {
    const spliced = queries("return `SELECT mvt FROM ${table} WHERE z = ${z}`;");
    const direct = [
      'import * as q from "./queries";',
      "export function tile(pool: Pool, table: string, z: number) {",
      "  return pool.query(q.createQueryForTile({ table, z }));",
      "}",
    ];
    expect(await flagged("lib/tiler.ts", direct, spliced)).toEqual([3]);
    expect(await withoutPrechecks(() => flagged("lib/tiler.ts", direct, spliced))).toEqual([3]);
    const constant = queries("return 'SELECT mvt FROM tiles WHERE z = 1';");
    expect(await flagged("lib/tiler.ts", direct, constant)).toEqual([]);
  });

  it("without the imported file in the head, the call's result reads as before (outside data, no SQL text)", async () => {
    expect(await flagged("lib/tiler.ts", tiler("query"), {})).toEqual([]);
  });

  it("follows a module exported whole: a default import, and a require of a module that sets module.exports", async () => {
    const route = (imported: string) => [
      imported,
      "export function show(req, res, db) {",
      "  return db.query(buildQuery(req.query.id));",
      "}",
    ];
    const esm = 'import buildQuery from "./build-query";';
    const cjs = 'const buildQuery = require("./build-query");';
    const spliced = "(id) { return 'SELECT * FROM orders WHERE id = ' + id; }";
    const bound = "(id) { return { text: 'SELECT * FROM orders WHERE id = $1', values: [id] }; }";
    const modules: Array<[string, string]> = [
      [esm, "export default function buildQuery"],
      [esm, "function buildQuery(id) { return id; }\nexport default function"],
      [cjs, "module.exports = function"],
      [cjs, "exports.other = 1;\nmodule.exports = function buildQuery"],
    ];
    for (const [imported, head] of modules) {
      const file = (body: string) => ({ "lib/build-query.js": `${head}${body}` });
      expect(await flagged("lib/route.js", route(imported), file(spliced)), head).toEqual([3]);
      expect(await withoutPrechecks(() => flagged("lib/route.js", route(imported), file(spliced))), head).toEqual([3]);
      expect(await flagged("lib/route.js", route(imported), file(bound)), head).toEqual([]);
    }
    // The default export named by its function: `export default buildQuery`, `module.exports = buildQuery`.
    const named: Array<[string, string]> = [
      [esm, "export default buildQuery;"],
      [cjs, "module.exports = buildQuery;"],
    ];
    for (const [imported, tail] of named) {
      const file = (body: string) => ({ "lib/build-query.js": `function buildQuery${body}\n${tail}` });
      expect(await flagged("lib/route.js", route(imported), file(spliced)), tail).toEqual([3]);
      expect(await flagged("lib/route.js", route(imported), file(bound)), tail).toEqual([]);
    }
  });

  it("reads relative imports and namespace requires, and never a path that leaves the repository", () => {
    expect(
      projectImports(
        'import { a as b, c } from "./x";\nimport * as q from "../q";\nconst { d } = require("./d");\nconst pg = require("pg");',
      ),
    ).toEqual([
      { local: "b", name: "a", specifier: "./x" },
      { local: "c", name: "c", specifier: "./x" },
      { local: "d", name: "d", specifier: "./d" },
      { local: "q", name: "*", specifier: "../q" },
    ]);
    expect(
      projectImports(
        'import build from "./build";\nimport run, { a } from "./run";\nimport type T from "./t";\nimport React from "react";',
      ),
    ).toEqual([
      { local: "a", name: "a", specifier: "./run" },
      { local: "build", name: "default", specifier: "./build" },
      { local: "run", name: "default", specifier: "./run" },
    ]);
    expect(candidatePaths("lib/tiler.ts", "./queries").slice(0, 2)).toEqual(["lib/queries.ts", "lib/queries.tsx"]);
    expect(candidatePaths("lib/tiler.ts", "./queries.js")).toEqual([
      "lib/queries.js",
      "lib/queries.ts",
      "lib/queries.tsx",
    ]);
    expect(candidatePaths("lib/tiler.ts", "../../etc/passwd")).toEqual([]);
  });
});

describe("SEC-02: a project file's runner called with built text is a sink where it is called", () => {
  /** Nginx Proxy Manager's `lib/utils.js`: `exec` hands its command to child_process.exec. */
  const utils = {
    "backend/lib/utils.js": [
      "const exec = require('child_process').exec;",
      "const execFile = require('child_process').execFile;",
      "module.exports = {",
      "  exec: function (cmd) {",
      "    return new Promise((resolve, reject) => {",
      "      exec(cmd, function (err, stdout) { err ? reject(err) : resolve(stdout.trim()); });",
      "    });",
      "  },",
      "  execFile: function (cmd, args) {",
      "    return new Promise((resolve, reject) => {",
      "      execFile(cmd, args, function (err, stdout) { err ? reject(err) : resolve(stdout.trim()); });",
      "    });",
      "  },",
      "};",
    ].join("\n"),
  };
  const accessList = (call: string) => [
    "const utils = require('../lib/utils');",
    "exports.build = (file, item) => {",
    `  return ${call};`,
    "};",
  ];

  it("a command built from a function's parameters and run through utils.exec is flagged at the call", async () => {
    const built = "utils.exec('/usr/bin/htpasswd -b \"' + file + '\" \"' + item.username + '\"')";
    expect(await flagged("backend/internal/access-list.js", accessList(built), utils)).toEqual([3]);
    expect(await withoutPrechecks(() => flagged("backend/internal/access-list.js", accessList(built), utils))).toEqual([
      3,
    ]);
  });

  it("twins: an argument array through utils.execFile, a constant command, and a module the head lacks are not", async () => {
    const argv = "utils.execFile('/usr/bin/htpasswd', ['-b', file, item.username])";
    expect(await flagged("backend/internal/access-list.js", accessList(argv), utils)).toEqual([]);
    const constant = "utils.exec('/usr/bin/htpasswd -b ' + '/data/access')";
    expect(await flagged("backend/internal/access-list.js", accessList(constant), utils)).toEqual([]);
    const built = "utils.exec('/usr/bin/htpasswd -b \"' + file + '\"')";
    expect(await flagged("backend/internal/access-list.js", accessList(built), {})).toEqual([]);
  });

  it("only calls named like a runner read their file: a logger called with built text is not read", async () => {
    const reads: string[] = [];
    const files: Record<string, string> = {
      ...utils,
      "backend/lib/log.js": "module.exports = { info: (message) => console.log(message) };",
    };
    const lines = [
      "const utils = require('../lib/utils');",
      "const log = require('../lib/log');",
      "exports.build = (file) => {",
      "  log.info('building ' + file);",
      "  return utils.exec('/usr/bin/htpasswd -b ' + file);",
      "};",
    ];
    const filename = "backend/internal/access-list.js";
    const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
    const head = headFiles({ [filename]: lines.join("\n"), ...files });
    const counted = {
      read: (path: string) => {
        reads.push(path);
        return head.read(path);
      },
    };
    const found = await injectionDetector.detect(detectContext(pr, { head: counted }));
    expect(found.map((f) => f.line)).toEqual([5]);
    expect(reads).toContain("backend/lib/utils.js");
    expect(reads.filter((r) => r.startsWith("backend/lib/log"))).toEqual([]);
  });

  it("a runner that changes its parameter first (quoting it) makes no sink of its callers", async () => {
    const quoting = {
      "backend/lib/utils.js": [
        "const { exec } = require('child_process');",
        "const quote = require('shell-quote').quote;",
        "exports.exec = function (cmd) {",
        "  cmd = quote([cmd]);",
        "  return exec(cmd);",
        "};",
      ].join("\n"),
    };
    const built = "utils.exec('ls ' + file)";
    expect(await flagged("backend/internal/access-list.js", accessList(built), quoting)).toEqual([]);
  });

  it("a named import of a SQL runner and a module exported whole that runs a shell", async () => {
    const db = {
      "src/db.ts": [
        "import { pool } from './pool';",
        "export async function runQuery(sql: string) {",
        "  return pool.query(sql);",
        "}",
      ].join("\n"),
    };
    const route = (call: string) => [
      'import { runQuery } from "./db";',
      "export async function show(req, res) {",
      `  res.json(await ${call});`,
      "}",
    ];
    expect(
      await flagged("src/route.ts", route("runQuery(`SELECT * FROM orders WHERE id = ${req.params.id}`)"), db),
    ).toEqual([3]);
    expect(await flagged("src/route.ts", route("runQuery(`SELECT * FROM orders WHERE id = ${'1'}`)"), db)).toEqual([]);
    const run = {
      "lib/run.js": "const { execSync } = require('child_process');\nmodule.exports = (command) => execSync(command);",
    };
    const tool = (arg: string) => [
      "const run = require('./run');",
      "exports.list = (dir) => {",
      `  return run(${arg});`,
      "};",
    ];
    expect(await flagged("lib/tool.js", tool("'ls -l ' + dir"), run)).toEqual([3]);
    expect(await flagged("lib/tool.js", tool("'ls -l ' + '/tmp'"), run)).toEqual([]);
  });

  it("a runner that hands mysql.format(query) to the driver inside a promise is a runner (kbot's doQuery)", async () => {
    const functions = (format: string) => ({
      "lib/utils/functions.js": [
        "const mysql = require('mysql');",
        "const database = mysql.createConnection({});",
        "exports.doQuery = (query) => new Promise((resolve, reject) => {",
        `  database.query(${format}, (err, results) => (err ? reject(err) : resolve(results)));`,
        "});",
      ].join("\n"),
    });
    const ban = (call: string) => [
      "const custom = require('../utils/functions.js');",
      "exports.ban = async (msg) => {",
      `  return custom.doQuery(${call});`,
      "};",
    ];
    const spliced = '`SELECT * FROM ban_list WHERE user_id="${msg[0]}"`';
    expect(await flagged("lib/commands/ban.js", ban(spliced), functions("mysql.format(query)"))).toEqual([3]);
    // Twins: the values bound by format's second argument, and a runner that formats a constant.
    const bound = "'SELECT * FROM ban_list WHERE user_id = ?', [msg[0]]";
    expect(await flagged("lib/commands/ban.js", ban(bound), functions("mysql.format(query)"))).toEqual([]);
    expect(await flagged("lib/commands/ban.js", ban(spliced), functions("mysql.format('SELECT 1')"))).toEqual([]);
  });

  it("a module that is only a query function, required as db inside a handler, is a runner (TakasumiBOT's db)", async () => {
    const db = {
      "module/lib/db.js": [
        "const mysql = require('mysql');",
        "const connection = mysql.createConnection({});",
        "module.exports = async (query) => {",
        "  connection.query = util.promisify(connection.query);",
        "  return await connection.query(query);",
        "};",
      ].join("\n"),
    };
    const up = (sql: string) => [
      "module.exports = async (interaction) => {",
      "  const db = require('../../lib/db');",
      `  await db(${sql});`,
      "};",
    ];
    const spliced = '`UPDATE server SET name = "${interaction.guild.name}" WHERE id = 1`';
    expect(await flagged("module/function/slashcommand/up.js", up(spliced), db)).toEqual([3]);
    const constant = '`UPDATE server SET name = "${"up"}" WHERE id = 1`';
    expect(await flagged("module/function/slashcommand/up.js", up(constant), db)).toEqual([]);
  });

  it("a named function the module exports whole (`module.exports = runCommand`) is its default export", async () => {
    const named = {
      "lib/run.js": [
        "const { execSync } = require('child_process');",
        "function runCommand(command) {",
        "  return execSync(command);",
        "}",
        "module.exports = runCommand;",
      ].join("\n"),
    };
    const tool = (arg: string) => [
      "const run = require('./run');",
      "exports.list = (dir) => {",
      `  return ${arg};`,
      "};",
    ];
    expect(await flagged("lib/tool.js", tool("run('ls -l ' + dir)"), named)).toEqual([3]);
    expect(await flagged("lib/tool.js", tool("run('ls -l ' + '/tmp')"), named)).toEqual([]);
  });
});
