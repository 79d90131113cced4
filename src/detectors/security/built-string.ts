import type { SgNode } from "@ast-grep/napi";
import { GRAMMARS, type SyntaxLanguage } from "../code/grammars.js";

/**
 * What an expression contributes to a string: its literal text, and whether a value that is not
 * a constant is spliced in (a template or f-string substitution, `+`, `%`, `.format`,
 * `fmt.Sprintf`). A bare variable is followed to its assignments in the same file.
 */
export interface BuiltString {
  /** The literal parts, joined with spaces: what the string says (e.g. its SQL keywords). */
  literal: string;
  /** True when a non-constant value is spliced into literal text. */
  dynamic: boolean;
  /** Rows (0-based) of the expression and of every assignment followed to reach it. */
  rows: number[];
}

const NONE: BuiltString = { literal: "", dynamic: false, rows: [] };
/** An ALL_CAPS name is a constant by convention: splicing it in is not injection. */
const CONSTANT = /^[A-Z_][A-Z0-9_]*$/;
/** Format verbs that only print numbers: a number cannot carry SQL or shell syntax. */
const TEXT_VERB = /%[-+# 0-9.*]*[sqvrx]|%\([^)]*\)[sr]/;
const MAX_DEPTH = 4;
/** How far above a use a variable's assignments are looked for (about one function). */
const MAX_ROWS_BACK = 80;

const STRING_KINDS = new Set([
  "string",
  "template_string",
  "interpreted_string_literal",
  "raw_string_literal",
  "concatenated_string",
]);
const LITERAL_KINDS = new Set([
  "number",
  "integer",
  "float",
  "int_literal",
  "float_literal",
  "true",
  "false",
  "null",
  "none",
  "nil",
  "undefined",
]);

/** Reads one language's syntax for string building, following variables within one tree. */
export class StringBuilderReader {
  constructor(
    private readonly root: SgNode,
    private readonly lang: SyntaxLanguage,
  ) {}

  /**
   * What `node` builds.
   *
   * @example reader.read(argNode) // { literal: "SELECT * FROM t WHERE id =", dynamic: true, rows: [4, 3] }
   */
  read(node: SgNode, depth = 0, seen: Set<string> = new Set()): BuiltString {
    const row = node.range().start.line;
    const kind = kindOf(node);
    if (depth > MAX_DEPTH) return { ...NONE, rows: [row] };
    if (kind === "parenthesized_expression" || kind === "expression_list") {
      const inner = node.children().filter((c) => c.isNamed());
      return inner.length === 1 && inner[0] ? this.read(inner[0], depth, seen) : { ...NONE, rows: [row] };
    }
    if (STRING_KINDS.has(kind)) return this.literalString(node);
    if (kind === "binary_expression" || kind === "binary_operator") return this.binary(node, depth, seen);
    if (kind === "identifier") return this.variable(node, depth, seen);
    if (kind === "call" || kind === "call_expression") return this.formatCall(node, depth, seen);
    return { ...NONE, rows: [row] };
  }

  /** A string literal: template literals and f-strings are dynamic when they substitute a non-constant. */
  private literalString(node: SgNode): BuiltString {
    const row = node.range().start.line;
    if (kindOf(node) === "concatenated_string") {
      const parts = node
        .children()
        .filter((c) => c.isNamed())
        .map((c) => this.literalString(c));
      return { literal: parts.map((p) => p.literal).join(""), dynamic: parts.some((p) => p.dynamic), rows: [row] };
    }
    const substitutions = node
      .children()
      .filter((c) => kindOf(c) === "template_substitution" || kindOf(c) === "interpolation");
    const literal = node
      .children()
      .filter(
        (c) =>
          kindOf(c) === "string_fragment" || kindOf(c) === "string_content" || kindOf(c).endsWith("_literal_content"),
      )
      .map((c) => c.text())
      .join(" ");
    const dynamic = substitutions.some((s) => {
      const inner = s.children().filter((c) => c.isNamed())[0];
      return !isConstant(inner) && !(inner && this.holdsOnlyLiterals(inner));
    });
    // A raw Go string or a plain string without content children still says something.
    const text =
      literal !== "" || substitutions.length > 0 ? literal : node.text().replace(/^[a-zA-Z]*["'`]+|["'`]+$/g, "");
    return { literal: text, dynamic, rows: [row] };
  }

  /** A variable whose every assignment above its use is a plain literal (`const table = "orders"`). */
  private holdsOnlyLiterals(node: SgNode): boolean {
    if (kindOf(node) !== "identifier") return false;
    const values = this.assignmentsTo(node.text(), node.range().start.line);
    return values.length > 0 && values.every((v) => isConstant(v));
  }

  /** `a + b` joins strings; Python's `"..." % x` formats one. */
  private binary(node: SgNode, depth: number, seen: Set<string>): BuiltString {
    const row = node.range().start.line;
    const op = node.field("operator")?.text();
    const left = node.field("left");
    const right = node.field("right");
    if (!left || !right) return { ...NONE, rows: [row] };
    if (op === "%" && this.lang === "python") {
      const format = this.read(left, depth + 1, seen);
      if (format.literal === "") return { ...NONE, rows: [row] };
      const spliced = !isConstant(right) && TEXT_VERB.test(format.literal);
      return { literal: format.literal, dynamic: format.dynamic || spliced, rows: [row, ...format.rows] };
    }
    if (op !== "+") return { ...NONE, rows: [row] };
    const l = this.read(left, depth + 1, seen);
    const r = this.read(right, depth + 1, seen);
    const literal = [l.literal, r.literal].filter((t) => t !== "").join(" ");
    // Text joined with something that is neither literal text nor a constant is built at run time.
    const opaque = (side: SgNode, read: BuiltString) => read.literal === "" && !read.dynamic && !isConstant(side);
    const dynamic = l.dynamic || r.dynamic || (literal !== "" && (opaque(left, l) || opaque(right, r)));
    return { literal, dynamic, rows: [row, ...l.rows, ...r.rows] };
  }

  /** `"...".format(x)`, `fmt.Sprintf("...", x)`, `util.format("...", x)`, `"...".concat(x)`. */
  private formatCall(node: SgNode, depth: number, seen: Set<string>): BuiltString {
    const row = node.range().start.line;
    const fn = node.field("function");
    const args = (node.field("arguments")?.children() ?? []).filter((c) => c.isNamed() && kindOf(c) !== "comment");
    if (!fn) return { ...NONE, rows: [row] };
    const callee = fn.text().replace(/\s+/g, "");
    const object = fn.field("object") ?? fn.field("operand");
    const method = (fn.field("attribute") ?? fn.field("property") ?? fn.field("field"))?.text();
    if ((method === "format" || method === "concat") && object && STRING_KINDS.has(kindOf(object))) {
      const format = this.literalString(object);
      const spliced = args.some((a) => !isConstant(a) && !STRING_KINDS.has(kindOf(a)));
      return { literal: format.literal, dynamic: format.dynamic || spliced, rows: [row] };
    }
    if (/^(fmt\.Sprintf|fmt\.Sprint|util\.format|format)$/.test(callee) && args[0]) {
      const format = this.read(args[0], depth + 1, seen);
      const values = args.slice(1);
      const spliced = values.some((a) => !isConstant(a)) && (TEXT_VERB.test(format.literal) || callee === "fmt.Sprint");
      return { literal: format.literal, dynamic: format.dynamic || spliced, rows: [row, ...format.rows] };
    }
    return { ...NONE, rows: [row] };
  }

  /** A variable: what its assignments above this use (in about the same function) build. */
  private variable(node: SgNode, depth: number, seen: Set<string>): BuiltString {
    const name = node.text();
    const row = node.range().start.line;
    if (CONSTANT.test(name) || seen.has(name)) return { ...NONE, rows: [row] };
    const next = new Set(seen).add(name);
    const parts = this.assignmentsTo(name, row).map((value) => this.read(value, depth + 1, next));
    if (parts.length === 0) return { ...NONE, rows: [row] };
    return {
      literal: parts
        .map((p) => p.literal)
        .filter((t) => t !== "")
        .join(" "),
      dynamic: parts.some((p) => p.dynamic),
      rows: [row, ...parts.flatMap((p) => p.rows)],
    };
  }

  /** The values assigned to `name` (`=`, `:=`, `+=`, `let/const/var`) on rows above `before`. */
  private assignmentsTo(name: string, before: number): SgNode[] {
    return (this.assignments().get(name) ?? [])
      .filter((a) => a.row < before && a.row >= before - MAX_ROWS_BACK)
      .map((a) => a.value);
  }

  private index: Map<string, Array<{ row: number; value: SgNode }>> | undefined;

  /** Every assignment of the tree by target name, read once (one native search per file). */
  private assignments(): Map<string, Array<{ row: number; value: SgNode }>> {
    if (this.index) return this.index;
    const index = new Map<string, Array<{ row: number; value: SgNode }>>();
    const kinds = GRAMMARS[this.lang].assignmentKinds;
    for (const a of this.root.findAll({ rule: { any: kinds.map((kind) => ({ kind })) } })) {
      const target = a.field("left") ?? a.field("name");
      const value = a.field("right") ?? a.field("value");
      if (!target || !value) continue;
      const names = LISTS.has(kindOf(target)) ? target.children().filter((c) => c.isNamed()) : [target];
      const values = LISTS.has(kindOf(value)) ? value.children().filter((c) => c.isNamed()) : [value];
      names.forEach((n, i) => {
        const v = values[i] ?? (values.length === 1 ? values[0] : undefined);
        if (!v) return;
        const list = index.get(n.text()) ?? [];
        list.push({ row: a.range().start.line, value: v });
        index.set(n.text(), list);
      });
    }
    this.index = index;
    return index;
  }
}

/** Several targets or values in one assignment: `a, b := x, y` (Go), `a, b = x, y` (Python). */
const LISTS = new Set(["expression_list", "pattern_list"]);

/** A literal number, boolean or null, a plain string without substitutions, or an ALL_CAPS name. */
function isConstant(node: SgNode | undefined): boolean {
  if (!node) return true;
  const kind = kindOf(node);
  if (LITERAL_KINDS.has(kind)) return true;
  if (kind === "identifier") return CONSTANT.test(node.text());
  if (kind === "member_expression" || kind === "attribute" || kind === "selector_expression") {
    const last = (node.field("property") ?? node.field("attribute") ?? node.field("field"))?.text() ?? "";
    return CONSTANT.test(last);
  }
  if (kind === "string" || kind === "interpreted_string_literal" || kind === "raw_string_literal") {
    return !node.children().some((c) => kindOf(c) === "interpolation" || kindOf(c) === "template_substitution");
  }
  return false;
}

/**
 * A node's grammar kind as a string (ast-grep types it as a union that admits numbers).
 *
 * @example kindOf(root) // "program"
 */
export function kindOf(node: SgNode): string {
  return String(node.kind());
}

/**
 * A call's arguments as nodes (Python keyword arguments included, as `keyword_argument` nodes; a
 * tagged template's template as its one argument).
 *
 * @example callArguments(call).map((a) => a.text()) // ["sql", "[id]"]
 */
export function callArguments(call: { argumentList: SgNode }): SgNode[] {
  const list = call.argumentList;
  if (kindOf(list) === "template_string") return [list];
  return list.children().filter((c) => c.isNamed() && kindOf(c) !== "comment");
}
