import type { SgNode } from "@ast-grep/napi";
import { methodOnValue } from "./flow-methods.js";
import { FlowTexts } from "./flow-texts.js";
import { quoteOf, strippedToPlain } from "./flow-guards.js";
import type { FlowSyntax } from "./flow-table.js";
import {
  callParts,
  fieldOf,
  chainRoot,
  fold,
  itemAt,
  OPERATORS,
  PATTERN_KINDS,
  parametersOf,
  receiverFirst,
  stringText,
  type State,
  union,
} from "./flow-state.js";
import { at, carried, concat, CONSTANT, derived, join, known, OUTSIDE, SOURCE, type FlowValue } from "./flow-value.js";

/** How many visits of one expression are kept apart; later ones join the last. */
const MAX_VISITS = 16;

/** How deep calls of the file's own functions are followed. */
export const MAX_CALL_DEPTH = 3;

/**
 * The expressions of `FlowReader`'s abstract run: what each expression may hold in a path's
 * state (constants folded, strings built, collections and builders followed, calls of the file's
 * own functions run through `callFunction`), and where each call's receiver and arguments are
 * recorded for `valueAt`.
 */
export abstract class FlowExpressions extends FlowTexts {
  protected readonly values = new Map<number, FlowValue>();
  /** What each visit of a call's receiver or argument gave, apart (a run from outside data, a run from a call's constants). */
  protected readonly visits = new Map<number, FlowValue[]>();
  protected readonly functions = new Map<string, SgNode[]>();
  protected readonly fields = new Map<string, SgNode | null>();
  /** Names bound by imports: modules and types, never data. */
  protected readonly imported = new Set<string>();
  /** Names imported from a module by name, and what the module calls them (`quote` → `shlex.quote`). */
  protected readonly qualified = new Map<string, string>();
  protected depth = 0;
  /** Runs of a function from a call with its arguments in progress: visits then come from a caller. */
  protected fromCall = 0;
  /** What each visit made within a run from a call gave (a caller's values, never the parameters' outside data). */
  protected readonly callerVisits = new Map<number, FlowValue[]>();
  /**
   * What the locals of the function around a nested one held where the nested one is written (a
   * callback, `new Promise(function () {...})`), joined over every visit, by the nested function:
   * the names it borrows (`borrowed` in the reader). A name some visit lacked is left out.
   */
  protected readonly captured = new Map<number, Map<string, FlowValue>>();

  /** Runs a function of the file with its parameters bound to `args` (outside data when not given); its returns joined. */
  protected abstract callFunction(fn: SgNode, args: readonly FlowValue[] | undefined, row: number): FlowValue;

  /** What a function of another project file returns for `args`, where the call names one the file imports; undefined otherwise. */
  protected abstract importedCall(
    object: SgNode | null,
    method: string,
    args: readonly FlowValue[],
  ): FlowValue | undefined;

  protected expr(node: SgNode, state: State): FlowValue {
    const t = this.t;
    const kind = String(node.kind());
    const row = node.range().start.line;
    if (t.stringKinds.includes(kind)) return this.string(node, state, row);
    // Text of a string met outside a string kind (PHP's heredoc body).
    if (t.stringContentKinds.includes(kind)) return known(node.text(), row);
    if (kind === "macro_invocation") return this.macro(node, state, row);
    if (kind === t.heredoc?.marker) {
      const body = this.heredocBody(node);
      return body ? this.string(body, state, row) : at(OUTSIDE, row);
    }
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
    if (t.booleanKinds.includes(kind)) return known(node.text().toLowerCase() === "true", row);
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
        const key = fieldOf(pair, "key", this.t);
        const value = fieldOf(pair, "value", this.t);
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
      const value = fieldOf(node, "value", this.t);
      const v = value ? this.expr(value, state) : CONSTANT;
      return /^(int|long|short|byte|double|float|boolean|char)$/.test(fieldOf(node, "type", this.t)?.text() ?? "")
        ? { ...CONSTANT, rows: v.rows }
        : v;
    }
    if (t.fieldAccessKinds.includes(kind)) return this.fieldAccess(node, state, row);
    if (t.indexKinds.includes(kind)) {
      // Fields where the grammar names them (`expression` in C#); else the first two children (PHP, Ruby).
      const [first, second] = node.namedChildren();
      const array =
        fieldOf(node, "array", this.t) ??
        fieldOf(node, "value", this.t) ??
        fieldOf(node, "object", this.t) ??
        fieldOf(node, "operand", this.t) ??
        fieldOf(node, "expression", this.t) ??
        first;
      const index =
        fieldOf(node, "index", this.t) ?? fieldOf(node, "subscript", this.t) ?? (array === first ? second : undefined);
      const a = array ? this.expr(array, state) : OUTSIDE;
      const i = index ? this.expr(index, state) : CONSTANT;
      return at(itemAt(a, i), row);
    }
    if (t.compositeKinds.includes(kind)) return this.composite(node, state, row);
    if (t.arrayKinds.includes(kind)) {
      // `return q` in Go is a list of one.
      const named = node.namedChildren();
      if (kind === "expression_list" && named.length === 1 && named[0]) return this.expr(named[0], state);
      // A creation's elements are in its initializer: its `value` field, or its array child (C#'s `new[] {...}`).
      const creation = t.arrayCreationKinds.includes(kind);
      const value =
        fieldOf(node, "value", this.t) ??
        (creation ? named.find((c) => t.arrayKinds.includes(String(c.kind()))) : undefined);
      const init = value && t.arrayKinds.includes(String(value.kind())) ? value : node;
      if (init === node && creation) return { ...CONSTANT, items: [], rows: [row] };
      // PHP's `[k => v]` elements: the value is the element's last child.
      const element = (c: SgNode) =>
        String(c.kind()) === "array_element_initializer" ? (c.namedChildren().at(-1) ?? c) : c;
      return { ...CONSTANT, rows: [row], items: init.namedChildren().map((c) => this.expr(element(c), state)) };
    }
    if (t.binaryKinds.includes(kind)) return this.binary(node, state, row);
    if (t.unaryKinds.includes(kind)) {
      const operand = fieldOf(node, "operand", this.t) ?? fieldOf(node, "argument", this.t) ?? node.namedChildren()[0];
      const v = operand ? this.expr(operand, state) : CONSTANT;
      const op = fieldOf(node, "operator", this.t)?.text() ?? node.children()[0]?.text();
      if ((op === "!" || op === "not") && typeof v.known === "boolean") return known(!v.known, row);
      if (op === "-" && typeof v.known === "number") return known(-v.known, row);
      // `&x`, `*p`, `<-ch` give the value itself; negation and the like give a number or a boolean.
      if (op === "&" || op === "*" || op === "<-") return at(v, row);
      return { ...CONSTANT, rows: [row] };
    }
    // An `if` that gives a value (Kotlin, Rust, Ruby): what its live branches end with.
    if (t.ifKinds.includes(kind)) return this.ifValue(node, state, row);
    if (t.ternaryKinds.includes(kind)) {
      // Python's `a if c else b` names no fields: its parts are in that order.
      const parts = node.namedChildren();
      const condition = fieldOf(node, "condition", this.t) ?? parts[1];
      const yes = fieldOf(node, "consequence", this.t) ?? fieldOf(node, "body", this.t) ?? parts[0];
      const no = fieldOf(node, "alternative", this.t) ?? parts[2];
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
    // A block met as a value (a `when` branch, a `match` arm) may run: its statements' effects
    // join the path's, and its value is its last expression's.
    if (t.valueBlockKinds?.includes(kind)) return this.maybeRun(node, state);
    if (t.functionKinds.includes(kind)) this.capture(node, state);
    if (t.functionKinds.includes(kind) || t.classKinds.includes(kind) || t.blockKinds.includes(kind)) return CONSTANT;
    if (t.definitionKinds.includes(kind)) return CONSTANT;
    return derived(
      node.namedChildren().map((c) => this.expr(c, state)),
      row,
    );
  }

  /** Keeps what the path's locals hold where a nested function is written (`captured`). */
  protected capture(fn: SgNode, state: State): void {
    const had = this.captured.get(fn.id());
    if (!had) {
      this.captured.set(fn.id(), new Map(state.env));
      return;
    }
    for (const [name, value] of had) {
      const now = state.env.get(name);
      if (now) had.set(name, join(value, now));
      else had.delete(name);
    }
  }

  protected name(name: string, state: State, row: number): FlowValue {
    const local = state.env.get(name);
    if (local) return at(local, row);
    if (this.t.sourceNames?.test(name)) return at(SOURCE, row);
    if (this.imported.has(name)) return { ...CONSTANT, rows: [row] };
    return (
      this.field(name, state, row) ??
      (/^[A-Z]/.test(name) ? { ...CONSTANT, rows: [row] } : (this.moduleName(name, row) ?? at(OUTSIDE, row)))
    );
  }

  /** What the module's top level gives each name it binds only by plain assignment; null for one bound otherwise. */
  private moduleBindings: Map<string, SgNode[] | null> | undefined;

  /**
   * A name the module's top level binds (`moduleNames`): what its plain assignments there give,
   * each read on its own, when that is plain data; data from outside when it is not; undefined for
   * a name it does not bind so, or binds any other way too.
   */
  private moduleName(name: string, row: number): FlowValue | undefined {
    const values = this.moduleValues().get(name);
    if (!values || values.length === 0) return undefined;
    // `const config = require("../config")`: a module, as `import config from "../config"` binds.
    const load = this.t.moduleNames?.load;
    if (load && values.every((v) => load.test(v.text()))) return { ...CONSTANT, rows: [row] };
    // Only plain data counts: a constant's text, a choice of constants, a list or map of them. A
    // name given a call's result (`root = Path(__file__)`) stays outside data.
    return this.readOnce(`module:${name}`, values, row, (v) =>
      !v.outside &&
      (v.known !== undefined || v.choices !== undefined || v.items !== undefined || v.entries !== undefined)
        ? v
        : OUTSIDE,
    );
  }

  /**
   * The module's names and their top-level values, read once: a walk of the top level that stops at
   * functions and classes, then one search for assignments (any not on the top level rebinds its
   * name) and, where the language has one, for its rebinding statement.
   */
  private moduleValues(): Map<string, SgNode[] | null> {
    if (this.moduleBindings) return this.moduleBindings;
    const t = this.t;
    const bindings = new Map<string, SgNode[] | null>();
    this.moduleBindings = bindings;
    const scope = t.moduleNames;
    if (!scope) return bindings;
    const give = (name: string, value: SgNode | null) => {
      const before = bindings.get(name);
      if (before === null) return;
      bindings.set(name, value ? [...(before ?? []), value] : null);
    };
    const topLevel = new Set<number>();
    const walk = (node: SgNode): void => {
      for (const child of node.namedChildren()) {
        const kind = String(child.kind());
        if (t.functionKinds.includes(kind) || t.classKinds.includes(kind)) continue;
        if (t.assignmentKinds.includes(kind)) {
          topLevel.add(child.id());
          const left = fieldOf(child, "left", t);
          const plain = child.children().some((c) => c.text() === "=");
          if (left && t.identifierKinds.includes(String(left.kind())))
            give(left.text(), plain ? fieldOf(child, "right", t) : null);
        } else if (t.declaratorKinds.includes(kind)) {
          const id = fieldOf(child, "name", t);
          const value = fieldOf(child, "value", t);
          if (id && t.identifierKinds.includes(String(id.kind())) && value) give(id.text(), value);
        } else if (
          (t.identifierKinds.includes(kind) && scope.otherBindings.includes(String(node.kind()))) ||
          kind.endsWith("_identifier_pattern")
        ) {
          // A loop's variable, a pattern's name (`const { a } = ...`), `i++`: bound from what is not read here.
          give(child.text(), null);
        }
        walk(child);
      }
    };
    walk(this.root);
    for (const a of this.root.findAll({ rule: { any: t.assignmentKinds.map((kind) => ({ kind })) } })) {
      if (topLevel.has(a.id())) continue;
      const left = fieldOf(a, "left", t);
      if (left && t.identifierKinds.includes(String(left.kind())) && bindings.has(left.text()))
        bindings.set(left.text(), null);
    }
    if (scope.rebinding) {
      for (const g of this.root.findAll({ rule: { kind: scope.rebinding } })) {
        for (const id of g.namedChildren()) if (bindings.has(id.text())) bindings.set(id.text(), null);
      }
    }
    return bindings;
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

  /** The values the file assigns to each of its fields (`this.x = v`), once read; `null` for a field built on (`+=`). */
  private assigned: Map<string, SgNode[] | null> | undefined;
  /** Fields whose assignments are being read: a field read in its own assignment adds nothing. */
  private readonly reading = new Set<string>();
  /** Fields' values by assignment, once read; and the fields met while still being read. */
  private readonly fieldValues = new Map<string, FlowValue>();
  private readonly cycles: string[] = [];

  /**
   * Where fields are made by assigning them (`fieldsByAssignment`), what a field may hold: what
   * every assignment the file makes to it gives, each read on its own (data from outside for the
   * names it uses); undefined when the file never assigns it (or builds on it with `+=`).
   */
  private assignedField(name: string, row: number): FlowValue | undefined {
    const t = this.t;
    if (!t.fieldsByAssignment) return undefined;
    if (!this.assigned) {
      const assigned = new Map<string, SgNode[] | null>();
      this.assigned = assigned;
      const ownField = (n: SgNode): string | undefined => {
        if (!t.fieldAccessKinds.includes(String(n.kind()))) return undefined;
        const object = fieldOf(n, "object", t);
        const field = (fieldOf(n, "property", t) ?? fieldOf(n, "attribute", t))?.text();
        return object && field && t.selfNames.test(object.text()) ? field : undefined;
      };
      // Fields set by name or through the object's dictionary (`setattr(self, k, v)`) could be any.
      if (t.dynamicFields?.test(this.root.text())) return undefined;
      for (const a of this.root.findAll({ rule: { any: t.assignmentKinds.map((kind) => ({ kind })) } })) {
        const left = fieldOf(a, "left", t);
        const right = fieldOf(a, "right", t);
        if (!left) continue;
        const field = ownField(left);
        // A field among several targets (`self.a, self.b = f()`) holds a part of a value: any.
        if (!field && t.identifierKinds.includes(String(left.kind()))) continue;
        if (!field) {
          for (const n of left.findAll({ rule: { any: t.fieldAccessKinds.map((kind) => ({ kind })) } })) {
            const inner = ownField(n);
            if (inner) assigned.set(inner, null);
          }
          continue;
        }
        const plain = right !== null && a.children().some((c) => c.text() === "=");
        const before = assigned.get(field);
        assigned.set(field, plain && right && before !== null ? [...(before ?? []), right] : null);
      }
      // A field bound by a loop or a `with ... as` is whatever it iterates or enters.
      const targets = t.fieldTargets ?? [];
      if (targets.length > 0) {
        for (const target of this.root.findAll({ rule: { any: targets.map((kind) => ({ kind })) } })) {
          const left = fieldOf(target, "left", t) ?? target;
          for (const n of [left, ...left.findAll({ rule: { any: t.fieldAccessKinds.map((k) => ({ kind: k })) } })]) {
            const inner = ownField(n);
            if (inner) assigned.set(inner, null);
          }
        }
      }
    }
    const values = this.assigned.get(name);
    if (!values) return undefined;
    return this.readOnce(name, values, row, (v) => v);
  }

  /**
   * What the values given to a field or module name (`key`) join to, read once each with an empty
   * scope and kept (as `keep` makes it); a name met again while it is still being read adds nothing.
   */
  private readOnce(key: string, values: readonly SgNode[], row: number, keep: (v: FlowValue) => FlowValue): FlowValue {
    const known = this.fieldValues.get(key);
    if (known) return at(known, row);
    if (this.reading.has(key)) {
      this.cycles.push(key);
      return { ...CONSTANT, rows: [row] };
    }
    const cycles = this.cycles.length;
    this.reading.add(key);
    const v = keep(values.map((n) => this.expr(n, { env: new Map(), builders: new Set(), live: true })).reduce(join));
    this.reading.delete(key);
    // Read once; a value read while another name's was still being read stays unkept.
    if (this.cycles.slice(cycles).every((n) => n === key)) this.fieldValues.set(key, v);
    if (this.reading.size === 0) this.cycles.length = 0;
    return at(v, row);
  }

  private fieldAccess(node: SgNode, state: State, row: number): FlowValue {
    const object =
      fieldOf(node, "object", this.t) ??
      fieldOf(node, "operand", this.t) ??
      fieldOf(node, "expression", this.t) ??
      fieldOf(node, "value", this.t);
    const field =
      (
        fieldOf(node, "field", this.t) ??
        fieldOf(node, "attribute", this.t) ??
        fieldOf(node, "property", this.t) ??
        fieldOf(node, "name", this.t)
      )?.text() ?? "";
    const route = this.t.routePath?.attribute.test(node.text()) ? this.fixedRoute(node, row) : undefined;
    if (route) return route;
    if (this.t.sourceAttributes?.test(node.text())) return at(SOURCE, row);
    if (object && this.t.selfNames.test(object.text())) {
      return this.field(field, state, row) ?? this.assignedField(field, row) ?? at(OUTSIDE, row);
    }
    // A constant (`Config.MAX`, `Mode.READ`), a class named with its package, an array's length.
    if (/^[A-Z][A-Z0-9_]*$/.test(field) || field === "length") return { ...CONSTANT, rows: [row] };
    if (/^([a-z_]\w*\.)*[A-Z]\w*$/.test(node.text()) && !state.env.has(node.text().split(".")[0] ?? ""))
      return { ...CONSTANT, rows: [row] };
    return derived([object ? this.expr(object, state) : OUTSIDE], row);
  }

  /**
   * The path a view's request has when every route its decorators name is fixed (Flask's
   * `@app.route('/a/b')` with no `<var>`): one of those routes; undefined otherwise.
   */
  private fixedRoute(node: SgNode, row: number): FlowValue | undefined {
    const t = this.t;
    const route = t.routePath;
    const holder = this.enclosingFunction(node)?.parent();
    if (!route || !holder || !t.definitionKinds.includes(String(holder.kind()))) return undefined;
    const routes = holder
      .namedChildren()
      .map((d) => route.decorator.exec(d.text())?.[3])
      .filter((r): r is string => r !== undefined);
    if (routes.length === 0 || routes.some((r) => route.variable.test(r))) return undefined;
    return routes.map((r) => known(r, row)).reduce((a, b) => join(a, b));
  }

  private binary(node: SgNode, state: State, row: number): FlowValue {
    const named = node.namedChildren();
    const left = fieldOf(node, "left", this.t) ?? named[0];
    const right = fieldOf(node, "right", this.t) ?? named[1];
    const written =
      fieldOf(node, "operator", this.t)?.text() ??
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
    // Ruby's `q << x` appends to the local `q`.
    if (this.t.appendOperators?.test(op)) {
      const grown = concat(l, r, row);
      if (left && this.t.identifierKinds.includes(String(left.kind()))) state.env.set(left.text(), grown);
      return grown;
    }
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
    const written0 = single(fieldOf(node, "left", this.t));
    // Kotlin's `directly_assignable_expression` around a plain name.
    const inner = written0?.namedChildren();
    const left =
      written0 && this.t.wrapperKinds.includes(String(written0.kind())) && inner?.length === 1
        ? (inner[0] ?? null)
        : written0;
    const right = single(fieldOf(node, "right", this.t));
    // The operator's field, else its token (PHP's `.=`, Ruby's `+=`).
    const written =
      fieldOf(node, "operator", this.t)?.text() ??
      node
        .children()
        .find((c) => !c.isNamed() && /=$/.test(c.text()))
        ?.text() ??
      "=";
    // Go's `:=` assigns; PHP's `.=` appends.
    const op = written === ":=" ? "=" : written === ".=" ? "+=" : written;
    if (!left || !right) return right ? this.expr(right, state) : CONSTANT;
    const r = this.expr(right, state);
    const target = String(left.kind());
    if (this.t.identifierKinds.includes(target)) {
      const name = left.text();
      const before = () => this.name(name, state, row);
      const value =
        op === "+=" || op === "<<="
          ? concat(before(), r, row)
          : op === "="
            ? at(r, row)
            : op === "||=" || op === "??="
              ? join(before(), at(r, row))
              : CONSTANT;
      state.env.set(name, value);
      return value;
    }
    if (PATTERN_KINDS.has(target)) {
      this.bind(left, r, state);
      return r;
    }
    if (this.t.indexKinds.includes(target)) {
      const array = fieldOf(left, "array", this.t) ?? fieldOf(left, "value", this.t) ?? fieldOf(left, "object", this.t);
      const index = fieldOf(left, "index", this.t) ?? fieldOf(left, "subscript", this.t);
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
    const argList = fieldOf(node, "arguments", this.t);
    const listed = argList?.namedChildren() ?? [];
    // Keyword arguments (`shell=True`) are read, not passed by position.
    const argNodes = listed
      .filter((a) => String(a.kind()) !== "keyword_argument" && String(a.kind()) !== "comment")
      .map((a) => this.unwrapped(a));
    const receiver = object ? this.expr(object, state) : undefined;
    const args = argNodes.map((a) => this.expr(a, state));
    if (object && receiver) this.record(object, receiver);
    argNodes.forEach((a, i) => {
      this.record(a, args[i] as FlowValue);
    });
    for (const k of listed) {
      const value = String(k.kind()) === "keyword_argument" ? fieldOf(k, "value", this.t) : null;
      if (value) this.record(value, this.expr(value, state));
    }
    const callee = object ? `${object.text()}.${method}` : (this.qualified.get(method) ?? method);
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
    // Kotlin's constructors are calls: `StringBuilder("SELECT ")`.
    if (!object && t.constructorKinds.length === 0 && t.newBuilder.test(method))
      return args[0] && !/^\d/.test(String(args[0].known ?? "")) ? at(args[0], row) : known("", row);
    if (!object && t.newMap.test(method))
      return { ...CONSTANT, rows: [row], entries: args[0]?.entries ? new Map(args[0].entries) : new Map() };
    if (t.sanitizers.test(callee) || t.scalarMethods.test(method)) return { ...CONSTANT, rows: [row] };
    if (object && escapesQuotes(method, argNodes, args, t)) return { ...CONSTANT, rows: [row] };
    if (strips(object, method, callee, argNodes, args, t)) return { ...CONSTANT, rows: [row] };
    // A tagged template whose tag binds its substitutions: a query object, no text spliced in.
    if (argList && String(argList.kind()) === "template_string" && t.bindingTags?.test(callee))
      return { ...CONSTANT, rows: [row] };
    if (t.escapingFormats?.test(callee)) {
      const text = args[0]?.known;
      const f = t.rawFilterFormat;
      const raw = f?.callee.test(callee) === true && (typeof text !== "string" || f.filters.test(text));
      return raw ? derived(args, row) : at(args[0] ?? CONSTANT, row);
    }
    if (t.listOf.test(callee)) return { ...CONSTANT, rows: [row], items: args };
    // pg-format: `%L` and `%I` take a value escaped, `%s` as it is (`%1$s` by position).
    if (t.literalFormatModule && callee === `${t.literalFormatModule}.format` && typeof args[0]?.known === "string") {
      let next = 0;
      const spliced = new Set<number>();
      for (const m of args[0].known.matchAll(/%(?:(\d+)\$)?([ILs%])/g)) {
        if (m[2] === "%") continue;
        const at = m[1] !== undefined ? Number(m[1]) : ++next;
        if (m[2] === "s") spliced.add(at);
      }
      return derived([args[0], ...[...spliced].flatMap((i) => (args[i] ? [args[i]] : []))], row);
    }
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
    const onSelf = object !== null && object !== undefined && t.selfNames.test(object.text());
    const own = this.functions.get(method)?.find((f) => parametersOf(f, t).length === argNodes.length);
    if (own && (!object || onSelf || t.constructorKinds.includes(String(object.kind())))) {
      if (this.depth <= MAX_CALL_DEPTH) return this.callFunction(own, args, row);
    }
    // Python's `self.build(item)`: a method whose first parameter is the object, its arguments after it.
    const bound = onSelf ? this.functions.get(method)?.find((f) => receiverFirst(f, t, argNodes.length)) : undefined;
    if (bound && this.depth <= MAX_CALL_DEPTH) return this.callFunction(bound, [receiver ?? OUTSIDE, ...args], row);
    // A function of the project's own files, imported by a relative path: what it returns for these
    // values, when one may carry outside data (given constants, its result is a constant, as before).
    const imported =
      this.depth <= MAX_CALL_DEPTH && args.some((a) => carried(a).outside)
        ? this.importedCall(object, method, args)
        : undefined;
    if (imported) return { ...imported, rows: [row] };
    // `list.map((x) => ...)`, `_.map(list, (x) => ...)`: what the callback returns for the list's
    // elements. A callback whose one parameter is written bare (`v => ...`) has no parameter list
    // to bind: read as before.
    const listFirst = argNodes.length === 2 && t.mapFunctions?.test(callee) === true;
    const list = listFirst ? args[0] : receiver;
    const callback = listFirst ? argNodes[1] : argNodes.length === 1 ? argNodes[0] : undefined;
    if (
      list &&
      callback &&
      (listFirst || t.mapMethods?.test(method)) &&
      t.functionKinds.includes(String(callback.kind())) &&
      fieldOf(callback, "parameters", t) !== null &&
      this.depth <= MAX_CALL_DEPTH
    ) {
      const element = list.items?.length ? list.items.reduce((a, b) => join(a, b)) : list;
      const given = [element, { ...CONSTANT, rows: [row] }, list].slice(0, parametersOf(callback, t).length);
      return at(this.callFunction(callback, given, row), row);
    }
    // Rows a database gave back: outside data, not the SQL that asked for them.
    if (object && t.queryMethods?.test(method)) return { ...OUTSIDE, rows: [row] };
    const name = object && t.identifierKinds.includes(String(object.kind())) ? object.text() : undefined;
    const r = receiver ?? CONSTANT;
    // A known string's own methods, and the lists and maps a local holds.
    const done = methodOnValue(r, method, args, row, t, name !== undefined);
    if (done) {
      if (done.holder && name) this.update(state, name, done.holder);
      return done.result;
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
    // What a trailing lambda names may reach the result (`buildString { append(p) }`).
    const lambdas = (t.trailingLambdaKinds ?? []).flatMap((kind) => node.findAll({ rule: { kind } }));
    for (const l of lambdas) this.maybeRun(l, state);
    const named = lambdas.flatMap((l) =>
      l
        .findAll({ rule: { any: t.identifierKinds.map((kind) => ({ kind })) } })
        .map((id) => this.name(id.text(), state, row)),
    );
    return derived([...(receiver ? [receiver] : []), ...args, ...named], row);
  }

  private construct(node: SgNode, state: State, row: number): FlowValue {
    const t = this.t;
    const type = ((fieldOf(node, "type", this.t) ?? fieldOf(node, "constructor", this.t))?.text() ?? "").replace(
      /<.*>$/,
      "",
    );
    const list =
      fieldOf(node, "arguments", this.t) ??
      node.namedChildren().find((c) => /^(arguments|argument_list)$/.test(String(c.kind())));
    const argNodes = (list?.namedChildren() ?? []).map((a) => this.unwrapped(a));
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

  private update(state: State, name: string, value: FlowValue): FlowValue {
    state.env.set(name, value);
    return value;
  }

  protected record(node: SgNode, value: FlowValue): void {
    const id = node.id();
    const had = this.values.get(id);
    this.values.set(id, had ? join(had, value) : value);
    keep(this.visits, id, value);
    if (this.fromCall > 0) keep(this.callerVisits, id, value);
  }
}

/** Adds a visit's value to a node's, the last joined with it once there are `MAX_VISITS`. */
function keep(visits: Map<number, FlowValue[]>, id: number, value: FlowValue): void {
  const seen = visits.get(id);
  if (!seen) visits.set(id, [value]);
  else if (seen.length < MAX_VISITS) seen.push(value);
  else seen[seen.length - 1] = join(seen[seen.length - 1] as FlowValue, value);
}

/**
 * Whether a call removes every character outside a closed class (`stripped`): JavaScript's
 * `s.replace(/[^0-9]/g, "")`, Python's `re.sub(r"[^\w]", "", s)` (every match, unless a count is
 * given). What is left is letters, digits, `_` and `.`.
 *
 * @example strips(obj, "replace", "s.replace", [regexNode("/[^0-9]/g"), stringNode('""')], values, JAVASCRIPT) // true
 */
function strips(
  object: SgNode | null,
  method: string,
  callee: string,
  argNodes: readonly SgNode[],
  args: readonly FlowValue[],
  t: FlowSyntax,
): boolean {
  const s = t.stripped;
  if (!s) return false;
  if (object && s.regexMethods?.test(method) && argNodes.length === 2) {
    const [pattern] = argNodes as [SgNode];
    if (String(pattern.kind()) !== "regex" || typeof args[1]?.known !== "string") return false;
    const body = fieldOf(pattern, "pattern", t)?.text() ?? "";
    return strippedToPlain(body, fieldOf(pattern, "flags", t)?.text() ?? "", args[1].known);
  }
  if (s.functions?.test(callee) && argNodes.length === 3) {
    const [pattern] = argNodes as [SgNode];
    const [, replacement] = args;
    if (!t.stringKinds.includes(String(pattern.kind())) || /^[a-zA-Z]*[fF]/.test(pattern.text())) return false;
    return (
      typeof replacement?.known === "string" && strippedToPlain(stringText(pattern.text()), "g", replacement.known)
    );
  }
  return false;
}

/**
 * Whether a call escapes a quote the way SQL does, everywhere in its text (`quoteEscapes`):
 * `s.replace(/'/g, "''")`, `s.replace(/"/g, '\\"')`, `s.replaceAll("'", "''")`.
 *
 * @example escapesQuotes("replace", [regexNode("/'/g"), stringNode("''")], values, JAVASCRIPT) // true
 */
function escapesQuotes(
  method: string,
  argNodes: readonly SgNode[],
  args: readonly FlowValue[],
  t: FlowSyntax,
): boolean {
  const table = t.quoteEscapes;
  if (!table || argNodes.length !== 2) return false;
  const [pattern, replacement] = argNodes as [SgNode, SgNode];
  const regex = String(pattern.kind()) === "regex" ? /^\/\\?(['"`])\/([a-z]*)$/.exec(pattern.text()) : null;
  const quote =
    regex && table.regexMethods.test(method) && regex[2]?.includes("g")
      ? regex[1]
      : table.stringMethods.test(method)
        ? quoteOf(pattern, t) || undefined
        : undefined;
  // A string's known text is as written: its escapes (`"\\'"`) read here as what they stand for.
  const escaped = typeof args[1]?.known === "string" ? args[1].known.replace(/\\(.)/g, "$1") : undefined;
  return (
    quote !== undefined &&
    t.stringKinds.includes(String(replacement.kind())) &&
    (escaped === quote + quote || escaped === `\\${quote}`)
  );
}
