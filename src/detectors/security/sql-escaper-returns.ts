import type { SgNode } from "@ast-grep/napi";
import type { PatchSyntax } from "../code/syntax-tree.js";
import { FlowReader } from "../dataflow/flow-reader.js";
import { carried } from "../dataflow/flow-value.js";
import { enclosingFunction } from "./enclosing-function.js";
import { textTypeTest } from "./sql-quote-wrap.js";

/** The last name of a call that escapes or quotes its value for SQL (`escape`, `this.client.escape`, `quoteLiteral`); never `unescape`. */
const ESCAPING_CALLEE = /(?:^|\.)(?!un)[\w$]*(?:escape|quote)[\w$]*$/i;

/**
 * A `return` of a bare name (ended by `;`, `}`, a comment or the line's end), and an escaping call:
 * a file without both has nothing for `bareEscaperReturns` (its pre-check).
 */
export const BARE_RETURN = /\breturn\s+[A-Za-z_$][\w$]*\s*(?:[;}]|\/[/*]|$)/m;
export const ESCAPING_CALL = /(?<!un)(?:escape|quote)\w*\s*\(/i;

const FUNCTION_KINDS = ["function_declaration", "function_expression", "method_definition", "arrow_function"].map(
  (kind) => ({ kind }),
);

/**
 * The added rows where a JavaScript or TypeScript function that escapes a parameter on some paths
 * returns it as given on another: LoopBack's `toDatabase(prop, val)` returned
 * `this.client.escape(val.toString())` for text and `val` for a property typed `Number`, and its
 * callers spliced the result into SQL, so `"1 OR 1=1"` given for a number arrived as SQL. The
 * function's other returns say its result goes into SQL text; this one leaves the value as the
 * caller sent it.
 *
 * Not a return the data flow proves plain: under a test that the value is a number, a constant or
 * empty (`typeof val === "number"`, `Number.isInteger(val)`, `val === null`, `!val`), or reassigned
 * from a constant or a sanitizer. Nor one under a test for raw SQL (`if (raw)`), nor in a function
 * that escapes by the value's own type (`if (typeof val === "string") return escape(val)`). The
 * caller asks only of a file whose strings hold SQL words.
 *
 * @example bareEscaperReturns(syntaxOf("function f(v, t) { if (t) return v; return db.escape(v); }")) // [0]
 */
export function bareEscaperReturns(syntax: PatchSyntax): number[] {
  const flow = FlowReader.of(syntax);
  if (!flow) return [];
  const rows: number[] = [];
  for (const fn of syntax.root.findAll({ rule: { any: FUNCTION_KINDS } })) {
    const params = parameterNames(fn);
    if (params.size === 0) continue;
    const returned = fn
      .findAll({ rule: { kind: "return_statement" } })
      .filter((r) => enclosingFunction(r)?.id() === fn.id())
      .map((r) => r.namedChildren()[0])
      .filter((e): e is SgNode => e !== undefined);
    const escaped = new Set(returned.flatMap((e) => escapedParameters(e, params)));
    if (escaped.size === 0) continue;
    for (const e of returned) {
      if (e.kind() !== "identifier" || !escaped.has(e.text()) || underRawTest(e, fn)) continue;
      if (typedByValue(fn, e.text())) continue;
      const row = e.range().start.line;
      if (!syntax.isAdded(row)) continue;
      const value = flow.valueAt(e);
      if (value && carried(value).outside) rows.push(row);
    }
  }
  return rows;
}

/**
 * Whether a return lies where a test asks for raw SQL (`if (this.isRaw(value)) return value`,
 * `if (raw) return val`): a value the caller marked as SQL on purpose, returned as such.
 */
function underRawTest(e: SgNode, fn: SgNode): boolean {
  for (let n = e.parent(); n && n.id() !== fn.id(); n = n.parent()) {
    if (n.kind() === "if_statement" && /raw/i.test(n.field("condition")?.text() ?? "")) return true;
  }
  return false;
}

/**
 * Whether the function tests whether the value is text (`typeof val === "string"`): it escapes by
 * the value's own type, and what it returns bare is a number, a boolean or the like (the quote
 * wrap's `knownNotText` reads the same test).
 */
function typedByValue(fn: SgNode, name: string): boolean {
  return textTypeTest(name, "[!=]==?").test(fn.text());
}

/** The names a function's parameters bind (`val`, `raw = false`, TypeScript's `val: unknown`). */
function parameterNames(fn: SgNode): Set<string> {
  const single = fn.field("parameter");
  const params = single ? [single] : (fn.field("parameters")?.namedChildren() ?? []);
  const names = new Set<string>();
  for (const p of params) {
    const name = p.kind() === "identifier" ? p : (p.field("pattern") ?? p.field("left"));
    if (name?.kind() === "identifier") names.add(name.text());
  }
  return names;
}

/**
 * The parameters a returned expression escapes as a value (`escape(val.toString())`, `raw ? val :
 * escape(val)`). Not a name's quoting (`quoteIdentifier(identifier)`, `escapeColumnKey(value)`,
 * `driver.escape(name)`): an identifier, which a query builder may leave unquoted by an option,
 * and which rarely comes from a request.
 */
function escapedParameters(e: SgNode, params: ReadonlySet<string>): string[] {
  if (e.kind() === "ternary_expression" || e.kind() === "parenthesized_expression")
    return e.namedChildren().flatMap((c) => escapedParameters(c, params));
  const callee = e.field("function")?.text() ?? "";
  if (e.kind() !== "call_expression" || !ESCAPING_CALLEE.test(callee) || IDENTIFIER_QUOTING.test(callee)) return [];
  const names = e.field("arguments")?.findAll({ rule: { kind: "identifier" } }) ?? [];
  return names.map((n) => n.text()).filter((n) => params.has(n) && !IDENTIFIER_NAME.test(n));
}

/** The last name of a call that quotes an identifier (`escapeId`, `quoteIdentifier`, `escapeColumnKey`, `quoteName`). */
const IDENTIFIER_QUOTING = /(?:Id|Ident|Identifier|Name|Column|Col|Key|Table)$/;
/** A parameter named for an identifier (`name`, `columnName`, `identifier`, `table`, `alias`). */
const IDENTIFIER_NAME =
  /(?:^(?:name|identifier|ident|column|col|table|alias|key|field)|[a-z_](?:Name|Identifier|Ident|Column|Col|Table|Alias|Key|Field))s?$/;
