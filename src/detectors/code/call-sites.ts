import type { SgNode } from "@ast-grep/napi";
import { astGrep, type PatchSyntax, type SyntaxLanguage } from "./syntax-tree.js";

/** One function or method call found in parsed code. */
export interface CallSite {
  /** The call node. */
  node: SgNode;
  /** The callee as written, whitespace removed: `logger.info`, `console.log`, `log.Printf`. */
  callee: string;
  /** The callee's last name: `info`, `log`, `Printf`. */
  method: string;
  /** The callee's receiver, when it is a member call: `logger`, `console`, `this.logger`, `zap.L()`. */
  receiver?: string;
  /** The argument list node: `(...)` (a template string for a tagged template). */
  readonly argumentList: SgNode;
  /** The argument nodes (Python keyword arguments as `keyword_argument`), read from the tree on first use. */
  readonly args: SgNode[];
  /** The parsed row (0-based) where the call starts, read from the tree on first use. */
  readonly row: number;
}

/** Each grammar's call kind, with the language as ast-grep names it (`Lang.JavaScript` is "JavaScript"). */
const CALL_KIND: Record<SyntaxLanguage, { lang: string; kind: string }> = {
  javascript: { lang: "JavaScript", kind: "call_expression" },
  typescript: { lang: "TypeScript", kind: "call_expression" },
  tsx: { lang: "Tsx", kind: "call_expression" },
  python: { lang: "python", kind: "call" },
  go: { lang: "go", kind: "call_expression" },
};

/** The grammar's numeric id of its call kind: a number matcher is the cheapest search ast-grep has. */
const CALL_KIND_ID = new Map<SyntaxLanguage, number>();

function callKindId(lang: SyntaxLanguage): number {
  let id = CALL_KIND_ID.get(lang);
  if (id === undefined) {
    // The parse that gave us a tree of this language registered its grammar already.
    id = astGrep().kind(CALL_KIND[lang].lang, CALL_KIND[lang].kind);
    CALL_KIND_ID.set(lang, id);
  }
  return id;
}

function compact(text: string): string {
  return text.replace(/\s+/g, "").replace(/\?\./g, ".");
}

/** Splits `a.b(x.y).c` at its last top-level dot: receiver `a.b(x.y)`, method `c`. */
function splitCallee(callee: string): { receiver?: string; method: string } {
  let depth = 0;
  for (let i = callee.length - 1; i >= 0; i--) {
    const c = callee[i];
    if (c === ")" || c === "]" || c === "}") depth++;
    else if (c === "(" || c === "[" || c === "{") depth--;
    else if (c === "." && depth === 0) return { receiver: callee.slice(0, i), method: callee.slice(i + 1) };
  }
  return { method: callee };
}

function argumentNodes(list: SgNode): SgNode[] {
  if (String(list.kind()) === "template_string") return [list];
  return list.children().filter((c) => c.isNamed() && String(c.kind()) !== "comment");
}

/** A call as the index holds it: the callee read, the rest read from the tree when first asked. */
class IndexedCall implements CallSite {
  readonly callee: string;
  readonly method: string;
  declare readonly receiver?: string;
  #argumentList: SgNode | null | undefined;
  #args: SgNode[] | undefined;
  #row: number | undefined;

  constructor(
    readonly node: SgNode,
    fn: SgNode,
  ) {
    this.callee = compact(fn.text());
    const { receiver, method } = splitCallee(this.callee);
    this.method = method;
    if (receiver !== undefined) this.receiver = receiver;
  }

  /** The argument list, or null for a call without one (a parse recovered from an error). */
  argumentListOrNull(): SgNode | null {
    if (this.#argumentList === undefined) this.#argumentList = this.node.field("arguments");
    return this.#argumentList;
  }

  get argumentList(): SgNode {
    // `callSites` hands out only calls that have one.
    return this.argumentListOrNull() as SgNode;
  }

  get args(): SgNode[] {
    this.#args ??= argumentNodes(this.argumentList);
    return this.#args;
  }

  get row(): number {
    this.#row ??= this.node.range().start.line;
    return this.#row;
  }
}

/**
 * Every call of a tree, in source order, found once per tree: each crossing into the parser costs
 * microseconds, so the detectors share one list and filter it by callee text in JavaScript.
 */
const INDEX = new WeakMap<SgNode, IndexedCall[]>();

function allCalls(syntax: Pick<PatchSyntax, "lang" | "root">): IndexedCall[] {
  const cached = INDEX.get(syntax.root);
  if (cached) return cached;
  const out: IndexedCall[] = [];
  for (const node of syntax.root.findAll(callKindId(syntax.lang))) {
    let fn = node.field("function");
    // TypeScript parses `await pool.query<Row>(sql)` with the await inside the callee: look past it.
    if (fn && String(fn.kind()) === "await_expression") fn = fn.children().find((c) => c.isNamed()) ?? fn;
    if (fn) out.push(new IndexedCall(node, fn));
  }
  INDEX.set(syntax.root, out);
  return out;
}

/**
 * The calls in a parsed tree, in source order, with the callee split into receiver and method.
 * `calleePattern` keeps only calls whose callee text (as `callee` gives it) it matches: a cheap
 * pre-filter, tested before anything else is read from the tree.
 *
 * @example callSites(syntax, /log|Log/).map((c) => c.callee) // ["logger.info", "log.Printf"]
 */
export function callSites(syntax: Pick<PatchSyntax, "lang" | "root">, calleePattern?: RegExp): CallSite[] {
  const out: CallSite[] = [];
  for (const call of allCalls(syntax)) {
    if (calleePattern && !calleePattern.test(call.callee)) continue;
    if (call.argumentListOrNull() === null) continue;
    out.push(call);
  }
  return out;
}
