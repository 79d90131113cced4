import type { SgNode } from "@ast-grep/napi";
import type { FlowSyntax } from "./flow-syntax.js";
import { anyItem, carried, type FlowValue, join, known } from "./flow-value.js";

/** One path through a function: what each local holds, which locals are text builders, whether it still runs. */
export interface State {
  env: Map<string, FlowValue>;
  builders: Set<string>;
  live: boolean;
}

/** Targets that take a value apart. */
export const LIST_PATTERNS = new Set([
  "pattern_list",
  "tuple_pattern",
  "list_pattern",
  "array_pattern",
  "expression_list",
]);
export const PATTERN_KINDS = new Set([...LIST_PATTERNS, "object_pattern"]);

/** Operators written as words. */
export const OPERATORS: Record<string, string> = {
  and: "&&",
  or: "||",
  not: "!",
  is: "==",
  "is not": "!=",
  // PHP joins text with `.`; Kotlin's `a ?: b` is one of the two.
  ".": "+",
  "?:": "??",
};

/**
 * A node's child by field name: the grammar's own field, else the table's `childFields` path for a
 * grammar that names few fields (Kotlin).
 *
 * @example fieldOf(ifNode, "condition", KOTLIN)
 */
export function fieldOf(node: SgNode, name: string, t: FlowSyntax): SgNode | null {
  const own = node.field(name);
  if (own || !t.childFields) return own;
  const path = t.childFields[String(node.kind())]?.[name];
  if (!path) return null;
  let cur: SgNode | null = node;
  for (const step of path) {
    if (!cur) return null;
    cur = childAt(cur, step);
  }
  return cur;
}

/** One step of a `childFields` path: `kind` (its first child of that kind), `kind#n`, `*#n`, `*#-1` (the last). */
function childAt(node: SgNode, step: string): SgNode | null {
  const [kind, nth] = step.split("#");
  const named = node.namedChildren().filter((c) => kind === "*" || String(c.kind()) === kind);
  const n = nth === undefined ? 0 : Number(nth);
  return (n < 0 ? named.at(n) : named[n]) ?? null;
}

/** A call's receiver and method name: `object`/`name` fields (Java), or a `function` that is an attribute or a name. */
export function callParts(node: SgNode, t: FlowSyntax): { object: SgNode | null; method: string } {
  const fn = fieldOf(node, "function", t);
  if (!fn) {
    // Java's `object`/`name`, Ruby's `receiver`/`method`, PHP's `scope::name`.
    const object = fieldOf(node, "object", t) ?? fieldOf(node, "receiver", t) ?? fieldOf(node, "scope", t);
    return { object, method: (fieldOf(node, "name", t) ?? fieldOf(node, "method", t))?.text() ?? "" };
  }
  if (t.fieldAccessKinds.includes(String(fn.kind()))) {
    const name =
      fieldOf(fn, "attribute", t) ?? fieldOf(fn, "property", t) ?? fieldOf(fn, "field", t) ?? fieldOf(fn, "name", t);
    const object =
      fieldOf(fn, "object", t) ?? fieldOf(fn, "operand", t) ?? fieldOf(fn, "expression", t) ?? fieldOf(fn, "value", t);
    return { object, method: name?.text() ?? "" };
  }
  return { object: null, method: fn.text() };
}

/** What makes two argument values read differently by a function: a memo key. */
export function signature(v: FlowValue): string {
  const c = carried(v);
  const head = `${c.outside ? "o" : "c"}${c.source ? "s" : ""}${v.known !== undefined ? `=${String(v.known)}` : ""}`;
  const items = v.items ? `[${v.items.map(signature).join(",")}]` : "";
  const entries = v.entries ? `{${[...v.entries].map(([k, e]) => `${k}:${signature(e)}`).join(",")}}` : "";
  return head + items + entries;
}

/**
 * A function's declared parameters, in order (the language's `parameterKinds`; Python's `self` kept).
 *
 * @example parametersOf(defOf("def build(self, item): ..."), PYTHON).map((p) => p.text()) // ["self", "item"]
 */
export function parametersOf(fn: SgNode, t: FlowSyntax): SgNode[] {
  return (fieldOf(fn, "parameters", t)?.namedChildren() ?? []).filter((p) =>
    t.parameterKinds.includes(String(p.kind())),
  );
}

/**
 * Whether a method takes the object it runs on first (Python's `self`) and then `args` arguments,
 * and runs its own body (it is not abstract).
 *
 * @example receiverFirst(defOf("def build(self, item): ..."), PYTHON, 1) // true
 */
export function receiverFirst(fn: SgNode, t: FlowSyntax, args: number): boolean {
  if (!t.receiverParameter) return false;
  const params = parametersOf(fn, t);
  if (params.length !== args + 1 || !t.receiverParameter.test(params[0]?.text() ?? "")) return false;
  // A method meant to be overridden (`@abstractmethod`, `raise NotImplementedError`) runs a subclass's body.
  const holder = fn.parent();
  const written = holder && t.definitionKinds.includes(String(holder.kind())) ? holder : fn;
  return !t.abstractMethod?.test(written.text());
}

/** The local a chain of calls starts from: `sb` of `sb.append(a).append(b)`. */
export function chainRoot(node: SgNode, t: FlowSyntax): string | undefined {
  let cur: SgNode | null = node;
  while (cur && t.callKinds.includes(String(cur.kind()))) cur = callParts(cur, t).object;
  return cur && t.identifierKinds.includes(String(cur.kind())) ? cur.text() : undefined;
}

export function itemAt(collection: FlowValue, index: FlowValue): FlowValue {
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
export function stringText(text: string): string {
  // Prefixes: Python's `f`/`r`/`b`, C#'s `@`/`$`, Rust's `r#`.
  const bare = text.replace(/^[a-zA-Z@$]*#*/, "").replace(/#+$/, "");
  if (bare.startsWith('"""') || bare.startsWith("'''")) return bare.slice(3, -3);
  return bare.slice(1, -1);
}

/** A constant operation on two known operands; undefined when either is unknown. */
export function fold(op: string, a: FlowValue["known"], b: FlowValue["known"]): string | number | boolean | undefined {
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

export function union(a: readonly number[], b: readonly number[], row: number): number[] {
  return [...new Set([...a, ...b, row])];
}

export function fork(state: State): State {
  return { env: new Map(state.env), builders: new Set(state.builders), live: state.live };
}

/** Where two paths meet: each local holds what either path gave it. */
export function merge(a: State, b: State): State {
  if (!a.live) return b;
  if (!b.live) return a;
  const env = new Map(a.env);
  for (const [k, v] of b.env) env.set(k, env.has(k) ? join(env.get(k) as FlowValue, v) : v);
  return { env, builders: new Set([...a.builders, ...b.builders]), live: true };
}

/**
 * Whether a text assigns a name anew: `name = `, a compound assignment (`+=`, `||=`, `??=`, Go's
 * `:=`), or `++`/`--` on it. Read on the text, so a member of that name (`o.name = `) is not it.
 *
 * @example assigns("cmd = quote(cmd)", "cmd") // true
 */
export function assigns(text: string, name: string): boolean {
  const escaped = name.replace(/[$]/g, "\\$&");
  return new RegExp(
    `(?<![\\w$.])${escaped}\\s*(?:(?:[-+*/%&|^:]|\\?\\?|<<|>>>?|\\|\\||&&|\\*\\*)?=(?!=)|\\+\\+|--)|(?:\\+\\+|--)${escaped}(?![\\w$])`,
  ).test(text);
}
