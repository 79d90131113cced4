import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** Head lines of SEC-02 findings for one added file. */
async function flagged(filename: string, lines: string[]): Promise<number[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const findings = await injectionDetector.detect(detectContext(pr));
  return findings.map((f) => f.line ?? 0);
}

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
