import path from "node:path";

/** A name a JavaScript or TypeScript file imports from one of the project's own files, by a relative path. */
export interface ProjectImport {
  /** The name the importing file calls it by. */
  local: string;
  /**
   * The name the module exports it by; `*` for the whole module (`import * as q`, `q = require(...)`),
   * `DEFAULT_EXPORT` for its default export (`import build from "./x"`).
   */
  name: string;
  /** The relative path as written (`./queries`). */
  specifier: string;
}

/** The name a default import takes from its module: the function `export default` or `module.exports =` gives. */
export const DEFAULT_EXPORT = "default";

const NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * The name a call of an imported local asks its module for: a namespace's member (`q.build(x)`
 * after `import * as q`) by its own name, a whole module called (`build(x)` after `const build =
 * require("./build")`) or a default import by `DEFAULT_EXPORT`, a named import by the name it is
 * exported by. Undefined for a member of a named or default import (`db.query` after `import db`).
 *
 * @example calledExport({ local: "q", name: "*", specifier: "./q" }, "build") // "build"
 */
export function calledExport(imported: Pick<ProjectImport, "name">, member: string | undefined): string | undefined {
  if (member !== undefined) return imported.name === "*" ? member : undefined;
  return imported.name === "*" ? DEFAULT_EXPORT : imported.name;
}

const RELATIVE = `["'\`](\\.{1,2}/[\\w@./-]+)["'\`]`;

/**
 * The names a file imports from its project's own files by a relative path: `import { a as b }
 * from "./x"`, `import build from "./x"` (its default export), `import * as q from "./x"`,
 * `const { a } = require("./x")`, `const q = require("./x")`.
 *
 * @example projectImports('import { createQueryForTile } from "./queries";')[0] // { local: "createQueryForTile", name: "createQueryForTile", specifier: "./queries" }
 */
export function projectImports(text: string): ProjectImport[] {
  const out: ProjectImport[] = [];
  // Every form names a relative path in quotes: a text without one imports none (a pre-check of the scans below).
  if (!/["'`]\.{1,2}\//.test(text)) return out;
  const requires = text.includes("require(");
  const members = (list: string, separator: RegExp, specifier: string) => {
    for (const part of list.split(",")) {
      const [own, local] = part
        .replace(/^\s*type\s+/, "")
        .trim()
        .split(separator)
        .map((s) => s.trim());
      if (own && NAME.test(own)) out.push({ local: local && NAME.test(local) ? local : own, name: own, specifier });
    }
  };
  for (const m of text.matchAll(
    new RegExp(`import\\s*(?:type\\s*)?(?:[A-Za-z_$][\\w$]*\\s*,\\s*)?\\{([^{}]*)\\}\\s*from\\s*${RELATIVE}`, "g"),
  ))
    members(m[1] ?? "", /\s+as\s+/, m[2] ?? "");
  // `import build from "./x"` and `import build, { a } from "./x"`; `import type X from` is a type.
  for (const m of text.matchAll(
    new RegExp(
      `import\\s+([A-Za-z_$][\\w$]*)\\s*(?:,\\s*(?:\\{[^{}]*\\}|\\*\\s*as\\s+[A-Za-z_$][\\w$]*)\\s*)?from\\s*${RELATIVE}`,
      "g",
    ),
  ))
    if (m[1] && m[2] && m[1] !== "type") out.push({ local: m[1], name: DEFAULT_EXPORT, specifier: m[2] });
  if (requires)
    for (const m of text.matchAll(new RegExp(`\\{([^{}]*)\\}\\s*=\\s*require\\(\\s*${RELATIVE}\\s*\\)`, "g")))
      members(m[1] ?? "", /\s*:\s*/, m[2] ?? "");
  for (const m of text.matchAll(
    new RegExp(`import\\s+(?:[A-Za-z_$][\\w$]*\\s*,\\s*)?\\*\\s+as\\s+([A-Za-z_$][\\w$]*)\\s+from\\s*${RELATIVE}`, "g"),
  ))
    if (m[1] && m[2]) out.push({ local: m[1], name: "*", specifier: m[2] });
  // `q = require("./x")`: found from each `require(`, the name looked for just before it.
  for (let at = requires ? text.indexOf("require(") : -1; at >= 0; at = text.indexOf("require(", at + 8)) {
    const spec = new RegExp(`^require\\(\\s*${RELATIVE}\\s*\\)(?!\\s*\\.)`).exec(text.slice(at, at + 300));
    const name = /([A-Za-z_$][\w$]*)\s*=\s*$/.exec(text.slice(Math.max(0, at - 80), at));
    if (spec?.[1] && name?.[1]) out.push({ local: name[1], name: "*", specifier: spec[1] });
  }
  return out;
}

const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/**
 * The repository paths a relative import from `fromFile` may name, in the order Node and
 * TypeScript try them (`./x` → `x.ts`, `x.js`..., `x/index.ts`...; a `./x.js` written for a
 * TypeScript file also `x.ts`). Empty when the path leaves the repository.
 *
 * @example candidatePaths("lib/tiler.ts", "./queries")[0] // "lib/queries.ts"
 */
export function candidatePaths(fromFile: string, specifier: string): string[] {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  if (joined === ".." || joined.startsWith("../") || joined.startsWith("/") || joined === ".") return [];
  const ext = path.posix.extname(joined);
  if (SOURCE_EXTENSIONS.includes(ext)) {
    const stem = joined.slice(0, -ext.length);
    return [joined, ...[".ts", ".tsx"].filter((e) => e !== ext).map((e) => stem + e)];
  }
  return [...SOURCE_EXTENSIONS.map((e) => joined + e), ...SOURCE_EXTENSIONS.map((e) => `${joined}/index${e}`)];
}
