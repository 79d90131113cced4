import type { SgNode } from "@ast-grep/napi";
import { callAt, callSites, type CallSite } from "../code/call-sites.js";
import { GRAMMARS, type SyntaxLanguage } from "../code/grammars.js";
import { STRING_SYNTAX, TEXT_VERB, type StringSyntax } from "./string-syntax.js";

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
const MAX_DEPTH = 4;
/** How far above a use a variable's assignments are looked for (about one function). */
const MAX_ROWS_BACK = 80;

/** One value given to a name: an assignment, or an append (`sb.append(x)`, Ruby `s << x`). */
interface Assigned {
  row: number;
  value: SgNode;
  /** The value is added to what the name held (`sb.append(x)`, `$sql .= $x`), not put in its place. */
  appended?: boolean;
}

const READERS = new WeakMap<SgNode, StringBuilderReader>();

/**
 * Reads one language's syntax for string building, following variables within one tree. What
 * each grammar writes (its names, strings, substitutions, joining operators, format, append and
 * pass-through calls) is the `STRING_SYNTAX` table's.
 */
export class StringBuilderReader {
  private readonly syntax: StringSyntax;

  constructor(
    private readonly root: SgNode,
    private readonly lang: SyntaxLanguage,
  ) {
    this.syntax = STRING_SYNTAX[lang];
  }

  /**
   * The reader of a tree, made once: the detectors that read one file share its assignment index.
   *
   * @example StringBuilderReader.of(syntax).read(argNode)
   */
  static of(syntax: { root: SgNode; lang: SyntaxLanguage }): StringBuilderReader {
    let reader = READERS.get(syntax.root);
    if (!reader) {
      reader = new StringBuilderReader(syntax.root, syntax.lang);
      READERS.set(syntax.root, reader);
    }
    return reader;
  }

  /**
   * What `node` builds.
   *
   * @example reader.read(argNode) // { literal: "SELECT * FROM t WHERE id =", dynamic: true, rows: [4, 3] }
   */
  read(node: SgNode, depth = 0, seen: Set<string> = new Set()): BuiltString {
    const row = node.range().start.line;
    const kind = kindOf(node);
    const syntax = this.syntax;
    if (depth > MAX_DEPTH) return { ...NONE, rows: [row] };
    if (syntax.wrapperKinds.includes(kind)) {
      const inner = node.namedChildren();
      return inner.length === 1 && inner[0] ? this.read(inner[0], depth, seen) : { ...NONE, rows: [row] };
    }
    if (syntax.stringKinds.includes(kind) || kind === syntax.heredoc?.marker) return this.literalString(node);
    if (syntax.binaryKinds.includes(kind)) return this.binary(node, depth, seen);
    if (syntax.identifierKinds.includes(kind)) return this.variable(node, depth, seen);
    if (syntax.callKinds.includes(kind)) return this.formatCall(node, depth, seen);
    // A substitution standing alone (the shell's bare `$x` argument) is a string of one value.
    if (syntax.substitutionKinds.includes(kind)) return this.literalString(node);
    return { ...NONE, rows: [row] };
  }

  /**
   * What a string-like node says and whether it splices a non-constant in: a string literal, or a
   * node that runs its own text (Ruby's `` `ls #{d}` ``, PHP's backticks).
   *
   * @example reader.readText(subshellNode) // { literal: "ls", dynamic: true, rows: [3] }
   */
  readText(node: SgNode): BuiltString {
    return this.literalString(node);
  }

  /**
   * The node read as a call of this grammar, or undefined.
   *
   * @example reader.callOf(node)?.callee // "listOf"
   */
  callOf(node: SgNode): CallSite | undefined {
    return this.syntax.callKinds.includes(kindOf(node)) ? callAt(this.lang, node) : undefined;
  }

  /** A string literal: template literals and f-strings are dynamic when they substitute a non-constant. */
  private literalString(node: SgNode): BuiltString {
    const row = node.range().start.line;
    if (kindOf(node) === "concatenated_string") {
      const parts = node.namedChildren().map((c) => this.literalString(c));
      return { literal: parts.map((p) => p.literal).join(""), dynamic: parts.some((p) => p.dynamic), rows: [row] };
    }
    const syntax = this.syntax;
    const substitutions: SgNode[] = [];
    const content: string[] = [];
    const parts = syntax.substitutionKinds.includes(kindOf(node)) ? [node] : this.stringParts(node);
    for (const c of parts) {
      const kind = kindOf(c);
      if (syntax.substitutionKinds.includes(kind)) substitutions.push(c);
      else if (syntax.contentKinds.includes(kind) || kind.endsWith("_literal_content")) content.push(c.text());
    }
    const literal = syntax.contentFromText ? textBetween(node, substitutions) : content.join(" ");
    if (syntax.boundStrings?.test(node.text())) return { literal, dynamic: false, rows: [row] };
    const dynamic = substitutions.some((s) => {
      const inner = this.substituted(s);
      return !this.isConstant(inner) && !(inner && this.holdsOnlyLiterals(inner));
    });
    // A raw Go string or a plain string without content children still says something.
    const text =
      literal !== "" || substitutions.length > 0 ? literal : node.text().replace(/^[a-zA-Z@$]*["'`]+|["'`]+$/g, "");
    return { literal: text, dynamic, rows: [row] };
  }

  /** A string's parts: its children, through a body that holds them (PHP) or in its heredoc's body (Ruby). */
  private stringParts(node: SgNode): SgNode[] {
    const syntax = this.syntax;
    const kind = kindOf(node);
    const string = kind === syntax.heredoc?.marker ? this.heredocBody(node) : node;
    if (!string) return [];
    if (syntax.bodyKinds.length === 0) return string.children();
    return string.children().flatMap((c) => (syntax.bodyKinds.includes(kindOf(c)) ? c.children() : [c]));
  }

  private bodies: Map<number, SgNode> | undefined;

  /** The body of a heredoc whose marker this is (Ruby writes the text after the marker's line). */
  private heredocBody(marker: SgNode): SgNode | undefined {
    const heredoc = this.syntax.heredoc;
    if (!heredoc) return undefined;
    if (!this.bodies) {
      const markers = this.root.findAll({ rule: { kind: heredoc.marker } });
      const bodies = this.root.findAll({ rule: { kind: heredoc.body } });
      this.bodies = new Map();
      markers.forEach((m, i) => {
        const body = bodies[i];
        if (body) this.bodies?.set(m.id(), body);
      });
    }
    return this.bodies.get(marker.id());
  }

  /** The value a substitution splices in: the node itself (Kotlin `$name`), or the one it wraps. */
  private substituted(node: SgNode): SgNode | undefined {
    if (this.syntax.bareSubstitutionKinds.includes(kindOf(node))) return node;
    return node.namedChildren().filter((c) => !this.syntax.substitutionPunctuation.includes(kindOf(c)))[0];
  }

  /** A variable whose every assignment above its use is a plain literal (`const table = "orders"`). */
  private holdsOnlyLiterals(node: SgNode): boolean {
    if (!this.syntax.identifierKinds.includes(kindOf(node))) return false;
    const values = this.assignmentsTo(node.text(), node.range().start.line);
    return values.length > 0 && values.every((v) => this.isConstant(v));
  }

  /** `a + b` (PHP `a . b`) joins strings; Python's and Ruby's `"..." % x` formats one. */
  private binary(node: SgNode, depth: number, seen: Set<string>): BuiltString {
    const row = node.range().start.line;
    const { left, op, right } = binaryParts(node);
    if (!left || !right) return { ...NONE, rows: [row] };
    if (op === "%" && this.syntax.percentFormats) {
      const format = this.read(left, depth + 1, seen);
      if (format.literal === "") return { ...NONE, rows: [row] };
      const spliced = !this.isConstant(right) && TEXT_VERB.test(format.literal);
      return { literal: format.literal, dynamic: format.dynamic || spliced, rows: [row, ...format.rows] };
    }
    if (op === undefined || !this.syntax.concatOperators.includes(op)) return { ...NONE, rows: [row] };
    return this.joined(left, this.read(left, depth + 1, seen), right, this.read(right, depth + 1, seen), row);
  }

  /** Two pieces of text joined: built at run time when either is, or when text meets an opaque value. */
  private joined(left: SgNode, l: BuiltString, right: SgNode, r: BuiltString, row: number): BuiltString {
    const literal = [l.literal, r.literal].filter((t) => t !== "").join(" ");
    // Text joined with something that is neither literal text nor a constant is built at run time.
    const opaque = (side: SgNode, read: BuiltString) => read.literal === "" && !read.dynamic && !this.isConstant(side);
    const dynamic = l.dynamic || r.dynamic || (literal !== "" && (opaque(left, l) || opaque(right, r)));
    return { literal, dynamic, rows: [row, ...l.rows, ...r.rows] };
  }

  /**
   * Calls that build text: `"...".format(x)`, `fmt.Sprintf("...", x)`, `String.format`, `sprintf`,
   * `format!`, `sb.append(x)` chains, and calls that pass their receiver's or argument's text on.
   */
  private formatCall(node: SgNode, depth: number, seen: Set<string>): BuiltString {
    const row = node.range().start.line;
    const call = callAt(this.lang, node);
    if (!call) return { ...NONE, rows: [row] };
    const syntax = this.syntax;
    const args = call.args;
    const object = call.receiver === undefined ? undefined : receiverNode(node);
    if (syntax.formatMethods.test(call.method) && object && syntax.stringKinds.includes(kindOf(object))) {
      const format = this.literalString(object);
      const spliced = args.some((a) => !this.isConstant(a) && !syntax.stringKinds.includes(kindOf(a)));
      return { literal: format.literal, dynamic: format.dynamic || spliced, rows: [row] };
    }
    const formatter = syntax.formatFunctions.find((f) => f.callee.test(call.callee));
    const formatAt = formatter?.formatArg ?? 0;
    const formatArg = args[formatAt];
    if (formatter && formatArg) {
      const format = this.read(formatArg, depth + 1, seen);
      const values = args.slice(formatAt + 1);
      const verbs = formatter.verbs === "any" || formatter.verbs.test(format.literal);
      const spliced = values.some((a) => !this.isConstant(a)) && verbs;
      const captured = syntax.formatCaptures.test(format.literal);
      return { literal: format.literal, dynamic: format.dynamic || spliced || captured, rows: [row, ...format.rows] };
    }
    if (object && syntax.appendMethods.includes(call.method) && args[0]) {
      return this.joined(object, this.read(object, depth + 1, seen), args[0], this.read(args[0], depth + 1, seen), row);
    }
    if (object && syntax.passThroughMethods.test(call.method)) return this.read(object, depth + 1, seen);
    if (syntax.passThroughFunctions.test(call.callee)) {
      return args[0] ? this.read(args[0], depth + 1, seen) : { ...NONE, rows: [row] };
    }
    return { ...NONE, rows: [row] };
  }

  /** A variable: what its assignments above this use (in about the same function) build. */
  private variable(node: SgNode, depth: number, seen: Set<string>): BuiltString {
    const name = node.text();
    const row = node.range().start.line;
    if (CONSTANT.test(name) || seen.has(name)) return { ...NONE, rows: [row] };
    const next = new Set(seen).add(name);
    const parts = this.assignedTo(name, row).map(({ value, appended }) => {
      const read = this.read(value, depth + 1, next);
      // A value added to text is built text unless it is a constant: `sb.append(name)`.
      const opaque = appended === true && read.literal === "" && !read.dynamic && !this.isConstant(value);
      return opaque ? { ...read, dynamic: true } : read;
    });
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

  /**
   * The values given to `name` (`=`, `:=`, `+=`, `.=`, `let/const/var`, appends) on rows above `before`.
   *
   * @example reader.assignmentsTo("sql", 12).map((v) => v.text()) // ['"SELECT * FROM t WHERE id = " + id']
   */
  assignmentsTo(name: string, before: number): SgNode[] {
    return this.assignedTo(name, before).map((a) => a.value);
  }

  private assignedTo(name: string, before: number): Assigned[] {
    return (this.assignments().get(name) ?? []).filter((a) => a.row < before && a.row >= before - MAX_ROWS_BACK);
  }

  /**
   * Every name the tree assigns (as written: `sql`, `$sql`, `cmd.CommandText`) with its values.
   *
   * @example [...reader.assignedNames()].map(([name]) => name) // ["sql", "cmd.CommandText"]
   */
  assignedNames(): IterableIterator<[string, ReadonlyArray<Assigned>]> {
    return this.assignments().entries();
  }

  /**
   * True for a literal number, boolean or null, a plain string without substitutions, an ALL_CAPS
   * name or member, a numeric cast, or a call whose result cannot carry syntax (an escaper).
   *
   * @example reader.isConstant(node) // true for `"orders"`, `MAX_ROWS`, `escapeshellarg($f)`
   */
  isConstant(node: SgNode | undefined): boolean {
    if (!node) return true;
    const kind = kindOf(node);
    const syntax = this.syntax;
    if (LITERAL_KINDS.has(kind) || syntax.literalKinds.includes(kind) || syntax.numericKinds.includes(kind))
      return true;
    if (syntax.identifierKinds.includes(kind) || kind === "constant") return CONSTANT.test(node.text());
    if (kind === "member_expression" || kind === "attribute" || kind === "selector_expression") {
      const last = (node.field("property") ?? node.field("attribute") ?? node.field("field"))?.text() ?? "";
      return CONSTANT.test(last);
    }
    if (syntax.memberKinds.includes(kind)) return CONSTANT.test(/[\w$]+$/.exec(node.text())?.[0] ?? "");
    if (syntax.constantStringKinds.includes(kind) || kind === syntax.heredoc?.marker) {
      return !this.stringParts(node).some((c) => syntax.substitutionKinds.includes(kindOf(c)));
    }
    if (syntax.safeCalls && syntax.callKinds.includes(kind)) {
      // A call without an argument list (Ruby's `params[:id].to_i`) is named by its whole text.
      const callee = callAt(this.lang, node)?.callee ?? node.text().replace(/\s+/g, "");
      return syntax.safeCalls.test(callee);
    }
    return false;
  }

  private index: Map<string, Assigned[]> | undefined;

  /** Every assignment of the tree by target name, read once (one native search per file). */
  private assignments(): Map<string, Assigned[]> {
    if (this.index) return this.index;
    const index = new Map<string, Assigned[]>();
    const add = (name: string, row: number, value: SgNode, appended = false) => {
      const list = index.get(name) ?? [];
      list.push(appended ? { row, value, appended } : { row, value });
      index.set(name, list);
    };
    const syntax = this.syntax;
    const kinds = [
      ...GRAMMARS[this.lang].assignmentKinds,
      ...(syntax.appendOperators.length > 0 ? syntax.binaryKinds : []),
    ];
    const appendOperators = syntax.appendOperators.length > 0;
    for (const a of this.root.findAll({ rule: { any: kinds.map((kind) => ({ kind })) } })) {
      // A node that names its operator gives a value only with an assigning one (Elixir's `=`, not `<>`).
      const operator = syntax.assignmentOperatorField ? a.field("operator")?.text() : undefined;
      if (operator !== undefined && !ASSIGNING.test(operator)) continue;
      if (appendOperators && syntax.binaryKinds.includes(kindOf(a))) {
        const { left, op, right } = binaryParts(a);
        if (left && right && op && syntax.appendOperators.includes(op))
          add(left.text(), a.range().start.line, right, true);
        continue;
      }
      const { target, value } = this.assignmentParts(a);
      if (!target || !value) continue;
      // The token before the value is the operator: `+=`, `.=`.
      const appended =
        syntax.appendAssignments.length > 0 && syntax.appendAssignments.includes(value.prev()?.text() ?? "");
      const names = LISTS.has(kindOf(target)) ? target.namedChildren() : [target];
      const values = LISTS.has(kindOf(value)) ? value.namedChildren() : [value];
      names.forEach((n, i) => {
        const v = values[i] ?? (values.length === 1 ? values[0] : undefined);
        if (v) add(n.text(), a.range().start.line, v, appended);
      });
    }
    if (syntax.appendMethods.length > 0) this.indexAppends(add);
    if (syntax.bufferWrites) this.indexBufferWrites(syntax.bufferWrites, add);
    this.index = index;
    return index;
  }

  /** `sprintf(q, "...%s", x)` gives `q` the formatted text; `strcat(q, x)` adds `x` to it. */
  private indexBufferWrites(
    writes: NonNullable<StringSyntax["bufferWrites"]>,
    add: (name: string, row: number, value: SgNode, appended: boolean) => void,
  ): void {
    for (const call of callSites({ lang: this.lang, root: this.root })) {
      const write = writes.find((w) => w.callee.test(call.callee));
      const buffer = write ? call.args[write.buffer] : undefined;
      if (!write || !buffer || !this.syntax.identifierKinds.includes(kindOf(buffer))) continue;
      const value = write.value === undefined ? call.node : call.args[write.value];
      if (value) add(buffer.text(), call.row, value, write.appends === true);
    }
  }

  /** `sb.append(x)` and `sb.append(x).append(y)` give `sb` more text. */
  private indexAppends(add: (name: string, row: number, value: SgNode, appended: boolean) => void): void {
    const names = this.syntax.appendMethods;
    const pattern = new RegExp(`\\.(?:${names.join("|")})$`);
    for (const call of callSites({ lang: this.lang, root: this.root }, pattern)) {
      const root = /^([$\w]+)(?:\.(\w+)\(|$)/.exec(call.receiver ?? "");
      const arg = call.args[0];
      if (!root?.[1] || !arg || (root[2] !== undefined && !names.includes(root[2]))) continue;
      add(root[1], call.row, arg, true);
    }
  }

  /** An assignment's target name node and value: by field where the grammar names them, else by position. */
  private assignmentParts(a: SgNode): { target?: SgNode; value?: SgNode } {
    const byField = this.syntax.assignmentFields;
    let target = byField ? (a.field("left") ?? a.field("name") ?? a.field("pattern") ?? undefined) : undefined;
    let value = byField ? (a.field("right") ?? a.field("value") ?? undefined) : undefined;
    if (!target || !value) {
      // Kotlin names no fields, C#'s declarator names no value: read them by position, around the `=`.
      const children = a.children();
      const equals = children.findIndex((c) => !c.isNamed() && /=$/.test(c.text()));
      const before = equals < 0 ? children : children.slice(0, equals);
      target ??= before.find((c) => c.isNamed() && !ASSIGNMENT_NOISE.has(kindOf(c)));
      if (!value && equals >= 0) value = children.slice(equals + 1).find((c) => c.isNamed());
    }
    if (target && this.syntax.targetWrappers.length > 0 && this.syntax.targetWrappers.includes(kindOf(target))) {
      target = target.namedChildren()[0] ?? target;
    }
    return { ...(target ? { target } : {}), ...(value ? { value } : {}) };
  }
}

/** Children of a declaration that come before its name (Kotlin `val`, modifiers, annotations). */
const ASSIGNMENT_NOISE = new Set(["binding_pattern_kind", "modifiers", "annotation", "type_identifier", "user_type"]);

/** Operators that give a name a value: `=`, `+=`, `.=`, `<<=` (not `==`, `<=`, `>=`, `!=`). */
const ASSIGNING = /^(?!(?:==|===|!=|!==|<=|>=)$).*=$/;

/** A string's text without its substitutions and its quotes (and an interpolator's prefix). */
function textBetween(node: SgNode, substitutions: readonly SgNode[]): string {
  const start = node.range().start.index;
  let text = node.text();
  for (const s of [...substitutions].reverse()) {
    const { start: from, end: to } = s.range();
    text = `${text.slice(0, from.index - start)} ${text.slice(to.index - start)}`;
  }
  return text.replace(/^[A-Za-z_]*(?:"""|["'])|(?:"""|["'])$/g, "").trim();
}

/** Several targets or values in one assignment: `a, b := x, y` (Go), `a, b = x, y` (Python). */
const LISTS = new Set(["expression_list", "pattern_list"]);
/** Literal kinds of the first three grammars, always constant. */
const LITERAL_KINDS = new Set(STRING_SYNTAX.javascript.literalKinds);

/** A binary node's sides and operator: by field where the grammar names them, else by position. */
function binaryParts(node: SgNode): { left?: SgNode; op?: string; right?: SgNode } {
  const left = node.field("left");
  const right = node.field("right");
  if (left && right) return { left, right, op: node.field("operator")?.text() };
  const named = node.namedChildren();
  const op = node
    .children()
    .find((c) => !c.isNamed())
    ?.text();
  // An operator written as a node of its own between the sides (Dart's `additive_operator`).
  const middle = named[1];
  if (named.length === 3 && middle && kindOf(middle).endsWith("_operator"))
    return { left: named[0], right: named[2], op: middle.text() };
  if (named.length !== 2) return {};
  return { left: named[0], right: named[1], ...(op !== undefined ? { op } : {}) };
}

/** The receiver of a member call node: `sb` of `sb.append(x)`, `"..."` of `"...".format(x)`. */
function receiverNode(node: SgNode): SgNode | undefined {
  const fn = node.field("function");
  const member = fn ?? node.children().find((c) => MEMBER_CALLEES.has(kindOf(c)));
  const holder = member ?? node;
  const object =
    holder.field("object") ??
    holder.field("operand") ??
    holder.field("receiver") ??
    holder.field("expression") ??
    (member && kindOf(member) === "field_expression" ? member.field("value") : null) ??
    // C++'s `q.c_str()`: the field expression names its object `argument`.
    (fn && kindOf(fn) === "field_expression" ? fn.field("argument") : null);
  if (object) return object;
  if (member && MEMBER_CALLEES.has(kindOf(member))) return member.namedChildren()[0];
  return undefined;
}

/** Callee node kinds that are member access with the receiver first (Kotlin, Rust paths). */
const MEMBER_CALLEES = new Set(["navigation_expression", "scoped_identifier"]);

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
  return list.namedChildren().filter((c) => kindOf(c) !== "comment");
}
