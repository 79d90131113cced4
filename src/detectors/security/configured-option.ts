import type { SgNode } from "@ast-grep/napi";
import type { PatchSyntax } from "../code/syntax-tree.js";
import { kindOf, type StringBuilderReader } from "./built-string.js";

/** Where SQL names a table or another object, not a value: `FROM `, `INTO `, `UPDATE `, `JOIN `, `TABLE `. */
const NAME_BEFORE = /\b(?:from|into|update|join|table)\s+["`]?$/i;
/** Literal text of a template string. */
const TEXT_PARTS = new Set(["string_fragment", "escape_sequence"]);
/** The kinds of a constant default, by what it is. */
const DEFAULT_KINDS: Readonly<Record<string, "text" | "scalar">> = {
  string: "text",
  number: "scalar",
  true: "scalar",
  false: "scalar",
};

/**
 * True when a JavaScript or TypeScript template literal given as SQL splices only constants and
 * options the object was configured with: a field every assignment of which in the file is an
 * option of the same name with a constant default (`this.tableName = opts.tableName || "t"`),
 * spliced where SQL names a table (`FROM ${this.tableName}`) and declared `readonly`, or declared
 * `number` or `boolean` with a constant default of that kind (`interval '${this.cleanupInterval}
 * milliseconds'`). Such text is the integrating code's configuration, not data a caller sends:
 * a value from a request, a parameter or a field set elsewhere still makes the text spliced.
 *
 * @example splicesOnlyOptions(argOf("pool.query(`DELETE FROM ${this.tableName}`)"), syntax, strings) // true when `readonly tableName` is set from `opts.tableName || "t"`
 */
export function splicesOnlyOptions(node: SgNode, syntax: PatchSyntax, strings: StringBuilderReader): boolean {
  if (kindOf(node) !== "template_string") return false;
  let before = "";
  let options = 0;
  for (const part of node.children()) {
    const kind = kindOf(part);
    if (TEXT_PARTS.has(kind)) before += part.text();
    if (kind !== "template_substitution") continue;
    const inner = part.namedChildren()[0];
    if (!inner) continue;
    before += "0";
    if (strings.isConstant(inner)) continue;
    const field = ownField(inner);
    const option = field ? optionOf(field, syntax) : undefined;
    if (!field || !option) return false;
    const declared = syntax.root.text();
    const name = field.replace(/\$/g, "\\$");
    const accepted =
      option === "text"
        ? NAME_BEFORE.test(before.slice(0, -1)) && new RegExp(`\\breadonly\\s+${name}\\s*[?!]?\\s*[:=;]`).test(declared)
        : new RegExp(`(?<![\\w$])${name}\\s*[?!]?\\s*:\\s*(?:number|boolean)\\s*[;=,\\n]`).test(declared);
    if (!accepted) return false;
    options++;
  }
  return options > 0;
}

/** The field name of `this.name`, else undefined. */
function ownField(node: SgNode): string | undefined {
  if (kindOf(node) !== "member_expression") return undefined;
  const object = node.field("object");
  const property = node.field("property");
  return object && kindOf(object) === "this" && property ? property.text() : undefined;
}

/**
 * What a field holds when every assignment of it in the file (`this.name = ...`) is an option of
 * the same name with a constant default (`opts.name || "t"`, `options.name ?? 30000`): `text` for
 * a string default, `scalar` for a number or a boolean. Undefined otherwise, or when it is never so assigned.
 */
function optionOf(field: string, syntax: PatchSyntax): "text" | "scalar" | undefined {
  let found: "text" | "scalar" | undefined;
  for (const a of syntax.root.findAll({
    rule: { any: [{ kind: "assignment_expression" }, { kind: "augmented_assignment_expression" }] },
  })) {
    const left = a.field("left");
    if (!left || ownField(left) !== field) continue;
    const right = a.field("right");
    if (kindOf(a) !== "assignment_expression" || !right || kindOf(right) !== "binary_expression") return undefined;
    const op = right.field("operator")?.text();
    const option = right.field("left");
    const fallback = right.field("right");
    if ((op !== "||" && op !== "??") || !option || !fallback) return undefined;
    const name = kindOf(option) === "member_expression" ? option.field("property")?.text() : undefined;
    const base = option.field("object");
    if (name !== field || !base || kindOf(base) !== "identifier") return undefined;
    const kind = DEFAULT_KINDS[kindOf(fallback)];
    if (!kind || (found !== undefined && found !== kind)) return undefined;
    found = kind;
  }
  return found;
}
