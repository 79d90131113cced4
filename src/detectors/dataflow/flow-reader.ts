import type { SgNode } from "@ast-grep/napi";
import type { SyntaxLanguage } from "../code/grammars.js";
import { FlowExpressions } from "./flow-expressions.js";
import { guardedNames } from "./flow-guards.js";
import {
  assigns,
  callParts,
  fieldOf,
  fork,
  merge,
  parametersOf,
  receiverFirst,
  signature,
  type State,
} from "./flow-state.js";
import { FLOW_SYNTAX, type FlowSyntax } from "./flow-syntax.js";
import { anyItem, at, carried, CONSTANT, join, known, OUTSIDE, SOURCE, type FlowValue } from "./flow-value.js";
import { calledExport, DEFAULT_EXPORT } from "./project-imports.js";
import { moduleLocals } from "../code/module-locals.js";

/** A function longer than this many statements is read with its parameters only, not followed. */
const MAX_STATEMENTS = 4_000;

/** Members a function is given to by name: an object's `key: function`, a class field `name = () => ...`. */
const MEMBER_HOLDERS = new Set(["pair", "public_field_definition", "field_definition"]);
/** A member's own name, where the grammar does not call it an identifier. */
const MEMBER_NAME_KINDS = new Set(["property_identifier", "private_property_identifier"]);

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
export class FlowReader extends FlowExpressions {
  private readonly summaries = new Map<string, FlowValue>();
  /** `callersOf`'s answer per function (its node id): one search of the file's calls each. */
  private readonly callers = new Map<number, { fn: SgNode; calls: SgNode[] } | undefined>();
  private statements = 0;
  private returns: FlowValue[] | undefined;

  private constructor(root: SgNode, t: FlowSyntax) {
    super(root, t);
  }

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
   * A reader of its own over a tree another reader may read too (a project file read for the files
   * that import it): what callers elsewhere give its functions is kept apart from that reader's.
   *
   * @example FlowReader.detached({ root, lang: "typescript" })?.callExported("build", [SOURCE])
   */
  static detached(syntax: { root: SgNode; lang: SyntaxLanguage }): FlowReader | undefined {
    const table = FLOW_SYNTAX[syntax.lang];
    if (!table) return undefined;
    const reader = new FlowReader(syntax.root, table);
    try {
      reader.index();
    } catch {
      return undefined;
    }
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

  /**
   * What an expression that is a call's receiver or argument held at each visit, apart: the run of
   * its function from outside data, and each run from a call of it with the caller's values. A
   * value's text and what it carries are then read from one run, never one from each.
   *
   * @example reader.valuesAt(call.args[0]!)?.map((v) => v.outside) // [true, false]
   */
  valuesAt(node: SgNode): readonly FlowValue[] | undefined {
    return this.valueAt(node) === undefined ? undefined : this.visits.get(node.id());
  }

  /**
   * What a parameter passed whole to a call held in each run from a call of its function in this
   * file, when the function is one only the file can call: named, not exported, and called here.
   * Such a function runs what its callers give it (`run_command(self, command)`), so its callers'
   * values decide. Undefined otherwise (the parameter is then outside data, as `valueAt` says).
   *
   * @example reader.callerValuesAt(commandArg)?.map((v) => v.outside) // [false, false]
   */
  callerValuesAt(node: SgNode): readonly FlowValue[] | undefined {
    const callers = this.callersOf(node);
    if (!callers) return undefined;
    try {
      for (const c of callers.calls) this.runScopeOf(c);
    } catch {
      this.broken = true;
      return undefined;
    }
    const seen = this.callerVisits.get(node.id());
    return seen && seen.length > 0 ? seen : undefined;
  }

  /**
   * The arguments the file's calls give a parameter, as written, where `callerValuesAt` reads the
   * values they carry: ``[`json_value(${a}, '$.${b}')`]`` for `key` of `const cast = (key) =>
   * raw(key)` called as ``cast(`json_value(${a}, '$.${b}')`)``.
   *
   * @example reader.callerArgumentsAt(keyNode)?.map((a) => a.text()) // ["`json_value(${a}, '$.${b}')`"]
   */
  callerArgumentsAt(node: SgNode): readonly SgNode[] | undefined {
    const callers = this.callersOf(node);
    if (!callers) return undefined;
    const t = this.t;
    const all = parametersOf(callers.fn, t).map((p) => parameterName(p, t) ?? p.text());
    const index = all.indexOf(node.text());
    const out: SgNode[] = [];
    for (const c of callers.calls) {
      const listed = (fieldOf(c, "arguments", t)?.namedChildren() ?? []).filter((a) => String(a.kind()) !== "comment");
      const arg = listed[index - (all.length - listed.length)];
      if (arg) out.push(arg);
    }
    return out;
  }

  /**
   * The function whose parameter the node is and the file's calls of it, when only the file calls
   * it and every call binds its arguments by position; undefined otherwise.
   */
  private callersOf(node: SgNode): { fn: SgNode; calls: SgNode[] } | undefined {
    const t = this.t;
    if (this.broken || !t.identifierKinds.includes(String(node.kind()))) return undefined;
    const fn = this.enclosingFunction(node);
    // Its own name, or the local it is given to (`const query = async (text) => client.query(text)`).
    const holder = fn?.parent();
    const declared = holder && t.declaratorKinds.includes(String(holder.kind())) ? fieldOf(holder, "name", t) : null;
    const name = fn ? (fieldOf(fn, "name", t) ?? declared)?.text() : undefined;
    if (!fn || !name || !this.parameterNames(fn).includes(node.text())) return undefined;
    // The same for each of the function's parameters: read once per function.
    const key = fn.id();
    if (!this.callers.has(key)) this.callers.set(key, this.callsOf(fn, name));
    return this.callers.get(key);
  }

  /** The file's calls of `fn` (named `name`), when only the file calls it and every call binds by position. */
  private callsOf(fn: SgNode, name: string): { fn: SgNode; calls: SgNode[] } | undefined {
    const t = this.t;
    if (this.exported(fn, name)) return undefined;
    // One function by that name, so that every call of the name is a call of it.
    if (this.functions.get(name)?.length !== 1) return undefined;
    const inside = fn.range();
    const calls = this.root.findAll({ rule: { any: t.callKinds.map((kind) => ({ kind })) } }).filter((c) => {
      const { object, method } = callParts(c, t);
      if (method !== name || (object && !t.selfNames.test(object.text()))) return false;
      const at = c.range().start.index;
      return at < inside.start.index || at >= inside.end.index;
    });
    // Each call must be one the run follows (its arguments by position, as many as the function
    // takes), and the name used nowhere else: a function handed on as a value (`Thread(target=
    // self.run, args=(cmd,))`, `list.map(run)`) is called with what the file does not show.
    if (calls.length === 0 || !calls.every((c) => this.bindsByPosition(c, fn))) return undefined;
    let method = String(fn.kind()).includes("method");
    for (let p = fn.parent(); p && !method; p = p.parent()) method = t.classKinds.includes(String(p.kind()));
    if (this.usesOf(name, method) !== calls.length + 1) return undefined;
    return { fn, calls };
  }

  /**
   * How often the file names its function `name`: each leaf of the tree written exactly so (an
   * identifier, or a string that is only the name, as `getattr(self, "run")` uses it), not the
   * words of a longer string or comment. A function outside any class is not the member of another
   * object (`client.query` is not a use of the file's own `query`); a method's name on any object
   * may be a call of it (`other.run(cmd)` on another instance), so there every one counts.
   */
  private usesOf(name: string, method: boolean): number {
    const t = this.t;
    let uses = 0;
    const exact = `^${name.replace(/[$]/g, "\\$&")}$`;
    for (const node of this.root.findAll({ rule: { regex: exact } })) {
      if (node.namedChildren().length > 0) continue;
      const holder = node.parent();
      const member =
        !method && holder && t.fieldAccessKinds.includes(String(holder.kind())) ? holder.namedChildren() : undefined;
      const receiver = member && member.length > 1 && member[0]?.id() !== node.id() ? member[0] : undefined;
      if (!receiver || t.selfNames.test(receiver.text())) uses++;
    }
    return uses;
  }

  /** Whether the run follows `call` into `fn`: positional arguments only, as many as it takes. */
  private bindsByPosition(call: SgNode, fn: SgNode): boolean {
    const t = this.t;
    const listed = (fieldOf(call, "arguments", t)?.namedChildren() ?? []).filter((a) => String(a.kind()) !== "comment");
    if (listed.some((a) => /keyword|spread|splat|named/.test(String(a.kind())))) return false;
    const { object } = callParts(call, t);
    return parametersOf(fn, t).length === listed.length || (object !== null && receiverFirst(fn, t, listed.length));
  }

  /** A function's parameter names, the object a method runs on left out. */
  private parameterNames(fn: SgNode): string[] {
    const t = this.t;
    const names = parametersOf(fn, t).map((p) => parameterName(p, t) ?? p.text());
    return t.receiverParameter?.test(names[0] ?? "") ? names.slice(1) : names;
  }

  /** Whether code outside the file may call the function: exported, public, or named as exported. */
  private exported(fn: SgNode, name: string): boolean {
    for (let p = fn.parent(); p; p = p.parent()) {
      // A function declared inside another's body is that body's local: nothing outside calls it.
      if (this.t.functionKinds.includes(String(p.kind()))) return false;
      if (String(p.kind()) === "export_statement") return true;
    }
    const head = fn.text().split(/[({]/, 1)[0] ?? "";
    if (/\b(export|public|pub)\b/.test(head) || this.t.exportedName?.test(name)) return true;
    const escaped = name.replace(/[$]/g, "\\$&");
    return new RegExp(`\\bexports\\b.*\\b${escaped}\\b|\\b${escaped}\\b.*\\bexports\\b`).test(this.root.text());
  }

  private broken = false;
  private readonly ran = new Set<number>();
  private linked: ((local: string) => { reader: FlowReader; name: string } | undefined) | undefined;

  /**
   * Links the file to the modules it imports from its project by a relative path: `resolve` gives,
   * for a name the file imports (or a namespace's member, `q.build`), the reader of the module that
   * exports it and its name there. A call of it then returns what that function returns for the
   * call's values (`callExported`), not data from outside. Set before the first `valueAt`.
   */
  link(resolve: (local: string) => { reader: FlowReader; name: string } | undefined): void {
    this.linked = resolve;
  }

  /**
   * What the module's top-level function `name` returns when called with `args` (outside data where
   * it reads anything else), its rows left out; undefined when the module has no such function.
   *
   * @example queries.callExported("createQueryForTile", [SOURCE])?.outside // true
   */
  callExported(name: string, args: readonly FlowValue[]): FlowValue | undefined {
    if (this.broken) return undefined;
    const fits = (f: SgNode) => parametersOf(f, this.t).length === args.length;
    const fn =
      name === DEFAULT_EXPORT
        ? [this.defaultFunction()].find((f) => f !== undefined && fits(f))
        : this.functions.get(name)?.find((f) => fits(f) && !this.insideFunction(f));
    if (!fn) return undefined;
    try {
      this.statements = 0;
      return { ...this.callFunction(fn, args, 0), rows: [] };
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  protected importedCall(object: SgNode | null, method: string, args: readonly FlowValue[]): FlowValue | undefined {
    if (!this.linked) return undefined;
    const t = this.t;
    if (object && !t.identifierKinds.includes(String(object.kind()))) return undefined;
    const target = object ? this.linked(object.text()) : this.linked(method);
    if (!target) return undefined;
    const name = calledExport(target, object ? method : undefined);
    return name ? target.reader.callExported(name, args) : undefined;
  }

  /**
   * The names an importer calls a function of the module by: those the file's index gives it (its
   * own, the local or key it is given to, the member it is set on, `exports.run`), and
   * `DEFAULT_EXPORT` where it is the module's whole export. None for a function inside another.
   *
   * @example utils.exportedNames(fn) // ["exec"] for `module.exports = { exec: function (cmd) {...} }`
   */
  exportedNames(fn: SgNode): string[] {
    if (this.insideFunction(fn)) return [];
    const names = [...this.functions].filter(([, fns]) => fns.some((f) => f.id() === fn.id())).map(([name]) => name);
    if (this.defaultFunction()?.id() === fn.id()) names.push(DEFAULT_EXPORT);
    return names;
  }

  private defaultRead: { fn: SgNode | undefined } | undefined;

  /**
   * The function a JavaScript or TypeScript module exports as a whole, read once: `export default
   * function`, `export default (x) => ...`, `export default build`, `module.exports = function`,
   * `module.exports = build` (a top-level function of the file by that name).
   */
  private defaultFunction(): SgNode | undefined {
    if (this.defaultRead) return this.defaultRead.fn;
    const t = this.t;
    let fn: SgNode | undefined;
    for (const top of this.root.children()) {
      const kind = String(top.kind());
      const assigned = kind === "expression_statement" ? top.namedChildren()[0] : undefined;
      const value =
        kind === "export_statement" && top.children().some((c) => !c.isNamed() && c.text() === "default")
          ? (top.field("declaration") ?? top.field("value"))
          : assigned &&
              String(assigned.kind()) === "assignment_expression" &&
              assigned.field("left")?.text().replace(/\s+/g, "") === "module.exports"
            ? assigned.field("right")
            : null;
      if (!value) continue;
      const valueKind = String(value.kind());
      if (t.functionKinds.includes(valueKind)) fn = value;
      else if (t.identifierKinds.includes(valueKind))
        fn = this.functions.get(value.text())?.find((f) => !this.insideFunction(f));
    }
    this.defaultRead = { fn };
    return fn;
  }

  /**
   * Runs the function that holds `node` (or the file's top-level statements), once, from its
   * parameters as outside data. Only the functions that hold an asked call are run: a run from
   * outside data is what every caller's run would join into, so the others add nothing to it.
   */
  private runScopeOf(node: SgNode): void {
    const scope = this.enclosingFunction(node);
    const at = scope ?? this.root;
    if (this.ran.has(at.id())) return;
    this.ran.add(at.id());
    // A function written inside another runs after it: the names it borrows hold what they held there.
    if (scope && this.enclosingFunction(scope)) this.runScopeOf(scope);
    this.statements = 0;
    if (scope) this.callFunction(scope, undefined, scope.range().start.line);
    else this.block(this.root, { env: new Map(), builders: new Set(), live: true });
  }

  /** What a function written inside another borrows from it (`borrowed`); undefined for any other. */
  private borrowedByNested(fn: SgNode): ReadonlyMap<string, FlowValue> | undefined {
    if (!this.captured.has(fn.id())) return undefined;
    const outer = this.enclosingFunction(fn);
    return outer ? this.borrowed(fn, outer) : undefined;
  }

  /**
   * What the locals of `outer` held where `fn`, written inside it, is written (`captured`), for the
   * names `outer` never assigns again after `fn` (a later assignment may be what `fn` reads when it
   * runs); undefined when `outer`'s run never reached `fn`.
   *
   * @example reader.borrowed(callback, method)?.get("path")?.literal // '"' for `path = names.map(...)`
   */
  private borrowed(fn: SgNode, outer: SgNode): ReadonlyMap<string, FlowValue> | undefined {
    const held = this.captured.get(fn.id());
    if (!held) return undefined;
    const after = outer.text().slice(fn.range().end.index - outer.range().start.index);
    const kept = new Map<string, FlowValue>();
    for (const [name, value] of held) if (!assigns(after, name)) kept.set(name, value);
    return kept;
  }

  /** Python's `from shlex import quote [as q]`: a bare `quote(x)` is called as `shlex.quote` (the table's name). */
  private importedFrom(node: SgNode): void {
    const module = fieldOf(node, "module_name", this.t);
    if (!module || String(module.kind()) !== "dotted_name") return;
    for (const c of node.namedChildren()) {
      if (c.id() === module.id()) continue;
      const kind = String(c.kind());
      const name = kind === "aliased_import" ? fieldOf(c, "name", this.t) : kind === "dotted_name" ? c : null;
      const local = kind === "aliased_import" ? fieldOf(c, "alias", this.t)?.text() : name?.text();
      if (name && local) this.qualified.set(local, `${module.text()}.${name.text()}`);
    }
  }

  /**
   * The names the file's imports give the table's literal-format module (`const format =
   * require('pg-format')`, `import format from "pg-format"`): a bare call of one is called as
   * `pg-format.format`.
   */
  private literalFormatNames(): void {
    const module = this.t.literalFormatModule;
    const text = module ? this.root.text() : "";
    if (!module || !text.includes(module)) return;
    for (const local of moduleLocals(text, (name) => name === module)?.modules ?? [])
      this.qualified.set(local, `${module}.format`);
  }

  /** The file's imports, functions by name and fields, read once. */
  private index(): void {
    const t = this.t;
    for (const i of this.root.findAll({ rule: { any: t.importKinds.map((kind) => ({ kind })) } })) {
      for (const id of i.findAll({ rule: { any: t.identifierKinds.map((kind) => ({ kind })) } }))
        this.imported.add(id.text());
      if (String(i.kind()) === "import_from_statement") this.importedFrom(i);
    }
    this.literalFormatNames();
    const kinds = [...t.functionKinds, ...t.fieldKinds].map((kind) => ({ kind }));
    const found = this.root.findAll({ rule: { any: kinds } });
    // Where a field is written as a local is (Kotlin's `val`), only a class's own are fields.
    const localsToo = t.fieldKinds.some((k) => t.declarationKinds.includes(k));
    for (const node of found) {
      const kind = String(node.kind());
      if (localsToo && !t.functionKinds.includes(kind) && this.insideFunction(node)) continue;
      if (t.functionKinds.includes(kind)) {
        // A function given to a name (`const build = (x) => ...`) is called by that name.
        const holder = node.parent();
        const named =
          holder && t.declaratorKinds.includes(String(holder.kind()))
            ? fieldOf(holder, "name", this.t)
            : holder
              ? this.memberName(holder, node)
              : null;
        const name = (fieldOf(node, "name", this.t) ?? named)?.text();
        if (name) this.functions.set(name, [...(this.functions.get(name) ?? []), node]);
      } else {
        const modifiers = t.modifierKinds
          ? node
              .children()
              .filter((c) => t.modifierKinds?.includes(String(c.kind())))
              .map((c) => c.text())
              .join(" ")
          : (node.children()[0]?.text() ?? "");
        const final = t.finalModifier.test(modifiers);
        // Declarators are the field's children (Java) or its declaration's (C#).
        const holders = [node, ...node.children().filter((c) => t.declarationKinds.includes(String(c.kind())))];
        // Kotlin's property is its own declarator.
        const declarators =
          t.declaratorKinds.length === 0
            ? [node]
            : holders.flatMap((h) => h.children().filter((c) => t.declaratorKinds.includes(String(c.kind()))));
        for (const d of declarators) {
          const name = fieldOf(d, "name", this.t)?.text();
          if (name) this.fields.set(name, final ? (this.declaredValue(d) ?? null) : null);
        }
        // A property (C#'s `Name { get; set; }`) holds whatever was set: data from outside.
        const own = declarators.length === 0 ? fieldOf(node, "name", this.t)?.text() : undefined;
        if (own) this.fields.set(own, null);
      }
    }
  }

  /**
   * The method name a function is given to as a member (`Store.prototype.quotedTable = function
   * () {...}`, `this.build = (x) => ...`, `{ build: function (x) {...} }`, a class field `build =
   * (x) => ...`): a call on `this` by that name runs it, as a named method's. Null otherwise.
   */
  private memberName(holder: SgNode, fn: SgNode): SgNode | null {
    const t = this.t;
    const kind = String(holder.kind());
    const target = t.assignmentKinds.includes(kind)
      ? fieldOf(holder, "left", t)
      : MEMBER_HOLDERS.has(kind)
        ? (fieldOf(holder, "key", t) ?? fieldOf(holder, "name", t) ?? fieldOf(holder, "property", t))
        : null;
    if (!target || target.id() === fn.id()) return null;
    if (t.identifierKinds.includes(String(target.kind())) || MEMBER_NAME_KINDS.has(String(target.kind())))
      return target;
    if (!t.fieldAccessKinds.includes(String(target.kind()))) return null;
    return fieldOf(target, "property", t) ?? fieldOf(target, "field", t) ?? fieldOf(target, "attribute", t);
  }

  /**
   * Runs a function with its parameters bound to `args` (outside data when not given), its other
   * names first bound to what it borrows from the function around it (`borrowedByNested`), whether
   * it runs on its own or is called there (`def run(): ...; return run()`); its returns joined.
   */
  protected callFunction(fn: SgNode, args: readonly FlowValue[] | undefined, row: number): FlowValue {
    const t = this.t;
    const params = parametersOf(fn, t);
    const names = this.borrowedByNested(fn);
    const lent = names ? `|${[...names].map(([name, v]) => `${name}=${signature(v)}`).join(",")}` : "";
    const key = `${fn.id()}:${(args ?? []).map(signature).join(",")}${lent}`;
    const memo = this.summaries.get(key);
    // Another call with values that read the same: its result, built also on this call's rows.
    if (memo) return at({ ...memo, rows: [...new Set([...memo.rows, ...(args ?? []).flatMap((a) => a.rows)])] }, row);
    const env = new Map<string, FlowValue>(names ?? []);
    params.forEach((p, i) => {
      const name = parameterName(p, t);
      if (!name) return;
      const given = args?.[i];
      const source = t.sourceParameter?.test(p.text()) === true;
      env.set(name, given ?? (source ? SOURCE : OUTSIDE));
    });
    const body = fieldOf(fn, "body", this.t);
    const saved = this.returns;
    this.returns = [];
    this.depth++;
    if (args) this.fromCall++;
    const start: State = { env, builders: new Set(), live: true };
    // An arrow function's expression body is what it returns, as is Kotlin's `fun f() = ...`.
    const expressionBody = body?.children()[0]?.text() === "=" ? body.namedChildren()[0] : undefined;
    if (expressionBody) this.returns.push(this.expr(expressionBody, start));
    else if (body && t.blockKinds.includes(String(body.kind()))) this.block(body, start, t.implicitReturn === true);
    else if (body) this.returns.push(this.expr(body, start));
    this.depth--;
    if (args) this.fromCall--;
    const returned = this.returns.length > 0 ? this.returns.reduce(join) : CONSTANT;
    this.returns = saved;
    this.summaries.set(key, returned);
    return at(returned, row);
  }

  // Statements --------------------------------------------------------------------------------

  /** A block's statements in order; with `valued`, its last expression is returned (Ruby, Rust). */
  private block(node: SgNode, state: State, valued = false): State {
    let s = state;
    const children = node.namedChildren();
    children.forEach((child, i) => {
      if (!s.live) return;
      if (valued && i === children.length - 1 && this.isValue(child)) {
        this.returns?.push(this.expr(child, s));
        return;
      }
      s = this.statement(child, s);
    });
    return s;
  }

  protected statement(node: SgNode, state: State): State {
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
      const typed = t.builderTypes.test(node.text().split("=")[0] ?? "");
      const declarators = node.namedChildren().filter((c) => t.declaratorKinds.includes(String(c.kind())));
      // Rust's `let` is its own declarator (`pattern`, `value`).
      for (const d of t.declaratorKinds.length > 0 ? declarators : [node]) {
        const target = fieldOf(d, "name", this.t) ?? fieldOf(d, "pattern", this.t);
        const value = this.declaredValue(d);
        const builder = typed || (value !== null && t.builderValues?.test(value.text()) === true);
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
      const returned = value ? this.expr(value, state) : CONSTANT;
      // A returned name is asked too (SEC-02's bare returns of an escaping function).
      if (value && this.t.identifierKinds.includes(String(value.kind()))) this.record(value, returned);
      this.returns?.push(returned);
      return { ...state, live: false };
    }
    if (t.throwKinds.includes(kind)) {
      for (const c of node.namedChildren()) this.expr(c, state);
      return { ...state, live: false };
    }
    if (t.functionKinds.includes(kind)) this.capture(node, state);
    if (t.breakKinds.includes(kind) || t.classKinds.includes(kind) || t.functionKinds.includes(kind)) return state;
    if (t.importKinds.includes(kind) || t.definitionKinds.includes(kind)) return state;
    if (kind === "expression_statement") {
      // Rust's `if`, `for` and blocks are expressions, made statements by a `;` or their place.
      let s = state;
      for (const c of node.namedChildren()) {
        if (this.isValue(c)) this.expr(c, s);
        else s = this.statement(c, s);
      }
      return s;
    }
    // Ruby's statements are bare expressions (`system(cmd)`, `q << x`).
    if (t.callKinds.includes(kind) || t.binaryKinds.includes(kind) || t.constructorKinds.includes(kind)) {
      this.expr(node, state);
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
    const init = fieldOf(node, "initializer", this.t);
    const state = init ? this.statement(init, start) : start;
    // The branches in order: each with its condition, the last `else` without.
    const branches: Array<{ condition?: SgNode | null; body: SgNode | null }> = [
      {
        condition: fieldOf(node, "condition", this.t),
        body: fieldOf(node, "consequence", this.t) ?? fieldOf(node, "body", this.t),
      },
    ];
    const clauses = node.namedChildren().filter((c) => [...t.elifKinds, ...t.elseKinds].includes(String(c.kind())));
    for (const c of clauses) {
      const body = fieldOf(c, "consequence", this.t) ?? fieldOf(c, "body", this.t) ?? c.namedChildren().at(-1) ?? null;
      if (t.elifKinds.includes(String(c.kind()))) branches.push({ condition: fieldOf(c, "condition", this.t), body });
      else branches.push({ body });
    }
    if (clauses.length === 0) {
      const no = fieldOf(node, "alternative", this.t);
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
      // A test on a local (`if not s.isdigit(): return`) makes it plain where it holds, and after
      // the branch where it fails.
      out = merge(out, run(b.body, this.narrow(b.condition, true, fork(rest))));
      rest = this.narrow(b.condition, false, rest);
    }
    return rest ? merge(out, rest) : out;
  }

  /** The state with the locals a condition proves plain (holding or failing) read as constants. */
  private narrow(condition: SgNode | null | undefined, truth: boolean, state: State): State {
    if (!condition || !this.t.guards) return state;
    const constant = (n: SgNode) => !carried(this.expr(n, state)).outside;
    const names = [...guardedNames(condition, truth, this.t, constant)].filter((n) => state.env.has(n));
    if (names.length === 0) return state;
    const narrowed = fork(state);
    for (const name of names) narrowed.env.set(name, { ...CONSTANT, rows: state.env.get(name)?.rows ?? [] });
    return narrowed;
  }

  private switchStatement(node: SgNode, start: State): State {
    let state = start;
    const t = this.t;
    const init = fieldOf(node, "initializer", this.t);
    if (init) state = this.statement(init, state);
    const condition =
      fieldOf(node, "condition", this.t) ??
      fieldOf(node, "subject", this.t) ??
      fieldOf(node, "value", this.t) ??
      node.namedChildren()[0];
    const target = condition ? this.expr(condition, state) : CONSTANT;
    const body =
      fieldOf(node, "body", this.t) ?? node.namedChildren().find((c) => t.blockKinds.includes(String(c.kind())));
    // The cases are a body's children (Java, JavaScript, Python) or the statement's own (Go).
    const groups = (body ?? node).namedChildren().filter((g) => t.caseGroupKinds.includes(String(g.kind())));
    // A case's labels are child nodes (Java, Python) or its `value` field (JavaScript's `case x:`).
    const labelsOf = (g: SgNode) => {
      if (t.caseLabelKinds.length === 0) return [fieldOf(g, "value", this.t)].filter((v): v is SgNode => v !== null);
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
          if (t.caseLabelKinds.includes(String(c.kind())) || c.id() === fieldOf(group, "value", this.t)?.id()) continue;
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
    const body = fieldOf(node, "body", this.t);
    // for (T x : items), for x in items, for i, x := range items: the element holds any item.
    const range = node.namedChildren().find((c) => String(c.kind()) === "range_clause") ?? node;
    const target =
      fieldOf(range, "name", this.t) ?? fieldOf(range, "left", this.t) ?? fieldOf(range, "pattern", this.t);
    const items = fieldOf(range, "value", this.t) ?? fieldOf(range, "right", this.t);
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
          const name = fieldOf(r, "name", this.t)?.text();
          const value = fieldOf(r, "value", this.t);
          if (name && value) s.env.set(name, this.expr(value, s));
        }
      }
    }
    const t = this.t;
    const body =
      fieldOf(node, "body", this.t) ?? node.namedChildren().find((c) => t.blockKinds.includes(String(c.kind())));
    const after = body ? this.block(body, fork(s)) : s;
    let out = after;
    for (const c of node.namedChildren()) {
      const kind = String(c.kind());
      if (t.elseKinds.includes(kind)) {
        const block = fieldOf(c, "body", this.t) ?? c.namedChildren().at(-1);
        if (block && out.live) out = this.block(block, out);
      } else if (t.catchKinds.includes(kind)) {
        const start = merge(fork(s), { ...fork(after), live: true });
        const name = c.namedChildren().find((x) => String(x.kind()) === "catch_formal_parameter");
        const id = name?.field("name")?.text();
        if (id) start.env.set(id, OUTSIDE);
        const block = fieldOf(c, "body", this.t) ?? c.namedChildren().at(-1);
        out = merge(out, block ? this.block(block, start) : start);
      } else if (t.finallyKinds.includes(kind)) {
        const block = fieldOf(c, "body", this.t) ?? c.namedChildren().at(-1);
        if (block) {
          const live = out.live;
          out = { ...this.block(block, { ...out, live: true }), live };
        }
      }
    }
    return out;
  }
}

/**
 * A parameter's name: its own `name`, TypeScript's typed `pattern` (`key` of `key: string`), or
 * the identifier it is or holds; undefined for a destructured one.
 *
 * @example parameterName(paramOf("(key: string) => key"), t) // "key"
 */
function parameterName(p: SgNode, t: FlowSyntax): string | undefined {
  const pattern = fieldOf(p, "pattern", t);
  return (
    fieldOf(p, "name", t)?.text() ??
    (pattern && t.identifierKinds.includes(String(pattern.kind())) ? pattern.text() : undefined) ??
    (t.identifierKinds.includes(String(p.kind())) ? p.text() : undefined) ??
    p
      .namedChildren()
      .find((c) => t.identifierKinds.includes(String(c.kind())))
      ?.text()
  );
}
