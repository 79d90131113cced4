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

describe("injection flows: a regular expression's exec and JavaScript's own objects run no SQL", () => {
  const matcher = (declaration: string, call: string) => [
    "export function tableOf(table) {",
    `  ${declaration}`,
    "  const sql = 'SELECT * FROM ' + table;",
    `  return ${call};`,
    "}",
  ];

  it("JS: exec on a name the file sets to a regular expression, String.raw, Promise.all are not flagged", async () => {
    expect(await flagged("lib/sql.js", matcher("const FROM = /FROM (\\w+)/;", "FROM.exec(sql)"))).toEqual([]);
    expect(await flagged("lib/sql.js", matcher("const FROM = new RegExp('FROM (\\w+)');", "FROM.exec(sql)"))).toEqual(
      [],
    );
    const raw = ["export function tableOf(table) {", "  return String.raw`SELECT * FROM ${table} WHERE a = 1`;", "}"];
    expect(await flagged("lib/sql.js", raw)).toEqual([]);
    expect(await flagged("lib/sql.js", matcher("const x = 1;", "Promise.all([sql])"))).toEqual([]);
  });

  it("JS twin: the same exec on a database handle is flagged", async () => {
    expect(await flagged("lib/sql.js", matcher("const FROM = openDatabase();", "FROM.exec(sql)"))).toEqual([4]);
    expect(await flagged("lib/sql.js", matcher("const FROM = /FROM (\\w+)/;", "db.exec(sql)"))).toEqual([4]);
  });
});

describe("injection flows: pg-format escapes what %L and %I take, not what %s takes", () => {
  const route = (verb: string) => [
    "const format = require('pg-format');",
    "const db = require('./db');",
    "exports.points = async (req, res) => {",
    `  const query = format(\`SELECT * FROM points WHERE x BETWEEN ${verb} AND ${verb}\`, req.query.a, req.query.b);`,
    "  res.json(await db.query(query));",
    "};",
  ];

  it("JS: values given to %L (and %1$L by position) are escaped: not flagged", async () => {
    expect(await flagged("server/controllers.js", route("%L"))).toEqual([]);
    const positional = route("%1$L").map((l) => l.replace("req.query.a, req.query.b", "req.query.a"));
    expect(await flagged("server/controllers.js", positional)).toEqual([]);
  });

  it("JS twin: values given to %s are spliced as they are, and a format that is not pg-format's splices", async () => {
    expect(await flagged("server/controllers.js", route("%s"))).toEqual([5]);
    const util = route("%L").map((l) => l.replace("require('pg-format')", "require('util').format"));
    expect(await flagged("server/controllers.js", util)).toEqual([5]);
  });
});

describe("injection flows: a configured table name is still spliced SQL", () => {
  it("TS: a readonly table name set from an option with a constant default is flagged (the shape of CVE-2019-15658)", async () => {
    expect(
      await flagged("lib/index.ts", [
        "export class PostgresAdapter {",
        "  public readonly tableName: string;",
        "  constructor(private pool: any, opts: Partial<Options> = {}) {",
        '    this.tableName = opts.tableName || "socket_io_attachments";',
        "  }",
        "  async cleanup() {",
        "    await this.pool.query(`DELETE FROM ${this.tableName} WHERE created_at < now()`);",
        "  }",
        "}",
      ]),
    ).toEqual([7]);
  });
});

describe("injection flows: what a query gives back is rows, not its SQL", () => {
  /** Rows of a parameterised query, each then read further (C-PAT's poamService shape). */
  const service = (each: string) => [
    "const labels = require('./labels');",
    "exports.list = async function list(req, connection) {",
    "  let sql = 'SELECT * FROM poam p';",
    "  const params = [];",
    "  if (req.query.collectionId) {",
    "    sql += ' WHERE p.collectionId = ?';",
    "    params.push(req.query.collectionId);",
    "  }",
    "  const [rows] = await connection.query(sql, params);",
    `  return Promise.all(rows.map((row) => ${each}));`,
    "};",
  ];

  it("JS: rows of a parameterised query gathered by Promise.all are not SQL reaching a query call", async () => {
    expect(await flagged("service.js", service("labels.get(row.poamId)"))).toEqual([]);
  });

  it("JS twin: a row's value spliced into SQL is still flagged where it runs", async () => {
    expect(
      await flagged("service.js", service("connection.query('SELECT * FROM labels WHERE poam = ' + row.poamId)")),
    ).toEqual([10]);
  });
});

describe("injection flows: a SQL package's function called bare runs SQL as its member call does, and raw takes fragments", () => {
  /** A platform class whose exported method builds SQL from its parameter (mikro-orm's JSON path shape). */
  const platform = (importLine: string, call: string) => [
    importLine,
    "export class SqlPlatform {",
    "  getSearchJsonPropertyKey(path: string[], aliased: boolean): string {",
    "    const [a, ...b] = path;",
    `    return ${call}(\`json_extract(\${a}, '$.\${b.join('.')}')\`);`,
    "  }",
    "}",
  ];

  it("TS: `raw` imported from an ORM, called bare (and renamed), is flagged where the parameter is spliced", async () => {
    expect(
      await flagged("src/SqlPlatform.ts", platform("import { raw, Utils } from '@mikro-orm/core';", "raw")),
    ).toEqual([5]);
    expect(await flagged("src/SqlPlatform.ts", platform("import { raw as sqlRaw } from 'knex';", "sqlRaw"))).toEqual([
      5,
    ]);
    const required = platform("const { query } = require('mysql2/promise');", "query").map((l) =>
      l.replace("json_extract(", "SELECT json_extract(").replace("')`", "') FROM t`"),
    );
    expect(await flagged("src/SqlPlatform.ts", required)).toEqual([5]);
  });

  it("TS twin: a bare `raw` from elsewhere, or given constant text, is not a query", async () => {
    expect(await flagged("src/SqlPlatform.ts", platform("import { raw } from './strings';", "raw"))).toEqual([]);
    const constant = platform("import { raw } from '@mikro-orm/core';", "raw").map((l) =>
      l.includes("json_extract") ? "    return raw(`json_extract(data, '$.name')`);" : l,
    );
    expect(await flagged("src/SqlPlatform.ts", constant)).toEqual([]);
  });

  it("TS twin: a raw fragment that splices only names (a column, an alias), not a value, is not flagged", async () => {
    const names = platform("import { raw } from '@mikro-orm/core';", "raw").map((l) =>
      l.includes("json_extract") ? "    return raw(`json_extract(${a}, ${b[0]})`);" : l,
    );
    expect(await flagged("src/SqlPlatform.ts", names)).toEqual([]);
    const member = platform("import { Knex } from 'knex';", "this.knex.raw");
    expect(await flagged("src/SqlPlatform.ts", member)).toEqual([5]);
  });
});

describe("injection flows: a local runner's raw fragment is read where its callers build the text", () => {
  /** mikro-orm's PostgreSQL JSON path: a local `cast` puts its parameter into `raw`, maybe inside a cast. */
  const platform = (arg: string) => [
    "import { raw } from '@mikro-orm/core';",
    "export class PostgreSqlPlatform {",
    "  getSearchJsonPropertyKey(path: string[], type: string): string {",
    "    const [first, ...rest] = path;",
    "    const last = rest.pop();",
    "    const root = this.quoteIdentifier(first);",
    "    const cast = (key: string) => raw(type in types ? `(${key})::${types[type]}` : key);",
    `    return cast(${arg});`,
    "  }",
    "}",
  ];

  it("TS: a value spliced between quotes in the text a caller gives the runner is flagged on the caller's line", async () => {
    expect(await flagged("src/PostgreSqlPlatform.ts", platform("`${root}->>'${last}'`"))).toEqual([8]);
  });

  it("TS twin: the same path escaped (a JSON operator then a quoted value), or constant, is not flagged", async () => {
    expect(await flagged("src/PostgreSqlPlatform.ts", platform("`${root}->>${this.quoteValue(last)}`"))).toEqual([]);
    expect(await flagged("src/PostgreSqlPlatform.ts", platform("`${root}->${rest.join('->')}`"))).toEqual([]);
    expect(await flagged("src/PostgreSqlPlatform.ts", platform("`data->>'name'`"))).toEqual([]);
    const direct = platform("`${root}->${rest.join('->')}`").map((l) =>
      l.includes("return cast(") ? "    return this.knex.raw(`${root}->${rest.join('->')}`);" : l,
    );
    expect(await flagged("src/PostgreSqlPlatform.ts", direct)).toEqual([]);
  });
});

describe("injection flows: Sequelize's literal and knex's or/and raw conditions", () => {
  /** A service that filters by a request's text through a query builder's fragment. */
  const service = (imports: string, fragment: string) => [
    imports,
    "export async function search(req, res) {",
    "  const q = req.query.q;",
    `  const rows = await ${fragment};`,
    "  res.json(rows);",
    "}",
  ];

  it("JS/TS: a request value spliced between quotes in `literal`, `orWhereRaw` or `orHavingRaw` is flagged", async () => {
    const cases: Array<[string, string]> = [
      [
        "const { Sequelize } = require('sequelize');",
        "Post.findAll({ where: Sequelize.literal(`title LIKE '%${q}%'`) })",
      ],
      ["import { literal } from 'sequelize';", "Post.findAll({ where: literal(`title = '${q}'`) })"],
      ["const db = require('./db');", "db.sequelize.literal(`title = '${q}'`)"],
      ["const knex = require('knex')(config);", "knex('posts').where('draft', false).orWhereRaw(`title = '${q}'`)"],
      [
        "const { Sequelize } = require('sequelize');",
        "Post.findAll({ where: Sequelize.literal(`title = '${unescape(q)}'`) })",
      ],
      ["const knex = require('knex')(config);", "knex('posts').groupBy('author').orHavingRaw('count(*) > ' + q)"],
    ];
    for (const [imports, fragment] of cases) {
      expect(await flagged("src/search.ts", service(imports, fragment)), fragment).toEqual([4]);
    }
  });

  it("JS/TS twin: names only, bound or escaped values, constants, and another package's `literal` are not flagged", async () => {
    const cases: Array<[string, string]> = [
      [
        "const { Sequelize } = require('sequelize');",
        "Post.findAll({ order: Sequelize.literal(`${sortColumn} DESC`) })",
      ],
      ["const { Sequelize } = require('sequelize');", "Post.findAll({ where: Sequelize.literal('published = true') })"],
      ["const knex = require('knex')(config);", "knex('posts').orWhereRaw('title = ?', [q])"],
      ["import { z } from 'zod';", "z.literal(`title = '${q}'`).parse(req.body)"],
      [
        "const { Sequelize } = require('sequelize');",
        "Post.findAll({ where: Sequelize.literal(`title = ${this.sequelize.escape(q)} OR slug = '${q.replace(/'/g, \"''\")}'`) })",
      ],
    ];
    for (const [imports, fragment] of cases) {
      expect(await flagged("src/search.ts", service(imports, fragment)), fragment).toEqual([]);
    }
  });
});

describe("injection flows: a condition chosen by `?:` is read in each branch", () => {
  const service = (condition: string) => [
    "import { AppDataSource } from './data-source';",
    "export async function search(req, res) {",
    "  const { q, exact } = req.query;",
    `  const rows = await AppDataSource.getRepository(Post).createQueryBuilder('post').where(${condition}).getMany();`,
    "  res.json(rows);",
    "}",
  ];

  it("TS: a request value spliced between quotes in either branch is flagged", async () => {
    expect(await flagged("src/search.ts", service("exact ? `post.title = '${q}'` : 'post.draft = false'"))).toEqual([
      4,
    ]);
    expect(
      await flagged("src/search.ts", service("exact ? 'post.draft = false' : (`post.title LIKE '%${q}%'`)")),
    ).toEqual([4]);
  });

  it("TS twin: branches that bind the value or splice only a name are not flagged", async () => {
    expect(await flagged("src/search.ts", service("exact ? 'post.title = :q' : 'post.title LIKE :q'"))).toEqual([]);
    expect(await flagged("src/search.ts", service("exact ? `${alias}.title = :q` : `${alias}.draft = false`"))).toEqual(
      [],
    );
  });
});

describe("injection flows: pg-promise's query methods, its formatting, and escapers on any object", () => {
  /** A data-layer function whose caller (in another file) passes the request's value. */
  const users = (body: string) => [
    "const pgp = require('pg-promise')();",
    "const db = pgp(process.env.DATABASE_URL);",
    "export async function findUser(name) {",
    `  ${body}`,
    "}",
  ];

  it("JS: a parameter spliced into SQL given to db.one, oneOrNone, manyOrNone, any, none, or a raw filter, is flagged", async () => {
    for (const body of [
      "return db.one(`SELECT * FROM users WHERE name = '${name}'`);",
      "return db.oneOrNone('SELECT * FROM users WHERE name = ' + name);",
      "return db.task((t) => t.manyOrNone(`SELECT * FROM users WHERE name = '${name}'`));",
      "return db.any(`SELECT * FROM users WHERE name = '${name}'`);",
      "return db.none(`DELETE FROM users WHERE name = '${name}'`);",
      "return db.any(pgp.as.format('SELECT * FROM users ORDER BY $1:raw', [name]));",
      "return db.any(pgp.as.format('SELECT * FROM users ORDER BY $1^', [name]));",
    ]) {
      expect(await flagged("src/users.js", users(body)), body).toEqual([4]);
    }
  });

  it("JS twin: pg-promise's own placeholders, as.format, as.text, escapers on a field, and other any/one calls are not flagged", async () => {
    for (const body of [
      "return db.one('SELECT * FROM users WHERE name = ${name}', { name });",
      "return db.any('SELECT * FROM users WHERE name = $1', [name]);",
      "return db.any(pgp.as.format('SELECT * FROM users WHERE name = $1', [name]));",
      "return db.any(this.db.$config.pgp.as.format('SELECT * FROM users WHERE name = $1', [name]));",
      "return db.oneOrNone(`SELECT * FROM users WHERE name = ${this.db.$config.pgp.as.text(name)}`);",
      "return this.pool.query(`SELECT * FROM users WHERE name = ${this.pool.escape(name)}`);",
      "return this.db.client.query(`SELECT * FROM users WHERE name = ${this.db.client.escapeLiteral(name)}`);",
      "return db.none(`INSERT INTO users (name) VALUES ${pgp.helpers.values([{ name }], ['name'])}`);",
      "return Promise.any([db.one('SELECT 1'), fetchUser(name)]);",
      "return schema.any().parse(`SELECT * FROM users WHERE name = '${name}'`);",
      "const rows = await db.manyOrNone(`SELECT id FROM users WHERE name = $1`, [name]); return redis.get(`user:${rows[0].id}`);",
    ]) {
      expect(await flagged("src/users.js", users(body)), body).toEqual([]);
    }
  });
});

describe("injection flows: lodash's map runs its callback over the list, as list.map does", () => {
  const save = (mapped: string) => [
    "import _ from 'lodash';",
    "import { idb, pgp } from './db';",
    "export const save = async (keys: string[]) => {",
    `  const values = ${mapped};`,
    "  await idb.none(`DELETE FROM t WHERE k IN (${values.join(',')})`);",
    "};",
  ];

  it("TS: keys escaped inside _.map's callback reach SQL escaped; the same keys mapped bare are flagged", async () => {
    for (const mapped of ["_.map(keys, (k) => pgp.as.text(k))", "lodash.flatMap(keys, (k) => [pgp.as.text(k)])"])
      expect([mapped, await flagged("src/save.ts", save(mapped))]).toEqual([mapped, []]);
    for (const mapped of ["_.map(keys, (k) => k)", "_.map(keys, (k) => `'${k}'`)"])
      expect([mapped, await flagged("src/save.ts", save(mapped))]).toEqual([mapped, [5]]);
  });
});

describe("injection flows: a module loaded by require at the top level is a module, as one an import binds", () => {
  const service = (load: string, sql = "`SELECT * FROM ${config.database.schema}.users WHERE id = ?`") => [
    load,
    "module.exports.get = async function get(userId) {",
    `  const sql = ${sql};`,
    "  return pool.query(sql, [userId]);",
    "};",
  ];

  it("JS: a schema name read from require('../utils/config') is configuration, as from import config", async () => {
    for (const load of [
      "const config = require('../utils/config');",
      "var config = require('config');",
      "const settings = require('./settings').db, config = { database: settings };",
      "import config from '../utils/config';",
    ])
      expect([load, await flagged("api/users.js", service(load))]).toEqual([load, []]);
  });

  it("JS twin: what a function or a loaded module's call returns is outside data, and request data beside config is still flagged", async () => {
    for (const load of ["const config = loadConfig();", "const config = require('../utils/config')(process.env);"])
      expect([load, await flagged("api/users.js", service(load))]).toEqual([load, [4]]);
    const withRequest = service(
      "const config = require('../utils/config');",
      "`SELECT * FROM ${config.database.schema}.users WHERE id = ${userId}`",
    );
    expect(await flagged("api/users.js", withRequest)).toEqual([4]);
  });
});
