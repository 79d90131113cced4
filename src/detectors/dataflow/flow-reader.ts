import type { SgNode } from "@ast-grep/napi";
import type { SyntaxLanguage } from "../code/grammars.js";
import { FLOW_SYNTAX, type FlowSyntax } from "./flow-syntax.js";
import {
  anyItem,
  at,
  carried,
  concat,
  CONSTANT,
  derived,
  join,
  known,
  OUTSIDE,
  SOURCE,
  type FlowValue,
} from "./flow-value.js";

/** One path through a function: what each local holds, which locals are text builders, whether it still runs. */
interface State {
  env: Map<string, FlowValue>;
  builders: Set<string>;
  live: boolean;
}

/** How deep calls of the file's own functions are followed. */
const MAX_CALL_DEPTH = 3;
/** A function longer than this many statements is read with its parameters only, not followed. */
const MAX_STATEMENTS = 4_000;

const READERS = new WeakMap<SgNode, FlowReader | null>();

/**
 * Intra-procedural data flow over one parsed file: every function is run abstractly from its
 * parameters (data from outside) through its statements in order, following assignments,
 * concatenation, builders, arrays, lists and maps, branches whose condition is a constant (the
 * other branch is dead), switches on constants, and the returns of the file's own functions
 * (with the arguments of each call). What every call's receiver and arguments may hold is kept,
 * so a detector asks the value that reached a sink.
 *
 * The vocabulary (sources, sanitizers, collection calls) is the language's `FLOW_SYNTAX` table.
 *
 * @example FlowReader.of(syntax)?.valueAt(argNode)?.outside // true when request data may reach it
 */
export class FlowReader {
  private readonly values = new Map<number, FlowValue>();
  private readonly functions = new Map<string, SgNode[]>();
  private readonly fields = new Map<string, SgNode | null>();
  private readonly summaries = new Map<string, FlowValue>();
  /** Names bound by imports: modules and types, never data. */
  private readonly imported = new Set<string>();
  private depth = 0;
  private statements = 0;
  private returns: FlowValue[] | undefined;

  private constructor(
    private readonly root: SgNode,
    private readonly t: FlowSyntax,
  ) {}

  /**
   * The reader of a tree, run once; undefined for a language without a flow table.
   *
   * @example FlowReader.of({ root, lang: "java" })
   */
  static of(syntax: { root: SgNode; lang: SyntaxLanguage }): FlowReader | undefined {
    const cached = READERS.get(syntax.root);
    if (cached !== undefined) return cached ?? undefined;
    const table = FLOW_SYNTAX[syntax.lang];
    let reader = table ? new FlowReader(syntax.root, table) : undefined;
    try {
      reader?.index();
    } catch {
      // A tree the table does not fit: the string reader decides, as for a language without a table.
      reader = undefined;
    }
    READERS.set(syntax.root, reader ?? null);
    return reader;
  }

  /**
   * What an expression that is a call's receiver or argument may hold there, joined over every
   * path and every call of its function; undefined when no run reached it.
   *
   * @example reader.valueAt(call.args[0]!)?.literal // "SELECT * FROM t WHERE id ="
   */
  valueAt(node: SgNode): FlowValue | undefined {
    if (this.broken) return undefined;
    try {
      this.runScopeOf(node);
    } catch {
      // A tree the table does not fit: the string reader decides, as for a language without a table.
      this.broken = true;
      return undefined;
    }
    return this.values.get(node.id());
  }

  private broken = false;
  private readonly ran = new Set<number>();

  /**
   * Runs the function that holds `node` (or the file's top-level statements), once, from its
   * parameters as outside data. Only the functions that hold an asked call are run: a run from
   * outside data is what every caller's run would join into, so the others add nothing to it.
   */
  private runScopeOf(node: SgNode): void {
    const t = this.t;
    let scope: SgNode | null = node.parent();
    while (scope && !t.functionKinds.includes(String(scope.kind()))) scope = scope.parent();
    const at = scope ?? this.root;
    if (this.ran.has(at.id())) return;
    this.ran.add(at.id());
    this.statements = 0;
    if (scope) this.callFunction(scope, undefined, scope.range().start.line);
    else this.block(this.root, { env: new Map(), builders: new Set(), live: true });
  }

  /** The file's imports, functions by name and fields, read once. */
  private index(): void {
    const t = this.t;
    for (const i of this.root.findAll({ rule: { any: t.importKinds.map((kind) => ({ kind })) } })) {
      for (const id of i.findAll({ rule: { kind: "identifier" } })) this.imported.add(id.text());
    }
    const kinds = [...t.functionKinds, ...t.fieldKinds].map((kind) => ({ kind }));
    const found = this.root.findAll({ rule: { any: kinds } });
    for (const node of found) {
      const kind = String(node.kind());
      if (t.functionKinds.includes(kind)) {
        // A function given to a name (`const build = (x) => ...`) is called by that name.
        const holder = node.parent();
        const named = holder && t.declaratorKinds.includes(String(holder.kind())) ? holder.field("name") : null;
        const name = (node.field("name") ?? named)?.text();
        if (name) this.functions.set(name, [...(this.functions.get(name) ?? []), node]);
      } else {
        const final = t.finalModifier.test(node.children()[0]?.text() ?? "");
        for (const d of node.children().filter((c) => t.declaratorKinds.includes(String(c.kind())))) {
          const name = d.field("name")?.text();
          if (name) this.fields.set(name, final ? (d.field("value") ?? null) : null);
        }
      }
    }
  }

  /** Runs a function with its parameters bound to `args` (outside data when not given); its returns joined. */
  private callFunction(fn: SgNode, args: readonly FlowValue[] | undefined, row: number): FlowValue {
    const t = this.t;
    const params = (fn.field("parameters")?.namedChildren() ?? []).filter((p) =>
      t.parameterKinds.includes(String(p.kind())),
    );
    const key = `${fn.id()}:${(args ?? []).map(signature).join(",")}`;
    const memo = this.summaries.get(key);
    // Another call with values that read the same: its result, built also on this call's rows.
    if (memo) return at({ ...memo, rows: [...new Set([...memo.rows, ...(args ?? []).flatMap((a) => a.rows)])] }, row);
    const env = new Map<string, FlowValue>();
    params.forEach((p, i) => {
      const name =
        p.field("name")?.text() ??
        (t.identifierKinds.includes(String(p.kind())) ? p.text() : undefined) ??
        p
          .namedChildren()
          .find((c) => t.identifierKinds.includes(String(c.kind())))
          ?.text();
      if (!name) return;
      const given = args?.[i];
      const source = t.sourceParameter?.test(p.text()) === true;
      env.set(name, given ?? (source ? SOURCE : OUTSIDE));
    });
    const body = fn.field("body");
    const saved = this.returns;
    this.returns = [];
    this.depth++;
    const start: State = { env, builders: new Set(), live: true };
    // An arrow function's expression body is what it returns.
    if (body && t.blockKinds.includes(String(body.kind()))) this.block(body, start);
    else if (body) this.returns.push(this.expr(body, start));
    this.depth--;
    const returned = this.returns.length > 0 ? this.returns.reduce(join) : CONSTANT;
    this.returns = saved;
    this.summaries.set(key, returned);
    return at(returned, row);
  }

  // Statements --------------------------------------------------------------------------------

  private block(node: SgNode, state: State): State {
    let s = state;
    for (const child of node.namedChildren()) {
      if (!s.live) break;
      s = this.statement(child, s);
    }
    return s;
  }

  private statement(node: SgNode, state: State): State {
    const t = this.t;
    const kind = String(node.kind());
    if (++this.statements > MAX_STATEMENTS) return state;
    if (t.blockKinds.includes(kind)) return this.block(node, state);
    // Go's `a := x` and `a = x` are statements of their own.
    if (t.assignmentKinds.includes(kind)) {
      this.expr(node, state);
      return state;
    }
    if (t.declarationKinds.includes(kind)) {
      const builder = t.builderTypes.test(node.text().split("=")[0] ?? "");
      for (const d of node.namedChildren().filter((c) => t.declaratorKinds.includes(String(c.kind())))) {
        const target = d.field("name");
        const value = d.field("value");
        if (!target) continue;
        const name = target.text();
        if (!t.identifierKinds.includes(String(target.kind()))) {
          this.bind(target, value ? this.expr(value, state) : CONSTANT, state);
          continue;
        }
        state.env.set(name, value ? this.expr(value, state) : CONSTANT);
        if (builder) state.builders.add(name);
        else state.builders.delete(name);
      }
      return state;
    }
    if (t.ifKinds.includes(kind)) return this.ifStatement(node, state);
    if (t.switchKinds.includes(kind)) return this.switchStatement(node, state);
    if (t.loopKinds.includes(kind)) return this.loop(node, state);
    if (t.tryKinds.includes(kind)) return this.tryStatement(node, state);
    if (t.returnKinds.includes(kind)) {
      const value = node.namedChildren()[0];
      this.returns?.push(value ? this.expr(value, state) : CONSTANT);
      return { ...state, live: false };
    }
    if (t.throwKinds.includes(kind)) {
      for (const c of node.namedChildren()) this.expr(c, state);
      return { ...state, live: false };
    }
    if (t.breakKinds.includes(kind) || t.classKinds.includes(kind) || t.functionKinds.includes(kind)) return state;
    if (t.importKinds.includes(kind) || t.definitionKinds.includes(kind)) return state;
    if (kind === "expression_statement") {
      for (const c of node.namedChildren()) this.expr(c, state);
      return state;
    }
    // Labelled, synchronized, with and other wrappers: their blocks in order, their expressions read.
    let s = state;
    for (const c of node.namedChildren()) {
      if (!s.live) break;
      const k = String(c.kind());
      if (t.blockKinds.includes(k)) s = this.block(c, s);
      else if (/_(statement|clause|item|declaration)$/.test(k)) s = this.statement(c, s);
      else this.expr(c, s);
    }
    return s;
  }

  private ifStatement(node: SgNode, start: State): State {
    const t = this.t;
    // Go's `if err := run(q); err != nil`: the initializer runs first.
    const init = node.field("initializer");
    const state = init ? this.statement(init, start) : start;
    // The branches in order: each with its condition, the last `else` without.
    const branches: Array<{ condition?: SgNode | null; body: SgNode | null }> = [
      { condition: node.field("condition"), body: node.field("consequence") },
    ];
    const clauses = node.namedChildren().filter((c) => [...t.elifKinds, ...t.elseKinds].includes(String(c.kind())));
    for (const c of clauses) {
      const body = c.field("consequence") ?? c.field("body") ?? c.namedChildren().at(-1) ?? null;
      if (t.elifKinds.includes(String(c.kind()))) branches.push({ condition: c.field("condition"), body });
      else branches.push({ body });
    }
    if (clauses.length === 0) {
      const no = node.field("alternative");
      if (no) branches.push({ body: t.elseKinds.includes(String(no.kind())) ? (no.namedChildren()[0] ?? null) : no });
    }
    const run = (branch: SgNode | null, s: State) => (branch ? this.statement(branch, s) : s);
    let out: State = { ...state, live: false };
    let rest: State | undefined = state;
    for (const b of branches) {
      if (!rest) break;
      const cond = b.condition ? this.expr(b.condition, rest) : known(true);
      if (cond.known === false) continue;
      if (cond.known === true) {
        out = merge(out, run(b.body, fork(rest)));
        rest = undefined;
        break;
      }
      out = merge(out, run(b.body, fork(rest)));
    }
    return rest ? merge(out, rest) : out;
  }

  private switchStatement(node: SgNode, start: State): State {
    let state = start;
    const t = this.t;
    const init = node.field("initializer");
    if (init) state = this.statement(init, state);
    const condition =
      node.field("condition") ?? node.field("subject") ?? node.field("value") ?? node.namedChildren()[0];
    const target = condition ? this.expr(condition, state) : CONSTANT;
    const body = node.field("body") ?? node.namedChildren().find((c) => t.blockKinds.includes(String(c.kind())));
    // The cases are a body's children (Java, JavaScript, Python) or the statement's own (Go).
    const groups = (body ?? node).namedChildren().filter((g) => t.caseGroupKinds.includes(String(g.kind())));
    // A case's labels are child nodes (Java, Python) or its `value` field (JavaScript's `case x:`).
    const labelsOf = (g: SgNode) => {
      if (t.caseLabelKinds.length === 0) return [g.field("value")].filter((v): v is SgNode => v !== null);
      return g.namedChildren().filter((c) => t.caseLabelKinds.includes(String(c.kind())));
    };
    const isDefault = (g: SgNode) =>
      t.defaultCaseKinds.includes(String(g.kind())) ||
      labelsOf(g).some((l) => t.caseLabelKinds.length > 0 && (l.namedChildren().length === 0 || l.text() === "_"));
    const constants = [...t.stringKinds, ...t.charKinds, ...t.numberKinds].map((kind) => ({ kind }));
    const matches = (label: SgNode, value: FlowValue["known"]) =>
      label.findAll({ rule: { any: constants } }).some((v) => this.expr(v, state).known === value);
    /** Runs the groups from `start` on, falling through until a break. */
    const from = (start: number, s: State): State => {
      let cur = s;
      for (let i = start; i < groups.length && cur.live; i++) {
        const group = groups[i] as SgNode;
        let broke = false;
        for (const c of group.namedChildren()) {
          if (t.caseLabelKinds.includes(String(c.kind())) || c.id() === group.field("value")?.id()) continue;
          if (t.breakKinds.includes(String(c.kind()))) {
            broke = true;
            break;
          }
          cur = this.statement(c, cur);
          if (!cur.live) break;
        }
        if (broke || !t.fallsThrough || String(group.kind()) === "switch_rule") break;
      }
      return cur;
    };
    if (target.known !== undefined) {
      const hit = groups.findIndex((g) => labelsOf(g).some((l) => matches(l, target.known)));
      const start = hit >= 0 ? hit : groups.findIndex(isDefault);
      return start >= 0 ? from(start, state) : state;
    }
    let out: State = groups.some(isDefault) ? { ...state, live: false } : fork(state);
    groups.forEach((_, i) => {
      out = merge(out, from(i, fork(state)));
    });
    return out;
  }

  private loop(node: SgNode, state: State): State {
    const t = this.t;
    let s = fork(state);
    const body = node.field("body");
    // for (T x : items), for x in items, for i, x := range items: the element holds any item.
    const range = node.namedChildren().find((c) => String(c.kind()) === "range_clause") ?? node;
    const target = range.field("name") ?? range.field("left");
    const items = range.field("value") ?? range.field("right");
    if (target && items) this.bind(target, anyItem(this.expr(items, s)), s);
    for (const c of node.namedChildren()) {
      if (c === body) continue;
      if (t.declarationKinds.includes(String(c.kind()))) s = this.statement(c, s);
      else if (c.id() !== items?.id()) this.expr(c, s);
    }
    if (!body) return state;
    // Twice, so what one pass assigns reaches the next pass's reads.
    const once = this.statement(body, fork(s));
    const twice = this.statement(body, fork(merge(fork(s), once)));
    return merge(merge(state, s), merge(once, twice));
  }

  private tryStatement(node: SgNode, state: State): State {
    const s = state;
    for (const c of node.namedChildren()) {
      if (String(c.kind()) === "resource_specification") {
        for (const r of c.namedChildren()) {
          const name = r.field("name")?.text();
          const value = r.field("value");
          if (name && value) s.env.set(name, this.expr(value, s));
        }
      }
    }
    const t = this.t;
    const body = node.field("body") ?? node.namedChildren().find((c) => t.blockKinds.includes(String(c.kind())));
    const after = body ? this.block(body, fork(s)) : s;
    let out = after;
    for (const c of node.namedChildren()) {
      const kind = String(c.kind());
      if (t.elseKinds.includes(kind)) {
        const block = c.field("body") ?? c.namedChildren().at(-1);
        if (block && out.live) out = this.block(block, out);
      } else if (t.catchKinds.includes(kind)) {
        const start = merge(fork(s), { ...fork(after), live: true });
        const name = c.namedChildren().find((x) => String(x.kind()) === "catch_formal_parameter");
        const id = name?.field("name")?.text();
        if (id) start.env.set(id, OUTSIDE);
        const block = c.field("body") ?? c.namedChildren().at(-1);
        out = merge(out, block ? this.block(block, start) : start);
      } else if (t.finallyKinds.includes(kind)) {
        const block = c.field("body") ?? c.namedChildren().at(-1);
        if (block) {
          const live = out.live;
          out = { ...this.block(block, { ...out, live: true }), live };
        }
      }
    }
    return out;
  }

  // Expressions -------------------------------------------------------------------------------

  private expr(node: SgNode, state: State): FlowValue {
    const t = this.t;
    const kind = String(node.kind());
    const row = node.range().start.line;
    if (t.stringKinds.includes(kind)) return this.string(node, state, row);
    if (kind === "concatenated_string")
      return node
        .namedChildren()
        .map((c) => this.expr(c, state))
        .reduce((a, b) => concat(a, b, row), known("", row));
    if (t.charKinds.includes(kind)) return known(node.text().slice(1, -1), row);
    if (t.numberKinds.includes(kind)) {
      const n = Number(
        node
          .text()
          .replace(/[_lLfFdD]$/g, "")
          .replace(/_/g, ""),
      );
      return Number.isNaN(n) ? CONSTANT : known(n, row);
    }
    if (t.booleanKinds.includes(kind)) return known(node.text() === "true", row);
    if (t.nullKinds.includes(kind)) return CONSTANT;
    if (t.identifierKinds.includes(kind)) return this.name(node.text(), state, row);
    if (t.mapKinds.includes(kind)) {
      const entries = new Map<string, FlowValue>();
      let other: FlowValue = CONSTANT;
      for (const pair of node.namedChildren()) {
        const part = String(pair.kind());
        // `{ cmd }` holds the local `cmd`; `{ ...opts }`, `**opts` and methods hold what they carry.
        if (part === "shorthand_property_identifier") {
          entries.set(pair.text(), this.name(pair.text(), state, row));
          continue;
        }
        if (part !== "pair") {
          if (part !== "comment") other = join(other, this.expr(pair, state));
          continue;
        }
        const key = pair.field("key");
        const value = pair.field("value");
        const bare = key && /^(property_identifier|identifier|shorthand_property_identifier)$/.test(String(key.kind()));
        const k = key ? (bare ? key.text() : this.expr(key, state).known) : undefined;
        const v = value ? this.expr(value, state) : CONSTANT;
        if (k !== undefined) entries.set(String(k), v);
        else other = join(other, v);
      }
      return { ...other, rows: [row], entries };
    }
    if (t.wrapperKinds.includes(kind)) {
      const inner = node.namedChildren()[0];
      return inner ? this.expr(inner, state) : CONSTANT;
    }
    if (t.castKinds.includes(kind)) {
      const value = node.field("value");
      const v = value ? this.expr(value, state) : CONSTANT;
      return /^(int|long|short|byte|double|float|boolean|char)$/.test(node.field("type")?.text() ?? "")
        ? { ...CONSTANT, rows: v.rows }
        : v;
    }
    if (t.fieldAccessKinds.includes(kind)) return this.fieldAccess(node, state, row);
    if (t.indexKinds.includes(kind)) {
      const array = node.field("array") ?? node.field("value") ?? node.field("object") ?? node.field("operand");
      const index = node.field("index") ?? node.field("subscript");
      const a = array ? this.expr(array, state) : OUTSIDE;
      const i = index ? this.expr(index, state) : CONSTANT;
      return at(itemAt(a, i), row);
    }
    if (t.compositeKinds.includes(kind)) return this.composite(node, state, row);
    if (t.arrayKinds.includes(kind)) {
      // `return q` in Go is a list of one.
      const named = node.namedChildren();
      if (kind === "expression_list" && named.length === 1 && named[0]) return this.expr(named[0], state);
      const value = node.field("value");
      const init = value && t.arrayKinds.includes(String(value.kind())) ? value : node;
      if (init === node && t.arrayCreationKinds.includes(kind)) return { ...CONSTANT, items: [], rows: [row] };
      return { ...CONSTANT, rows: [row], items: init.namedChildren().map((c) => this.expr(c, state)) };
    }
    if (t.binaryKinds.includes(kind)) return this.binary(node, state, row);
    if (t.unaryKinds.includes(kind)) {
      const operand = node.field("operand") ?? node.field("argument") ?? node.namedChildren()[0];
      const v = operand ? this.expr(operand, state) : CONSTANT;
      const op = node.field("operator")?.text() ?? node.children()[0]?.text();
      if ((op === "!" || op === "not") && typeof v.known === "boolean") return known(!v.known, row);
      if (op === "-" && typeof v.known === "number") return known(-v.known, row);
      // `&x`, `*p`, `<-ch` give the value itself; negation and the like give a number or a boolean.
      if (op === "&" || op === "*" || op === "<-") return at(v, row);
      return { ...CONSTANT, rows: [row] };
    }
    if (t.ternaryKinds.includes(kind)) {
      // Python's `a if c else b` names no fields: its parts are in that order.
      const parts = node.namedChildren();
      const condition = node.field("condition") ?? parts[1];
      const yes = node.field("consequence") ?? parts[0];
      const no = node.field("alternative") ?? parts[2];
      const cond = condition ? this.expr(condition, state) : CONSTANT;
      if (cond.known === true && yes) return this.expr(yes, state);
      if (cond.known === false && no) return this.expr(no, state);
      return join(yes ? this.expr(yes, state) : CONSTANT, no ? this.expr(no, state) : CONSTANT);
    }
    if (t.assignmentKinds.includes(kind)) return this.assign(node, state, row);
    if (t.callKinds.includes(kind)) return this.call(node, state, row);
    if (t.constructorKinds.includes(kind)) return this.construct(node, state, row);
    if (kind === "update_expression" || kind === "instanceof_expression" || kind === "class_literal")
      return { ...CONSTANT, rows: [row] };
    if (kind === "lambda_expression" || kind === "method_reference") return { ...CONSTANT, rows: [row] };
    if (kind === "this" || kind === "super") return CONSTANT;
    // A definition or a block met as a value (a decorated function, a lambda's body) is run on its own.
    if (t.functionKinds.includes(kind) || t.classKinds.includes(kind) || t.blockKinds.includes(kind)) return CONSTANT;
    if (t.definitionKinds.includes(kind)) return CONSTANT;
    return derived(
      node.namedChildren().map((c) => this.expr(c, state)),
      row,
    );
  }

  /** A string literal: its text, or its parts joined when it substitutes values (an f-string). */
  private string(node: SgNode, state: State, row: number): FlowValue {
    const t = this.t;
    const parts = node.children();
    if (!parts.some((c) => t.interpolationKinds.includes(String(c.kind())))) {
      const content = parts.filter((c) => t.stringContentKinds.includes(String(c.kind())));
      return known(content.length > 0 ? content.map((c) => c.text()).join("") : stringText(node.text()), row);
    }
    let out = known("", row);
    for (const c of parts) {
      const k = String(c.kind());
      if (t.stringContentKinds.includes(k)) out = concat(out, known(c.text()), row);
      else if (t.interpolationKinds.includes(k)) {
        const inner = c.namedChildren()[0];
        out = concat(out, inner ? this.expr(inner, state) : CONSTANT, row);
      }
    }
    return out;
  }

  private name(name: string, state: State, row: number): FlowValue {
    const local = state.env.get(name);
    if (local) return at(local, row);
    if (this.t.sourceNames?.test(name)) return at(SOURCE, row);
    if (this.imported.has(name)) return { ...CONSTANT, rows: [row] };
    return this.field(name, state, row) ?? (/^[A-Z]/.test(name) ? { ...CONSTANT, rows: [row] } : at(OUTSIDE, row));
  }

  /** A field of the file: a final field's initial value; any other field is data from outside. */
  private field(name: string, state: State, row: number): FlowValue | undefined {
    if (!this.fields.has(name)) return undefined;
    const init = this.fields.get(name);
    if (!init) return /^[A-Z][A-Z0-9_]*$/.test(name) ? { ...CONSTANT, rows: [row] } : at(OUTSIDE, row);
    this.fields.set(name, null); // a field initialised from itself is outside data
    const v = this.expr(init, { ...state, env: new Map() });
    this.fields.set(name, init);
    return at(v, row);
  }

  private fieldAccess(node: SgNode, state: State, row: number): FlowValue {
    const object = node.field("object") ?? node.field("operand");
    const field = (node.field("field") ?? node.field("attribute") ?? node.field("property"))?.text() ?? "";
    if (object && this.t.selfNames.test(object.text())) {
      return this.field(field, state, row) ?? at(OUTSIDE, row);
    }
    // A constant (`Config.MAX`, `Mode.READ`), a class named with its package, an array's length.
    if (/^[A-Z][A-Z0-9_]*$/.test(field) || field === "length") return { ...CONSTANT, rows: [row] };
    if (/^([a-z_]\w*\.)*[A-Z]\w*$/.test(node.text()) && !state.env.has(node.text().split(".")[0] ?? ""))
      return { ...CONSTANT, rows: [row] };
    return derived([object ? this.expr(object, state) : OUTSIDE], row);
  }

  private binary(node: SgNode, state: State, row: number): FlowValue {
    const named = node.namedChildren();
    const left = node.field("left") ?? named[0];
    const right = node.field("right") ?? named[1];
    const written =
      node.field("operator")?.text() ??
      node
        .children()
        .find((c) => !c.isNamed())
        ?.text() ??
      "";
    const op = OPERATORS[written] ?? written;
    const l = left ? this.expr(left, state) : CONSTANT;
    // `a && b`, `a || b`: the right side may not run.
    if ((op === "&&" && l.known === false) || (op === "||" && l.known === true)) return known(l.known, row);
    const r = right ? this.expr(right, state) : CONSTANT;
    const folded = fold(op, l.known, r.known);
    if (folded !== undefined) return known(folded, row);
    if (op === "+") return concat(l, r, row);
    // `a || b`, `a ?? b`, Python's `a or b`: the value is one of the operands (in JavaScript and Python).
    if (op === "||" || op === "&&" || op === "??") return join(at(l, row), r);
    // Python's `"... %s" % x` formats text.
    if (op === "%" && (typeof l.known === "string" || l.literal !== "")) return derived([l, r], row);
    // Arithmetic, comparison and logic give numbers and booleans: they carry no text.
    return { ...CONSTANT, rows: union(l.rows, r.rows, row) };
  }

  private assign(node: SgNode, state: State, row: number): FlowValue {
    // Go writes both sides as lists: `q := x` is a list of one, `a, b := x, y` of two.
    const single = (n: SgNode | null) => {
      const named = n?.namedChildren() ?? [];
      return n && String(n.kind()) === "expression_list" && named.length === 1 && named[0] ? named[0] : n;
    };
    const left = single(node.field("left"));
    const right = single(node.field("right"));
    const op = node.field("operator")?.text() ?? "=";
    if (!left || !right) return right ? this.expr(right, state) : CONSTANT;
    const r = this.expr(right, state);
    const target = String(left.kind());
    if (this.t.identifierKinds.includes(target)) {
      const name = left.text();
      const value = op === "+=" ? concat(this.name(name, state, row), r, row) : op === "=" ? at(r, row) : CONSTANT;
      state.env.set(name, value);
      return value;
    }
    if (PATTERN_KINDS.has(target)) {
      this.bind(left, r, state);
      return r;
    }
    if (this.t.indexKinds.includes(target)) {
      const array = left.field("array") ?? left.field("value") ?? left.field("object");
      const index = left.field("index") ?? left.field("subscript");
      const name = array?.text() ?? "";
      const a = state.env.get(name);
      const i = index ? this.expr(index, state) : CONSTANT;
      if (a?.entries && i.known !== undefined) {
        const entries = new Map(a.entries);
        entries.set(String(i.known), r);
        state.env.set(name, { ...a, entries });
      } else if (a?.items && typeof i.known === "number") {
        const items = [...a.items];
        items[i.known] = r;
        state.env.set(name, { ...a, items });
      } else if (a) state.env.set(name, join(a, { ...CONSTANT, items: undefined, outside: carried(r).outside }));
      return r;
    }
    return r;
  }

  private call(node: SgNode, state: State, row: number): FlowValue {
    const t = this.t;
    const { object, method } = callParts(node, t);
    const argList = node.field("arguments");
    const listed = argList?.namedChildren() ?? [];
    // Keyword arguments (`shell=True`) are read, not passed by position.
    const argNodes = listed.filter((a) => String(a.kind()) !== "keyword_argument" && String(a.kind()) !== "comment");
    const receiver = object ? this.expr(object, state) : undefined;
    const args = argNodes.map((a) => this.expr(a, state));
    if (object && receiver) this.record(object, receiver);
    argNodes.forEach((a, i) => {
      this.record(a, args[i] as FlowValue);
    });
    for (const k of listed) {
      const value = String(k.kind()) === "keyword_argument" ? k.field("value") : null;
      if (value) this.record(value, this.expr(value, state));
    }
    const callee = object ? `${object.text()}.${method}` : method;
    // A call given `&x` may write into `x` whatever it read (Go's `Decode(&req)`, `Scan(&name)`).
    for (const a of argNodes) {
      const target =
        String(a.kind()) === "unary_expression" && a.children()[0]?.text() === "&" ? a.namedChildren()[0] : null;
      if (target && t.identifierKinds.includes(String(target.kind()))) {
        const name = target.text();
        const written = derived(receiver ? [receiver, ...args] : args, row);
        state.env.set(name, join(state.env.get(name) ?? CONSTANT, written));
      }
    }
    if (t.sourceMethods.test(method) || t.sourceCallees?.test(callee)) return at(SOURCE, row);
    if (!object && t.newList.test(method))
      return { ...CONSTANT, rows: [row], items: args[0]?.items ? [...args[0].items] : [] };
    if (!object && t.newMap.test(method))
      return { ...CONSTANT, rows: [row], entries: args[0]?.entries ? new Map(args[0].entries) : new Map() };
    if (t.sanitizers.test(callee) || t.scalarMethods.test(method)) return { ...CONSTANT, rows: [row] };
    if (t.escapingFormats?.test(callee)) return at(args[0] ?? CONSTANT, row);
    if (t.listOf.test(callee)) return { ...CONSTANT, rows: [row], items: args };
    if (t.printfCalls?.test(callee) && typeof args[0]?.known === "string") {
      const verbs = [...args[0].known.matchAll(/%[-+# 0-9.*]*([a-zA-Z%])/g)].map((m) => m[1]).filter((v) => v !== "%");
      const spliced = args.slice(1).filter((_, i) => !/^[dfegbocxXEGUt]$/.test(verbs[i] ?? "v"));
      return derived([args[0], ...spliced], row);
    }
    // Go's `append(list, x...)`: the list with more elements.
    if (!object && t.appendFunction?.test(method) && args[0]) {
      const [list, ...more] = args;
      return list.items ? { ...list, rows: [row], items: [...list.items, ...more] } : derived(args, row);
    }
    // The file's own functions, called plainly or on `this` or a new object: their returns.
    const own = this.functions.get(method)?.find((f) => paramCount(f, t) === argNodes.length);
    if (own && (!object || t.selfNames.test(object.text()) || t.constructorKinds.includes(String(object.kind())))) {
      if (this.depth <= MAX_CALL_DEPTH) return this.callFunction(own, args, row);
    }
    const name = object && t.identifierKinds.includes(String(object.kind())) ? object.text() : undefined;
    const r = receiver ?? CONSTANT;
    // A known string's own methods.
    if (typeof r.known === "string") {
      const s = r.known;
      const [a0, a1] = args.map((a) => a.known);
      if (method === "charAt" && typeof a0 === "number") return known(s.charAt(a0), row);
      if (method === "toUpperCase") return known(s.toUpperCase(), row);
      if (method === "toLowerCase") return known(s.toLowerCase(), row);
      if (method === "trim") return known(s.trim(), row);
      if (method === "substring" && typeof a0 === "number")
        return known(typeof a1 === "number" ? s.substring(a0, a1) : s.substring(a0), row);
    }
    // Lists and maps held by a local.
    if (r.items && name) {
      const items = [...r.items];
      const [i0] = args;
      if (t.listAdd.test(method) && args.length === 1)
        return this.update(state, name, { ...r, items: [...items, i0 as FlowValue] });
      if (t.listInsert.test(method) && args.length === 2 && typeof i0?.known === "number") {
        items.splice(i0.known, 0, args[1] as FlowValue);
        return this.update(state, name, { ...r, items });
      }
      if (method === "addAll" || method === "extend")
        return this.update(state, name, { ...r, items: [...items, ...(i0?.items ?? [anyItem(i0 ?? CONSTANT)])] });
      if (t.listRemoveAt.test(method) && typeof i0?.known === "number") {
        const removed = items.splice(i0.known, 1)[0] ?? CONSTANT;
        this.update(state, name, { ...r, items });
        return removed;
      }
      if (method === "set" && typeof i0?.known === "number") {
        items[i0.known] = args[1] ?? CONSTANT;
        return this.update(state, name, { ...r, items });
      }
      if (method === "get" && i0) return at(itemAt(r, i0), row);
    }
    if (r.entries && name) {
      const key = args[0]?.known;
      if ((method === "put" || method === "setProperty" || method === "set") && key !== undefined && args[1]) {
        const entries = new Map(r.entries);
        entries.set(String(key), args[1]);
        this.update(state, name, { ...r, entries });
        return CONSTANT;
      }
      if ((method === "get" || method === "getProperty" || method === "getOrDefault") && key !== undefined) {
        const hit = r.entries.get(String(key));
        if (hit) return at(hit, row);
        return at(args[1] ?? CONSTANT, row);
      }
    }
    // Text builders: `sb.append(x)` gives `sb` more text.
    if (t.appendMethods.test(method) && object) {
      const arg = method === "insert" ? args[1] : args[0];
      const grown = concat(r, arg ?? CONSTANT, row);
      const root = chainRoot(object, t);
      if (root && state.builders.has(root)) state.env.set(root, grown);
      return grown;
    }
    if (/^(toString|valueOf|intern|strip|trim|toCharArray|getBytes|name)$/.test(method))
      return derived([r, ...args], row);
    return derived(receiver ? [receiver, ...args] : args, row);
  }

  private construct(node: SgNode, state: State, row: number): FlowValue {
    const t = this.t;
    const type = ((node.field("type") ?? node.field("constructor"))?.text() ?? "").replace(/<.*>$/, "");
    const argNodes = node.field("arguments")?.namedChildren() ?? [];
    const args = argNodes.map((a) => this.expr(a, state));
    argNodes.forEach((a, i) => {
      this.record(a, args[i] as FlowValue);
    });
    if (t.newList.test(type)) {
      const from = args[0];
      return { ...CONSTANT, rows: [row], items: from?.items ? [...from.items] : [] };
    }
    if (t.newMap.test(type)) return { ...CONSTANT, rows: [row], entries: new Map() };
    if (t.newBuilder.test(type))
      return args[0] && !/^\d/.test(String(args[0].known ?? "")) ? at(args[0], row) : known("", row);
    return derived(args, row);
  }

  /** Go's composite literal: a slice's elements in order, a map's entries by constant key. */
  private composite(node: SgNode, state: State, row: number): FlowValue {
    const body = node.field("body");
    const elements = body?.namedChildren().filter((c) => String(c.kind()) !== "comment") ?? [];
    const inner = (e: SgNode | null | undefined): FlowValue => {
      const v = e && String(e.kind()) === "literal_element" ? e.namedChildren()[0] : e;
      return v ? this.expr(v, state) : CONSTANT;
    };
    if (elements.some((e) => String(e.kind()) === "keyed_element")) {
      const entries = new Map<string, FlowValue>();
      let other: FlowValue = CONSTANT;
      for (const e of elements) {
        const [key, value] = e.namedChildren();
        const k = inner(key).known;
        if (k !== undefined) entries.set(String(k), inner(value));
        else other = join(other, inner(value));
      }
      return { ...other, rows: [row], entries };
    }
    return { ...CONSTANT, rows: [row], items: elements.map((e) => inner(e)) };
  }

  /** Destructuring: `a, b = x, y`, `[a, b] = xs`, `{ a, b } = obj` give each name its part. */
  private bind(target: SgNode, value: FlowValue, state: State): void {
    const kind = String(target.kind());
    if (this.t.identifierKinds.includes(kind)) {
      state.env.set(target.text(), value);
      return;
    }
    if (LIST_PATTERNS.has(kind)) {
      target.namedChildren().forEach((c, i) => {
        this.bind(c, value.items?.[i] ?? itemAt(value, CONSTANT), state);
      });
      return;
    }
    // An object pattern and anything else: each name may hold any part of the value.
    const part = itemAt(value, CONSTANT);
    for (const id of target.findAll({ rule: { kind: "identifier" } })) state.env.set(id.text(), part);
    for (const id of target.findAll({ rule: { kind: "shorthand_property_identifier_pattern" } }))
      state.env.set(id.text(), part);
  }

  private update(state: State, name: string, value: FlowValue): FlowValue {
    state.env.set(name, value);
    return value;
  }

  private record(node: SgNode, value: FlowValue): void {
    const id = node.id();
    const had = this.values.get(id);
    this.values.set(id, had ? join(had, value) : value);
  }
}

/** Targets that take a value apart. */
const LIST_PATTERNS = new Set(["pattern_list", "tuple_pattern", "list_pattern", "array_pattern", "expression_list"]);
const PATTERN_KINDS = new Set([...LIST_PATTERNS, "object_pattern"]);

/** Operators written as words. */
const OPERATORS: Record<string, string> = { and: "&&", or: "||", not: "!", is: "==", "is not": "!=" };

/** A call's receiver and method name: `object`/`name` fields (Java), or a `function` that is an attribute or a name. */
function callParts(node: SgNode, t: FlowSyntax): { object: SgNode | null; method: string } {
  const fn = node.field("function");
  if (!fn) return { object: node.field("object"), method: node.field("name")?.text() ?? "" };
  if (t.fieldAccessKinds.includes(String(fn.kind()))) {
    const name = fn.field("attribute") ?? fn.field("property") ?? fn.field("field");
    return { object: fn.field("object") ?? fn.field("operand"), method: name?.text() ?? "" };
  }
  return { object: null, method: fn.text() };
}

/** What makes two argument values read differently by a function: a memo key. */
function signature(v: FlowValue): string {
  const c = carried(v);
  const head = `${c.outside ? "o" : "c"}${c.source ? "s" : ""}${v.known !== undefined ? `=${String(v.known)}` : ""}`;
  const items = v.items ? `[${v.items.map(signature).join(",")}]` : "";
  const entries = v.entries ? `{${[...v.entries].map(([k, e]) => `${k}:${signature(e)}`).join(",")}}` : "";
  return head + items + entries;
}

function paramCount(fn: SgNode, t: FlowSyntax): number {
  return (fn.field("parameters")?.namedChildren() ?? []).filter((p) => t.parameterKinds.includes(String(p.kind())))
    .length;
}

/** The local a chain of calls starts from: `sb` of `sb.append(a).append(b)`. */
function chainRoot(node: SgNode, t: FlowSyntax): string | undefined {
  let cur: SgNode | null = node;
  while (cur && t.callKinds.includes(String(cur.kind()))) cur = cur.field("object");
  return cur && t.identifierKinds.includes(String(cur.kind())) ? cur.text() : undefined;
}

function itemAt(collection: FlowValue, index: FlowValue): FlowValue {
  if (typeof collection.known === "string" && typeof index.known === "number") {
    const i = index.known < 0 ? collection.known.length + index.known : index.known;
    return known(collection.known.charAt(i));
  }
  if (collection.items && typeof index.known === "number") {
    return collection.items[index.known] ?? anyItem(collection);
  }
  if (collection.entries && index.known !== undefined) {
    return collection.entries.get(String(index.known)) ?? anyItem(collection);
  }
  const any = anyItem(collection);
  const c = carried(collection);
  return { ...any, outside: c.outside, source: c.source };
}

/** The text of a string literal, its quotes removed. */
function stringText(text: string): string {
  const bare = text.replace(/^[a-zA-Z]*/, "");
  if (bare.startsWith('"""') || bare.startsWith("'''")) return bare.slice(3, -3);
  return bare.slice(1, -1);
}

/** A constant operation on two known operands; undefined when either is unknown. */
function fold(op: string, a: FlowValue["known"], b: FlowValue["known"]): string | number | boolean | undefined {
  if (a === undefined || b === undefined) return undefined;
  if (typeof a === "number" && typeof b === "number") {
    switch (op) {
      case "+":
        return a + b;
      case "-":
        return a - b;
      case "*":
        return a * b;
      case "/":
        return b === 0 ? undefined : Math.trunc(a / b);
      case "%":
        return b === 0 ? undefined : a % b;
      case ">":
        return a > b;
      case "<":
        return a < b;
      case ">=":
        return a >= b;
      case "<=":
        return a <= b;
    }
  }
  if (op === "in" && typeof a === "string" && typeof b === "string") return b.includes(a);
  if (op === "not in" && typeof a === "string" && typeof b === "string") return !b.includes(a);
  if (op === "==") return a === b;
  if (op === "!=") return a !== b;
  if (op === "&&" && typeof a === "boolean" && typeof b === "boolean") return a && b;
  if (op === "||" && typeof a === "boolean" && typeof b === "boolean") return a || b;
  if (op === "+" && (typeof a === "string" || typeof b === "string")) return `${a}${b}`;
  return undefined;
}

function union(a: readonly number[], b: readonly number[], row: number): number[] {
  return [...new Set([...a, ...b, row])];
}

function fork(state: State): State {
  return { env: new Map(state.env), builders: new Set(state.builders), live: state.live };
}

/** Where two paths meet: each local holds what either path gave it. */
function merge(a: State, b: State): State {
  if (!a.live) return b;
  if (!b.live) return a;
  const env = new Map(a.env);
  for (const [k, v] of b.env) env.set(k, env.has(k) ? join(env.get(k) as FlowValue, v) : v);
  return { env, builders: new Set([...a.builders, ...b.builders]), live: true };
}
