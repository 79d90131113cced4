import type { SyntaxLanguage } from "../code/grammars.js";
import { moduleLocals, type ModuleLocals } from "../code/module-locals.js";

/**
 * The local names a file gives a sink module's functions and the module itself
 * (`moduleLocals`): a sink is the module's function whatever the file calls it.
 */
export type ImportAliases = ModuleLocals;

/** The modules whose functions are sinks, per language, and the receiver name the sink tables know them by. */
const MODULES: Partial<Record<SyntaxLanguage, { module: RegExp; canonical: string }>> = {
  javascript: { module: /^(node:)?child_process$/, canonical: "child_process" },
  typescript: { module: /^(node:)?child_process$/, canonical: "child_process" },
  tsx: { module: /^(node:)?child_process$/, canonical: "child_process" },
};

/**
 * What the file's imports call the language's sink modules; undefined when it imports none.
 *
 * @example importAliases("const { exec: run } = require('child_process')", "javascript")?.functions.get("run") // "exec"
 */
export function importAliases(text: string, lang: SyntaxLanguage): ImportAliases | undefined {
  const table = MODULES[lang];
  if (!table || !/child_process/.test(text)) return undefined;
  return moduleLocals(text, (name) => table.module.test(name));
}

/**
 * Database drivers, ORMs and query builders: a function one of them exports runs SQL text when it
 * is a SQL sink's name (`raw` of `@mikro-orm/core`, `query` of `mysql2/promise`), called bare as
 * when called on the package (`knex.raw(text)`).
 */
const SQL_PACKAGE_NAMES = String.raw`@mikro-orm\/[\w.-]+|knex|kysely|typeorm|sequelize|@sequelize\/[\w.-]+|drizzle-orm(?:\/[\w.-]+)?|pg|pg-promise|postgres|slonik|@neondatabase\/serverless|@vercel\/postgres|mysql|mysql2(?:\/promise)?|mariadb|sqlite|sqlite3|better-sqlite3|@libsql\/client|sql\.js|mssql|tedious|oracledb|@prisma\/client|@databases\/[\w.-]+|@planetscale\/database|duckdb`;
const SQL_PACKAGES = new RegExp(`^(?:${SQL_PACKAGE_NAMES})$`);
/** Text every file importing one of them holds, a quote and the name (a cheap pre-check before its imports are read). */
const SQL_PACKAGE_TEXT = new RegExp(`["'\`](?:${SQL_PACKAGE_NAMES})`);
/** The receiver name a bare call of a SQL package's function is read with (`raw(x)` as `sql_package.raw(x)`). */
export const SQL_PACKAGE = "sql_package";

/**
 * The local names a JavaScript or TypeScript file gives the functions it imports from a SQL
 * package (`SQL_PACKAGES`), each to the function's own name; undefined when it imports none.
 *
 * @example sqlPackageFunctions("import { raw as r } from '@mikro-orm/core'", "typescript")?.get("r") // "raw"
 */
export function sqlPackageFunctions(text: string, lang: SyntaxLanguage): ReadonlyMap<string, string> | undefined {
  if (!MODULES[lang] || !SQL_PACKAGE_TEXT.test(text)) return undefined;
  const locals = moduleLocals(text, (name) => SQL_PACKAGES.test(name));
  return locals && locals.functions.size > 0 ? locals.functions : undefined;
}

/**
 * The receiver name the sink tables know a module by (`child_process`), for a local alias of it.
 *
 * @example canonicalModule("javascript") // "child_process"
 */
export function canonicalModule(lang: SyntaxLanguage): string | undefined {
  return MODULES[lang]?.canonical;
}
