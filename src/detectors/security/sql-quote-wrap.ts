import type { SgNode } from "@ast-grep/napi";
import type { PatchSyntax } from "../code/syntax-tree.js";
import { escapeRegExp } from "../../domain/reg-exp.js";
import { enclosingFunction, functionName } from "./enclosing-function.js";

/**
 * A value as JavaScript writes it: a name, its members (optional ones too) and calls without nested
 * parentheses (`val`, `JSON.stringify(val)`, `val.join("','")`, `value?.toString()`).
 */
const VALUE = String.raw`[A-Za-z_$][\w$]*(?:\s*\??\.\s*[A-Za-z_$][\w$]*|\s*\([^()]*\))*`;

/** `"'" + value + "'"`, or a template that is only `'${value}'`: a value put between SQL's string quotes. */
const QUOTE_WRAP_SOURCE = String.raw`(["'])'\1\s*\+\s*(${VALUE})\s*\+\s*(["'])'\3|\x60'\$\{\s*(${VALUE})\s*\}'\x60`;

/** The shape anywhere in a file's text: a file without it has nothing for `quotedUnescaped` to find (its pre-check). */
export const QUOTE_WRAP = new RegExp(QUOTE_WRAP_SOURCE);
const WHOLE_QUOTE_WRAP = new RegExp(`^(?:${QUOTE_WRAP_SOURCE})$`);

/**
 * A function named for escaping: its quotes go around what it escaped (knex's `escapeString`), when
 * its body escapes something (`ESCAPING`). One named only for quoting (`quote(v)`) promises no
 * escaping, and its bare wrap is the bug; so is one named for it that escapes nothing (OneUptime's
 * `sanitizeValue` wrapped text as `'${value}'` and nothing more).
 */
const ESCAPER = /escape|saniti[sz]e/i;

/**
 * What escapes a value (`escape(v)`, `v.replace(/'/g, "''")`): read in the value and in what its name
 * was given. A `replace` only when what it replaces holds a single quote (a pattern, `"'"`): one
 * that strips backslashes or spaces (`.replace(/\\/g, '')`) leaves the quotes in. Bytes written
 * as hex or base64 (`buffer.toString("hex")`) hold no quote.
 */
const ESCAPING =
  /escape|quote|saniti[sz]e|replace(?:All)?\s*\(\s*(?:\/(?:[^/\\\n]|\\.)*'|["\x60]'|'\\')|\.toString\(\s*["'\x60](?:hex|base64)["'\x60]\s*\)/i;

/** A value already made fit to quote: escaped, a date written as ISO text, or made a number. */
const MADE_SAFE = new RegExp(`${ESCAPING.source}|toISOString|(?<![\\w$])(?:Number|parseInt|parseFloat)\\s*\\(`, "i");

/** The last name of a call that makes its value fit for SQL: one `MADE_SAFE` reads. */
const SAFE_CALLEE =
  /(?:^|[.\s])(?!un)(?:\w*(?:escape|quote|saniti[sz]e)\w*|replace(?:All)?|toISOString|Number|parseInt|parseFloat)$/i;

/**
 * True when the node is a call that makes its value fit for SQL, the call itself and not one inside
 * its arguments: `this.sequelize.escape(v)`, `client.escapeLiteral(v)`, `v.replace(/'/g, "''")`,
 * `Number(v)` (JavaScript, TypeScript).
 *
 * @example madeSafe(exprOf("db.escape(name)")) // true; madeSafe(exprOf("f(db.escape(name))")) // false
 */
export function madeSafe(node: SgNode): boolean {
  if (String(node.kind()) !== "call_expression") return false;
  const callee = node.field("function")?.text() ?? "";
  return SAFE_CALLEE.test(callee) && MADE_SAFE.test(node.text());
}

/** The name a value starts with (`val` of `val.join(",")`). */
const LEADING_NAME = /^[A-Za-z_$][\w$]*/;

/**
 * Words of SQL's schema statements (`not null`, `primary key`, `alter table`...): a column
 * compiler's strings hold these and none of the query words `mayHoldSqlText` asks for.
 */
export const DDL_WORDS = /\bnot\s+null\b|\bprimary\s+key\b|\b(?:create|alter|drop)\s+(?:table|index|view|schema)\b/i;

const WRAP_KINDS = [{ kind: "binary_expression" }, { kind: "template_string" }];

/** Where a quoted value is kept as a value of its own: returned, assigned, declared (a formatter's result). */
const KEPT_IN = new Set(["return_statement", "assignment_expression", "variable_declarator"]);

/**
 * The added rows where a JavaScript or TypeScript value is put between SQL's single quotes with
 * nothing escaping it: `"'" + val + "'"`, `` `'${value}'` `` (LoopBack's `toDatabase`, knex's
 * `defaultTo`). A quote in the value ends the SQL string and what follows it is SQL. Not a value
 * escaped, quoted, replaced or made a number on the way (`"'" + val.replace(/'/g, "''") + "'"`),
 * or given such a value earlier in its function (`val = val.replace(...)`), nor inside a function
 * named for escaping, whose quotes go around what it escaped.
 * Only a quoted value kept as a value (returned, assigned or declared): one written into a longer
 * text or handed to a callback's caller (`.map((s) => \`'${s}'\`)` for a log line) is the data
 * flow's to judge. The caller asks only of a file whose strings hold SQL words, or whose text holds
 * a schema statement's (`DDL_WORDS`).
 *
 * @example quotedUnescaped(syntaxOf("return \"'\" + val + \"'\";")) // [0]
 */
export function quotedUnescaped(syntax: PatchSyntax): number[] {
  const rows: number[] = [];
  for (const node of syntax.root.findAll({ rule: { any: WRAP_KINDS } })) {
    const m = WHOLE_QUOTE_WRAP.exec(node.text());
    const value = m?.[2] ?? m?.[4];
    if (value === undefined || MADE_SAFE.test(value) || !KEPT_IN.has(String(node.parent()?.kind()))) continue;
    const row = node.range().start.line;
    const name = LEADING_NAME.exec(value)?.[0] ?? "";
    if (!syntax.isAdded(row) || insideEscaper(node) || escapedBefore(node, name) || knownNotText(node, name)) continue;
    rows.push(row);
  }
  return rows;
}

/**
 * A test of whether a name holds text (`typeof col === "string"`), with the comparison `operator`
 * as a pattern (`===?`, or `[!=]==?` for either way).
 */
export function textTypeTest(name: string, operator: string): RegExp {
  return new RegExp(`typeof\\s+${escapeRegExp(name)}\\s*${operator}\\s*["'\x60]string["'\x60]`);
}

/**
 * Whether the node lies in the `else` of a test that the value's name is a string (`if (typeof col
 * === "string") {...} else { return \`'${col}'\` }`): there it is a number, a boolean or the like,
 * which holds no quote.
 */
function knownNotText(node: SgNode, name: string): boolean {
  const test = textTypeTest(name, "===?");
  for (let n = node.parent(); n; n = n.parent()) {
    if (n.kind() !== "else_clause") continue;
    const condition = n.parent()?.field("condition");
    if (condition && test.test(condition.text())) return true;
  }
  return false;
}

/**
 * Whether the value's name was given an escaped value earlier in its function (`val =
 * val.replace(/'/g, "''")`, `const v = escape(s)`): an assignment or declaration of that name before
 * the node whose value, over however many lines, holds an escape.
 */
function escapedBefore(node: SgNode, name: string): boolean {
  const scope = enclosingFunction(node);
  const at = node.range().start.index;
  for (const given of scope?.findAll({ rule: { any: ASSIGNED_KINDS } }) ?? []) {
    if (given.range().start.index >= at) break;
    const target = given.field("left") ?? given.field("name");
    const value = given.field("right") ?? given.field("value");
    if (target?.text() === name && value && ESCAPING.test(value.text())) return true;
  }
  return false;
}

const ASSIGNED_KINDS = [{ kind: "assignment_expression" }, { kind: "variable_declarator" }];

/**
 * Whether a function around the node is named for escaping and its body calls something that
 * escapes (`madeSafe`, read from the tree: a comment that says "quoted" is no escape). A number
 * made on another path (`parseInt(v)`) escapes no text.
 */
function insideEscaper(node: SgNode): boolean {
  const escapes = (call: SgNode) => madeSafe(call) && ESCAPING.test(call.text());
  for (let fn = enclosingFunction(node); fn; fn = enclosingFunction(fn)) {
    if (!ESCAPER.test(functionName(fn) ?? "")) continue;
    if (
      fn
        .field("body")
        ?.findAll({ rule: { kind: "call_expression" } })
        .some(escapes)
    )
      return true;
  }
  return false;
}
