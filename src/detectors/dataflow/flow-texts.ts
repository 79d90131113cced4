import type { SgNode } from "@ast-grep/napi";
import type { FlowSyntax } from "./flow-syntax.js";
import { fieldOf, fork, itemAt, LIST_PATTERNS, type State, stringText } from "./flow-state.js";
import { at, concat, CONSTANT, derived, join, known, type FlowValue } from "./flow-value.js";

/** Named children of an interpolation that are its punctuation, not its value. */
const INTERPOLATION_NOISE =
  /^(interpolation_brace|interpolation_start|interpolation_end|interpolation_format_clause|interpolation_alignment_clause)$/;

/**
 * The literals of `FlowReader`'s abstract run that hold other expressions: strings with their
 * substitutions (interpolations, PHP's embedded variables, Ruby's heredocs), Rust's macros and
 * Go's composite literals, and call arguments through their wrappers.
 */
export abstract class FlowTexts {
  protected constructor(
    protected readonly root: SgNode,
    protected readonly t: FlowSyntax,
  ) {}

  /** What an expression may hold in a path's state. */
  protected abstract expr(node: SgNode, state: State): FlowValue;

  /** What a name holds: a local, a request, a field, or data from outside. */
  protected abstract name(name: string, state: State, row: number): FlowValue;

  /** A string literal: its text, or its parts joined when it substitutes values (an f-string). */
  protected string(node: SgNode, state: State, row: number): FlowValue {
    const t = this.t;
    const bodies = t.stringBodyKinds ?? [];
    const parts = node.children().flatMap((c) => (bodies.includes(String(c.kind())) ? c.children() : [c]));
    const embedded = t.embeddedKinds ?? [];
    const spliced = (k: string) => t.interpolationKinds.includes(k) || embedded.includes(k);
    if (!parts.some((c) => spliced(String(c.kind())))) {
      const content = parts.filter((c) => t.stringContentKinds.includes(String(c.kind())));
      return known(content.length > 0 ? content.map((c) => c.text()).join("") : stringText(node.text()), row);
    }
    let out = known("", row);
    for (const c of parts) {
      const k = String(c.kind());
      if (t.stringContentKinds.includes(k)) out = concat(out, known(c.text()), row);
      else if (embedded.includes(k)) out = concat(out, this.expr(c, state), row);
      else if (t.interpolationKinds.includes(k)) {
        // C#'s `{x}` holds its braces as named children.
        const inner = c.namedChildren().find((x) => !INTERPOLATION_NOISE.test(String(x.kind())));
        out = concat(out, inner ? this.expr(inner, state) : CONSTANT, row);
      }
    }
    return out;
  }

  private bodies: Map<number, SgNode> | undefined;

  /** The body of the heredoc whose marker this is: markers and bodies pair up in order. */
  protected heredocBody(marker: SgNode): SgNode | undefined {
    const heredoc = this.t.heredoc;
    if (!heredoc) return undefined;
    if (!this.bodies) {
      const bodies = this.root.findAll({ rule: { kind: heredoc.body } });
      this.bodies = new Map();
      this.root.findAll({ rule: { kind: heredoc.marker } }).forEach((m, i) => {
        const body = bodies[i];
        if (body) this.bodies?.set(m.id(), body);
      });
    }
    return this.bodies.get(marker.id());
  }

  /** An argument as the call sites give it: a wrapper of one expression (C#'s `argument`) is that expression. */
  protected unwrapped(a: SgNode): SgNode {
    if (!this.t.argumentWrappers?.includes(String(a.kind()))) return a;
    const inner = a.namedChildren();
    return inner.length === 1 && inner[0] ? inner[0] : a;
  }

  /**
   * Rust's macros: `vec![a, b]` is a list; any other (`format!`) makes text of its tokens, the
   * names a format string captures (`"{id}"`) included.
   */
  protected macro(node: SgNode, state: State, row: number): FlowValue {
    const name = (fieldOf(node, "macro", this.t) ?? node.namedChildren()[0])?.text() ?? "";
    const tokens = node.namedChildren().find((c) => String(c.kind()) === "token_tree");
    const parts = (tokens?.namedChildren() ?? []).filter((c) => String(c.kind()) !== "line_comment");
    if (name === "vec") return { ...CONSTANT, rows: [row], items: parts.map((p) => this.expr(p, state)) };
    const values: FlowValue[] = [];
    for (const p of parts) {
      const v = this.expr(p, state);
      values.push(v);
      if (typeof v.known === "string")
        for (const m of v.known.matchAll(/\{([A-Za-z_]\w*)(?::[^}]*)?\}/g))
          values.push(this.name(m[1] ?? "", state, row));
    }
    return derived(values, row);
  }

  /** Go's composite literal: a slice's elements in order, a map's entries by constant key. */
  protected composite(node: SgNode, state: State, row: number): FlowValue {
    const body = fieldOf(node, "body", this.t);
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
  /** The value of an `if` used as an expression: its live branches' last expressions, joined. */
  protected ifValue(node: SgNode, state: State, row: number): FlowValue {
    const t = this.t;
    const cond = fieldOf(node, "condition", t);
    const c = cond ? this.expr(cond, state) : CONSTANT;
    let no = fieldOf(node, "alternative", t);
    if (no && t.elseKinds.includes(String(no.kind()))) no = no.namedChildren().at(-1) ?? null;
    const last = (n: SgNode | null): FlowValue => {
      let cur = n;
      while (cur && t.blockKinds.includes(String(cur.kind()))) cur = cur.namedChildren().at(-1) ?? null;
      return cur ? this.expr(cur, state) : CONSTANT;
    };
    const yes = fieldOf(node, "consequence", t) ?? fieldOf(node, "body", t);
    if (c.known === true) return at(last(yes), row);
    if (c.known === false) return at(last(no), row);
    return at(join(last(yes), last(no)), row);
  }

  /** A declarator's initial value: its `value` field, or the child after its `=` (C#, Kotlin). */
  protected declaredValue(d: SgNode): SgNode | null {
    const value = fieldOf(d, "value", this.t);
    if (value || !this.t.valueIsLastChild) return value;
    const children = d.children();
    const eq = children.findIndex((c) => !c.isNamed() && c.text() === "=");
    return eq < 0 ? null : (children.slice(eq + 1).find((c) => c.isNamed()) ?? null);
  }

  protected insideFunction(node: SgNode): boolean {
    return this.enclosingFunction(node) !== null;
  }

  /** The nearest function around a node (not the node itself); null at a file's top level. */
  protected enclosingFunction(node: SgNode): SgNode | null {
    let fn = node.parent();
    while (fn && !this.t.functionKinds.includes(String(fn.kind()))) fn = fn.parent();
    return fn;
  }

  /** An expression that is a value where it stands, not a statement (a block's last, in Ruby and Rust). */
  protected isValue(node: SgNode): boolean {
    const t = this.t;
    const kind = String(node.kind());
    const statements = [
      ...t.ifKinds,
      ...t.switchKinds,
      ...t.loopKinds,
      ...t.tryKinds,
      ...t.returnKinds,
      ...t.declarationKinds,
      ...t.functionKinds,
      ...t.classKinds,
      ...t.blockKinds,
    ];
    return !statements.includes(kind) && !/(statement|comment|declaration|item)$/.test(kind);
  }

  /** Destructuring: `a, b = x, y`, `[a, b] = xs`, `{ a, b } = obj` give each name its part. */
  protected bind(target: SgNode, value: FlowValue, state: State): void {
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

  /** Runs one statement in a path's state. */
  protected abstract statement(node: SgNode, state: State): State;

  /**
   * Runs a block's statements that may or may not run (a branch met as a value, a lambda given to
   * a call): what they assign joins what the locals held. Its last expression's value.
   */
  protected maybeRun(node: SgNode, state: State): FlowValue {
    const children = node.namedChildren();
    let cur = fork(state);
    let value: FlowValue = CONSTANT;
    children.forEach((c, i) => {
      if (!cur.live) return;
      if (i === children.length - 1 && this.isValue(c)) value = this.expr(c, cur);
      else cur = this.statement(c, cur);
    });
    for (const [k, v] of cur.env) state.env.set(k, state.env.has(k) ? join(state.env.get(k) as FlowValue, v) : v);
    for (const b of cur.builders) state.builders.add(b);
    return value;
  }
}
