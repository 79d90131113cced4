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
  // PHP joins text with `.`.
  ".": "+",
};

/** A call's receiver and method name: `object`/`name` fields (Java), or a `function` that is an attribute or a name. */
export function callParts(node: SgNode, t: FlowSyntax): { object: SgNode | null; method: string } {
  const fn = node.field("function");
  if (!fn) {
    // Java's `object`/`name`, Ruby's `receiver`/`method`, PHP's `scope::name`.
    const object = node.field("object") ?? node.field("receiver") ?? node.field("scope");
    return { object, method: (node.field("name") ?? node.field("method"))?.text() ?? "" };
  }
  if (t.fieldAccessKinds.includes(String(fn.kind()))) {
    const name = fn.field("attribute") ?? fn.field("property") ?? fn.field("field") ?? fn.field("name");
    const object = fn.field("object") ?? fn.field("operand") ?? fn.field("expression") ?? fn.field("value");
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

export function paramCount(fn: SgNode, t: FlowSyntax): number {
  return (fn.field("parameters")?.namedChildren() ?? []).filter((p) => t.parameterKinds.includes(String(p.kind())))
    .length;
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
