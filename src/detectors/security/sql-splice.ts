import type { SgNode } from "@ast-grep/napi";
import { kindOf, type StringBuilderReader } from "./built-string.js";
import { madeSafe } from "./sql-quote-wrap.js";

/** Where a non-constant part of the text stands, in the flattened text. */
const HOLE = "\u0001";
/** A constant part (an ALL_CAPS name, a number): not a splice. */
const CONSTANT_PART = "0";
/**
 * What comes right before a value in SQL: a comparison, `LIKE`, `IN (`, `BETWEEN`. Not
 * PostgreSQL's JSON operators `->` and `->>`, which a key or path follows.
 */
const BEFORE_VALUE = /(?:[=<]|(?<!-|->)>|\b(?:i?like|in|between)\b)\s*\(?\s*$/i;
/** Named children of a template string that are its literal text. */
const TEXT_PARTS = new Set(["string_fragment", "escape_sequence"]);
/** How many locals deep an argument's assigned values are read. */
const MAX_DEPTH = 2;

/**
 * True when SQL text given to a query builder's condition (`qb.orWhere(...)`) splices a
 * non-constant value where SQL expects a value: inside a quoted string (`'%${q}%'`,
 * `"name = '" + name + "'"`) or right after a comparison (`= ${id}`, `> " + n`). A column or alias
 * spliced in as a name (`` `${alias}.name ILIKE :q` ``) is not. The argument is read as written, in
 * each branch of a `?:`, or through the values a local was given above it.
 *
 * @example splicesValue(argOf("qb.where(`a.x = '${q}'`)"), reader) // true
 */
export function splicesValue(node: SgNode, strings: StringBuilderReader, depth = 0): boolean {
  const kind = kindOf(node);
  if (kind === "identifier" && depth < MAX_DEPTH) {
    const row = node.range().start.line;
    return strings.assignmentsTo(node.text(), row).some((v) => splicesValue(v, strings, depth + 1));
  }
  // Either branch of a choice may be the text (`raw(exact ? `name = '${q}'` : "true")`).
  if (kind === "ternary_expression" || kind === "parenthesized_expression") {
    const parts =
      kind === "ternary_expression" ? [node.field("consequence"), node.field("alternative")] : node.namedChildren();
    return parts.some((n) => n !== null && splicesValue(n, strings, depth));
  }
  const text = flatten(node, strings);
  for (let i = text.indexOf(HOLE); i >= 0; i = text.indexOf(HOLE, i + 1)) {
    const before = text.slice(0, i);
    const quotes = (before.match(/'/g) ?? []).length;
    if (quotes % 2 === 1 || BEFORE_VALUE.test(before)) return true;
  }
  return false;
}

/**
 * The names whose text a fragment is made of, by the parts `flatten` reads: the fragment itself, a
 * `+` side, a template's substitution, and a `?:` branch.
 *
 * @example textNames(argOf("raw(t ? `cast(${key} as int)` : key)")).map((n) => n.text()) // ["key", "key"]
 */
export function textNames(node: SgNode): SgNode[] {
  const kind = kindOf(node);
  if (kind === "identifier") return [node];
  if (kind === "ternary_expression")
    return [node.field("consequence"), node.field("alternative")].flatMap((n) => (n ? textNames(n) : []));
  if (kind === "binary_expression" && node.field("operator")?.text() === "+")
    return [node.field("left"), node.field("right")].flatMap((n) => (n ? textNames(n) : []));
  if (kind === "parenthesized_expression") return node.namedChildren().flatMap(textNames);
  if (kind === "template_string")
    return node
      .children()
      .filter((c) => kindOf(c) === "template_substitution")
      .flatMap((c) => c.namedChildren().flatMap(textNames));
  return [];
}

/** The text as SQL reads it: literal parts as written, each non-constant part a hole (an escaped value is none). */
function flatten(node: SgNode, strings: StringBuilderReader): string {
  const kind = kindOf(node);
  if (kind === "parenthesized_expression")
    return node
      .namedChildren()
      .map((c) => flatten(c, strings))
      .join("");
  if (kind === "binary_expression" && node.field("operator")?.text() === "+") {
    const left = node.field("left");
    const right = node.field("right");
    return (left ? flatten(left, strings) : "") + (right ? flatten(right, strings) : "");
  }
  if (kind === "string") return node.text().slice(1, -1);
  if (kind === "template_string") {
    return node
      .children()
      .map((c) => {
        if (TEXT_PARTS.has(kindOf(c))) return c.text();
        if (kindOf(c) !== "template_substitution") return "";
        const inner = c.namedChildren()[0];
        return !inner || strings.isConstant(inner) || madeSafe(inner) ? CONSTANT_PART : HOLE;
      })
      .join("");
  }
  return strings.isConstant(node) || madeSafe(node) ? CONSTANT_PART : HOLE;
}
