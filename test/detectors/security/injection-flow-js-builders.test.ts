import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFileFindingLines } from "../pr-builder.js";

/** Head lines of SEC-02 findings for one added file. */
const flagged = (filename: string, lines: string[]) => addedFileFindingLines(injectionDetector, filename, lines);

describe("injection flows: query builders' SQL fragments (TypeORM where/andWhere/orWhere/having)", () => {
  it("TS: a value interpolated into a quoted LIKE of orWhere is flagged at its line", async () => {
    expect(
      await flagged("src/paginate.ts", [
        "export function search(qb: SelectQueryBuilder<Item>, query: PaginateQuery, column: string) {",
        "  const aliasColumn = `${qb.alias}.${column}`;",
        "  qb.orWhere(`${aliasColumn}::text ILIKE '%${query.search}%'`);",
        "  return qb;",
        "}",
      ]),
    ).toEqual([3]);
  });

  it("TS twin: the same fragment with a bound :search parameter is not (the column alias splices no value)", async () => {
    expect(
      await flagged("src/paginate.ts", [
        "export function search(qb: SelectQueryBuilder<Item>, query: PaginateQuery, column: string) {",
        "  const aliasColumn = `${qb.alias}.${column}`;",
        "  qb.orWhere(`${aliasColumn}::text ILIKE(:search)`, { search: `%${query.search}%` });",
        "  qb.andWhere(`UPPER(${aliasColumn}) LIKE UPPER(:search)`, { search: `%${query.search}%` });",
        "  return qb;",
        "}",
      ]),
    ).toEqual([]);
  });

  it("JS: concatenation and a compared value in andWhere and having are flagged", async () => {
    expect(
      await flagged("lib/repo.js", [
        "function byName(repo, name, min) {",
        "  return repo",
        '    .createQueryBuilder("u")',
        '    .andWhere("u.name = \'" + name + "\'")',
        "    .having(`COUNT(u.id) > ${min}`)",
        "    .getMany();",
        "}",
      ]),
    ).toEqual([4, 5]);
  });

  it("JS: a value spliced into the quoted text of `new ParameterizedSQL(...)` is flagged at its line", async () => {
    expect(
      await flagged("lib/postgresql.js", [
        "PostgreSQL.prototype.buildExpression = function (columnName, operator, operatorValue) {",
        "  if (operator === 'match') {",
        "    return new ParameterizedSQL(`to_tsvector(${columnName}) @@ to_tsquery('${operatorValue}')`);",
        "  }",
        '  return new ParameterizedSQL(columnName + " = \'" + operatorValue + "\'");',
        "};",
      ]),
    ).toEqual([3, 5]);
  });

  it("JS twin: the same objects with `?` and bound values, a column's name, and classes not named for SQL are not", async () => {
    expect(
      await flagged("lib/postgresql.js", [
        "PostgreSQL.prototype.buildExpression = function (columnName, operator, operatorValue) {",
        "  if (operator === 'match') {",
        "    return new ParameterizedSQL(`to_tsvector(${columnName}) @@ to_tsquery(?)`, [operatorValue]);",
        "  }",
        "  if (operator === 'bad') throw new Error(`unknown operator '${operatorValue}'`);",
        "  const label = new Label(`name = '${operatorValue}'`);",
        "  return new ParameterizedSQL(columnName + \"::TEXT LIKE ? ESCAPE E'\\\\'\", [operatorValue, label]);",
        "};",
      ]),
    ).toEqual([]);
  });

  it("JS twin: constant fragments, bound parameters and knex's where(column, value) are not", async () => {
    expect(
      await flagged("lib/repo.js", [
        "function byName(repo, knex, name, column) {",
        '  repo.createQueryBuilder("u").where("u.name = :name", { name }).getMany();',
        '  knex("users").where("name", name).orWhere(column, name);',
        '  knex("users").where(`${column}`, "=", name);',
        "  const ACTIVE = 1;",
        "  return repo.createQueryBuilder('u').andWhere(`u.active = ${ACTIVE}`).getMany();",
        "}",
      ]),
    ).toEqual([]);
  });
});

describe("injection flows: SQL text returned by another method of the same class or prototype", () => {
  it("JS: a prototype method splicing a field, called as this.quotedTable() into this.query, is flagged", async () => {
    expect(
      await flagged("index.js", [
        "const Store = function (options) {",
        "  this.tableName = options.tableName || 'session';",
        "};",
        "Store.prototype.quotedTable = function () {",
        "  return '\"' + this.tableName + '\"';",
        "};",
        "Store.prototype.get = function (sid, fn) {",
        "  this.query('SELECT sess FROM ' + this.quotedTable() + ' WHERE sid = $1', [sid], fn);",
        "};",
      ]),
    ).toEqual([8]);
  });

  it("JS twin: the same table name escaped as an identifier where the field is set is not", async () => {
    expect(
      await flagged("index.js", [
        'const escapePgIdentifier = (value) => value.replace(/"/g, \'""\');',
        "const Store = function (options) {",
        "  this.tableName = options.tableName ? escapePgIdentifier(options.tableName) : 'session';",
        "  if (this.tableName.includes('.')) this.tableName = this.tableName.replace(/./g, '_');",
        "};",
        "Store.prototype.quotedTable = function () {",
        "  return '\"' + this.tableName + '\"';",
        "};",
        "Store.prototype.get = function (sid, fn) {",
        "  this.query('SELECT sess FROM ' + this.quotedTable() + ' WHERE sid = $1', [sid], fn);",
        "};",
      ]),
    ).toEqual([]);
  });

  it("JS: a field the file builds on, or sets from a request elsewhere, is still data from outside", async () => {
    expect(
      await flagged("index.js", [
        "class Store {",
        "  constructor() { this.table = 'session'; }",
        "  use(req) { this.table = req.query.table; }",
        "  get(sid) { return this.pool.query('SELECT sess FROM ' + this.table + ' WHERE sid = $1', [sid]); }",
        "}",
      ]),
    ).toEqual([4]);
  });

  it("JS: fields set from one another are read through each other, however they are first read", async () => {
    const store = (source: string) => [
      "class Store {",
      `  constructor(opts) { this.prefix = ${source}; this.table = this.prefix + "_sessions"; }`,
      "  rename() { this.prefix = this.table.replace(/_sessions$/, ''); }",
      "  get(id) { return this.pool.query('SELECT * FROM ' + this.table + ' WHERE id = $1', [id]); }",
      "  all() { return this.pool.query('SELECT * FROM ' + this.prefix + ' WHERE 1 = 1'); }",
      "}",
    ];
    expect(await flagged("store.js", store("'app'"))).toEqual([]);
    expect(await flagged("store.js", store("opts.prefix"))).toEqual([4, 5]);
  });

  it("TS: a class method that returns SQL built from its argument, passed to query, is flagged", async () => {
    expect(
      await flagged("src/repo.ts", [
        "export class Repo {",
        "  constructor(private pool: Pool) {}",
        "  private buildQuery(name: string): string {",
        '    return "SELECT * FROM users WHERE name = \'" + name + "\'";',
        "  }",
        "  find(name: string) {",
        "    return this.pool.query(this.buildQuery(name));",
        "  }",
        "}",
      ]),
    ).toEqual([7]);
  });

  it("twins: methods that return constant SQL or a constant table name are not", async () => {
    expect(
      await flagged("index.js", [
        "const Store = function () {};",
        "Store.prototype.quotedTable = function () {",
        "  return '\"session\"';",
        "};",
        "Store.prototype.get = function (sid, fn) {",
        "  this.query('SELECT sess FROM ' + this.quotedTable() + ' WHERE sid = $1', [sid], fn);",
        "};",
        "class Repo {",
        "  buildQuery() {",
        "    return 'SELECT * FROM users WHERE name = $1';",
        "  }",
        "  find(name) {",
        "    return this.pool.query(this.buildQuery(), [name]);",
        "  }",
        "}",
      ]),
    ).toEqual([]);
  });

  it("JS: a query wrapper method is judged by each call apart: constant SQL with bound values is not, spliced SQL is", async () => {
    const wrapper = [
      "class Store {",
      "  query(text, params) {",
      "    return this.pool.query(text, params || []);",
      "  }",
    ];
    expect(
      await flagged("store.js", [
        ...wrapper,
        "  get(sid) { return this.query('SELECT sess FROM session WHERE sid = $1', [sid]); }",
        "}",
      ]),
    ).toEqual([]);
    expect(
      await flagged("store.js", [
        ...wrapper,
        '  get(sid) { return this.query("SELECT sess FROM session WHERE sid = \'" + sid + "\'"); }',
        "}",
      ]),
    ).toEqual([5]);
  });
});

describe("injection flows: PostgreSQL NOTIFY", () => {
  it("TS: a payload spliced into NOTIFY is flagged; pg_notify with bound values is not", async () => {
    expect(
      await flagged("lib/adapter.ts", [
        "export class Adapter {",
        "  async publish(document: unknown) {",
        "    const payload = JSON.stringify(document);",
        "    await this.pool.query(`NOTIFY \"${this.channel}\", '${payload}'`);",
        "    await this.pool.query(`SELECT pg_notify($1, $2)`, [this.channel, payload]);",
        "  }",
        "}",
      ]),
    ).toEqual([4]);
  });
});

describe("injection flows: a query given as one object ({ text, values }, { sql }, { query })", () => {
  it("JS: node-postgres's query({ text: `...`, values }) with a value spliced on another line is flagged", async () => {
    expect(
      await flagged("src/database/postgres/sorted.js", [
        "module.getSortedSetScan = async function (params) {",
        "  const res = await module.pool.query({",
        "    text: `",
        "SELECT z.value FROM legacy_zset z",
        " WHERE z._key = $1",
        "   AND z.value LIKE '${params.match}'`,",
        "    values: [params.key],",
        "  });",
        "  return res.rows;",
        "};",
        "module.scanKeys = async function (params) {",
        "  const text = `SELECT o._key FROM legacy_object_live o",
        "   WHERE o._key LIKE '${params.match}'`;",
        "  return (await module.pool.query({ text, values: [] })).rows;",
        "};",
      ]),
    ).toEqual([2, 14]);
  });

  it("TS: mysql's query({ sql }) and libSQL's execute({ sql, args }) with built text are flagged", async () => {
    expect(
      await flagged("src/store.ts", [
        "export async function byName(conn: Connection, name: string) {",
        "  return conn.query({ timeout: 1000, sql: 'SELECT * FROM users WHERE name = ' +",
        "    name }, []);",
        "}",
        "export async function near(db: Client, table: string, k: string) {",
        "  return db.execute({",
        "    sql: `SELECT id FROM items",
        "      WHERE k = '${k}'`,",
        "    args: [],",
        "  });",
        "}",
      ]),
    ).toEqual([2, 6]);
  });

  it("twin: knex's client.parameter(value, builder, holder) binds the value and splices only its placeholder", async () => {
    const compiler = (value: string) => [
      "class TableCompiler_MySQL {",
      "  getFKRefs(runner) {",
      "    const bindingsHolder = { bindings: [] };",
      "    const sql = 'SELECT KCU.CONSTRAINT_NAME FROM INFORMATION_SCHEMA.KEY_COLUMN_USAGE AS KCU ' +",
      `      'WHERE KCU.REFERENCED_TABLE_NAME = ' + ${value};`,
      "    return runner.query({ sql, bindings: bindingsHolder.bindings });",
      "  }",
      "}",
    ];
    expect(
      await flagged(
        "lib/dialects/mysql/schema/mysql-tablecompiler.js",
        compiler("this.client.parameter(this.tableNameRaw, this.tableBuilder, bindingsHolder)"),
      ),
    ).toEqual([]);
    expect(await flagged("lib/dialects/mysql/schema/mysql-tablecompiler.js", compiler("this.tableNameRaw"))).toEqual([
      6,
    ]);
  });

  it("twins: the same objects with bound values, constant text, or no text key are not", async () => {
    expect(
      await flagged("src/database/postgres/main.js", [
        "module.scan = async function (params) {",
        "  const res = await module.pool.query({",
        "    text: `SELECT o._key FROM legacy_object_live o",
        "     WHERE o._key LIKE $1`,",
        "    values: [params.match],",
        "  });",
        "  await module.pool.query({ name: 'fetch-user', text: 'SELECT * FROM u WHERE id = $1', values: [params.id] });",
        "  await module.pool.query({ rowMode: 'array', values: [params.id] }, 'SELECT 1');",
        "  const text = `SELECT o._key FROM legacy_object_live o",
        "   WHERE o._key LIKE $1`;",
        "  await module.pool.query({ text, values: [params.match] });",
        "  return res.rows;",
        "};",
      ]),
    ).toEqual([]);
  });
});
