import type { SgNode } from "@ast-grep/napi";
import { type CallKind, type Grammar, GRAMMARS, type SyntaxLanguage } from "./grammars.js";
import { precheck } from "../precheck.js";
import { astGrep, type PatchSyntax } from "./syntax-tree.js";

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

/** The grammar's numeric ids of its call kinds: a number matcher is the cheapest search ast-grep has. */
const CALL_KIND_IDS = new Map<SyntaxLanguage, Array<{ id: number; kind: CallKind }>>();

function callKindIds(lang: SyntaxLanguage): Array<{ id: number; kind: CallKind }> {
  let ids = CALL_KIND_IDS.get(lang);
  if (ids === undefined) {
    // The parse that gave us a tree of this language registered its grammar already.
    const grammar = GRAMMARS[lang];
    ids = grammar.callKinds.map((kind) => ({ id: astGrep().kind(grammar.astGrepName, kind.kind), kind }));
    CALL_KIND_IDS.set(lang, ids);
  }
  return ids;
}

/**
 * Member access is written `.` whatever the language writes (`?.`, `->`, `?->`, `::`); a block
 * comment between the callee and its arguments (`exec /* run *\/ ($cmd)`) is no part of the callee.
 */
function compact(text: string, grammar: Grammar): string {
  const dotted = withoutTrailingComments(text)
    .replace(/\s+/g, "")
    .replace(/\?\.|\??->|::/g, ".");
  return grammar.memberTokens ? dotted.replace(grammar.memberTokens, ".") : dotted;
}

function withoutTrailingComments(text: string): string {
  let callee = text.trimEnd();
  while (callee.endsWith("*/")) {
    const open = callee.lastIndexOf("/*", callee.length - 3);
    if (open < 0) break;
    callee = callee.slice(0, open).trimEnd();
  }
  return callee;
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

function argumentNodes(list: SgNode, grammar: Grammar, kind: CallKind): SgNode[] {
  if (String(list.kind()) === "template_string") return [list];
  const comments = grammar.commentKinds;
  const skip = kind.skipKinds ?? [];
  return list
    .namedChildren()
    .filter((c) => !comments.includes(String(c.kind())) && !skip.includes(String(c.kind())))
    .map((c) => {
      if (!grammar.argumentWrappers.includes(String(c.kind()))) return c;
      const inner = c.namedChildren();
      return inner.length === 1 && inner[0] ? inner[0] : c;
    });
}

/** The parts of a call of shape `before-arguments`: the callee's text and the argument list. */
function beforeArguments(
  node: SgNode,
  kind: CallKind,
  source?: TreeText,
): { callee: string; args: SgNode | null | undefined; start?: number } {
  if (kind.argumentFields) return beforeArgumentField(node, kind.argumentFields, source);
  // A call of callee and suffix (Kotlin's `a.b(x)`): the callee is the first child; the suffix
  // (where the arguments are) is read only when a detector asks for them.
  if (kind.suffixKind !== undefined) return { callee: node.child(0)?.text() ?? "", args: undefined };
  const kinds = kind.argumentKinds ?? [];
  let callee = "";
  let args: SgNode | null = null;
  for (const child of node.children()) {
    const k = String(child.kind());
    if (kinds.includes(k)) {
      args = child;
      break;
    }
    if (k !== "new") callee += child.text();
  }
  return { callee, args };
}

/** The argument list of a call of callee and suffix: the first of `argumentKinds` in its suffix. */
function suffixArguments(node: SgNode, kind: CallKind): SgNode | null {
  const kinds = kind.argumentKinds ?? [];
  const suffix = node.children().find((c) => String(c.kind()) === kind.suffixKind);
  return suffix?.children().find((c) => kinds.includes(String(c.kind()))) ?? null;
}

/** The same for a grammar that names the argument list's field: the callee is the text before it. */
function beforeArgumentField(
  node: SgNode,
  fields: readonly string[],
  source?: TreeText,
): { callee: string; args: SgNode | null; start?: number } {
  let args: SgNode | null = null;
  for (const f of fields) {
    args = node.field(f);
    if (args) break;
  }
  if (!args) return { callee: "", args: null };
  // The argument list ends the call (most calls): the callee is the text before it, two reads of text
  // (a range is dearer than a text across the parser's boundary).
  const whole = node.text();
  const argsText = args.text();
  if (whole.endsWith(argsText))
    return { callee: whole.slice(0, whole.length - argsText.length).replace(/^new\b/, ""), args };
  // Sliced from the tree's whole text when the index has it: no copy of the call's own text.
  const start = node.range().start.index;
  const end = args.range().start.index;
  const callee =
    source !== undefined
      ? source.text.slice(start - source.offset, end - source.offset)
      : node.text().slice(0, end - start);
  return { callee: callee.replace(/^new\b/, ""), args, start };
}

/** A call as the index holds it: the callee read, the rest read from the tree when first asked. */
class IndexedCall implements CallSite {
  readonly callee: string;
  readonly method: string;
  declare readonly receiver?: string;
  #argumentList: SgNode | null | undefined;
  #args: SgNode[] | undefined;
  #row: number | undefined;

  #start: number | undefined;

  constructor(
    readonly node: SgNode,
    calleeText: string,
    private readonly grammar: Grammar,
    private readonly kind: CallKind,
    argumentList?: SgNode | null,
    start?: number,
  ) {
    this.callee = compact(calleeText, grammar);
    if (argumentList !== undefined) this.#argumentList = argumentList;
    if (start !== undefined) this.#start = start;
    const { receiver, method } = splitCallee(this.callee);
    this.method = method;
    if (receiver !== undefined) this.receiver = receiver;
  }

  /** The argument list, or null for a call without one (a parse recovered from an error). */
  argumentListOrNull(): SgNode | null {
    if (this.#argumentList === undefined)
      this.#argumentList =
        this.kind.suffixKind !== undefined ? suffixArguments(this.node, this.kind) : this.node.field("arguments");
    return this.#argumentList;
  }

  get argumentList(): SgNode {
    // `callSites` hands out only calls that have one.
    return this.argumentListOrNull() as SgNode;
  }

  get args(): SgNode[] {
    this.#args ??= argumentNodes(this.argumentList, this.grammar, this.kind);
    return this.#args;
  }

  get row(): number {
    this.#row ??= this.node.range().start.line;
    return this.#row;
  }

  /** Where the call starts in the text, for ordering calls found by different searches. */
  get start(): number {
    this.#start ??= this.node.range().start.index;
    return this.#start;
  }
}

/** One call node read as the index reads it, or undefined when it names no callee. */
/** A tree's whole text, and where it starts in the parsed source. */
interface TreeText {
  text: string;
  offset: number;
}

/**
 * The callee of an `after-callee` call: the chain of siblings right before the node's parent
 * (Dart's `.b` selectors) and the one node before them (`a`), joined.
 */
function calleeBefore(node: SgNode, kind: CallKind): string {
  const chain = kind.chainKinds ?? [];
  const parts: string[] = [];
  let sibling = node.parent()?.prev();
  while (sibling) {
    const k = String(sibling.kind());
    if (!sibling.isNamed()) break;
    parts.unshift(sibling.text());
    if (!chain.includes(k)) break;
    sibling = sibling.prev();
  }
  return parts.join("");
}

function indexedCall(node: SgNode, kind: CallKind, grammar: Grammar, source?: TreeText): IndexedCall | undefined {
  if (kind.shape === "command") {
    const name = node.field(kind.calleeField ?? "name");
    return name ? new IndexedCall(node, name.text(), grammar, kind, node) : undefined;
  }
  if (kind.shape === "after-callee") {
    const callee = calleeBefore(node, kind);
    const kinds = kind.argumentKinds ?? [];
    const args = node.children().find((c) => kinds.includes(String(c.kind()))) ?? null;
    return callee ? new IndexedCall(node, callee, grammar, kind, args) : undefined;
  }
  if (kind.shape === "before-arguments") {
    const { callee, args, start } = beforeArguments(node, kind, source);
    return callee ? new IndexedCall(node, callee, grammar, kind, args, start) : undefined;
  }
  const fn = node.field(kind.calleeField ?? "function");
  if (!fn) return undefined;
  const text = fn.text();
  // TypeScript parses `await pool.query<Row>(sql)` with the await inside the callee: look past it.
  if (text.startsWith("await") && String(fn.kind()) === "await_expression") {
    const awaited = fn.namedChildren()[0];
    if (awaited) return new IndexedCall(node, awaited.text(), grammar, kind);
  }
  return new IndexedCall(node, text, grammar, kind);
}

/**
 * One node read as a call of its grammar (the callee split, the arguments unwrapped), or
 * undefined when it is no call kind of the grammar or has no argument list.
 *
 * @example callAt("java", node)?.callee // "String.format"
 */
export function callAt(lang: SyntaxLanguage, node: SgNode): CallSite | undefined {
  const grammar = GRAMMARS[lang];
  const kind = grammar.callKinds.find((k) => k.kind === String(node.kind()));
  const call = kind ? indexedCall(node, kind, grammar) : undefined;
  return call && call.argumentListOrNull() !== null ? call : undefined;
}

/**
 * The kind a grammar's call nodes are first read as, when every kind that names its argument
 * list's field names it alike and the others have no such field (PHP's `new`): a node is read
 * by that field, and its kind asked only when it has none (one crossing fewer per call).
 */
function fieldsFirst(grammar: Grammar): CallKind | undefined {
  const named = grammar.callKinds.filter((k) => k.argumentFields);
  const fields = named[0]?.argumentFields?.join();
  const alike = grammar.callKinds.every((k) =>
    k.argumentFields ? k.argumentFields.join() === fields : k.shape === "before-arguments",
  );
  return fields !== undefined && alike ? named[0] : undefined;
}

/**
 * Every call of a tree, in source order, found once per tree: each crossing into the parser costs
 * microseconds, so the detectors share one list and filter it by callee text in JavaScript.
 */
const INDEX = new WeakMap<SgNode, IndexedCall[]>();

function allCalls(syntax: Pick<PatchSyntax, "lang" | "root">): IndexedCall[] {
  const cached = INDEX.get(syntax.root);
  if (cached) return cached;
  const grammar = GRAMMARS[syntax.lang];
  const ids = callKindIds(syntax.lang);
  const out: IndexedCall[] = [];
  // One copy of the whole text, sliced for each callee a grammar's fields locate.
  // The root's text starts where its first node does (leading blank lines are not in it).
  const source = grammar.callKinds.some((k) => k.argumentFields || k.token)
    ? { text: syntax.root.text(), offset: syntax.root.range().start.index }
    : undefined;
  // A kind whose token the text lacks (`?->`, `::`, `new`) has no node: it is not searched for.
  const live = ids.filter(
    ({ kind }) => kind.token === undefined || source === undefined || precheck(source.text.includes(kind.token)),
  );
  const only = live.length === 1 ? live[0] : undefined;
  if (only) {
    // One kind: the numeric matcher, the cheapest search ast-grep has.
    for (const node of syntax.root.findAll(only.id)) {
      const call = indexedCall(node, only.kind, grammar, source);
      if (call) out.push(call);
    }
  } else if (live.length > 1) {
    // Several kinds: one walk of the tree for all of them (each search is a walk of its own).
    const byKind = new Map(live.map(({ kind }) => [kind.kind, kind]));
    const alike = fieldsFirst(grammar);
    for (const node of syntax.root.findAll({ rule: { any: live.map(({ kind }) => ({ kind: kind.kind })) } })) {
      const read = alike ? beforeArgumentField(node, alike.argumentFields ?? [], source) : undefined;
      if (alike && read?.args) {
        if (read.callee) out.push(new IndexedCall(node, read.callee, grammar, alike, read.args, read.start));
        continue;
      }
      const kind = byKind.get(String(node.kind()));
      const call = kind ? indexedCall(node, kind, grammar, source) : undefined;
      if (call) out.push(call);
    }
  }
  // Either walk is in tree order, which is source order (an outer call before the calls in its callee).
  INDEX.set(syntax.root, out);
  return out;
}

/**
 * The calls in a parsed tree, in source order, with the callee split into receiver and method.
 * `calleeFilter` keeps only calls whose callee (a pattern over the text `callee` gives, or a test
 * of the callee's parts) it accepts: a cheap pre-filter, tested before anything else is read from
 * the tree (the argument list is looked up only for a call it keeps).
 *
 * @example callSites(syntax, /log|Log/).map((c) => c.callee) // ["logger.info", "log.Printf"]
 */
export function callSites(
  syntax: Pick<PatchSyntax, "lang" | "root">,
  calleeFilter?: RegExp | ((call: Pick<CallSite, "callee" | "method" | "receiver">) => boolean),
): CallSite[] {
  const keep =
    calleeFilter === undefined
      ? undefined
      : calleeFilter instanceof RegExp
        ? (call: IndexedCall) => calleeFilter.test(call.callee)
        : calleeFilter;
  const out: CallSite[] = [];
  for (const call of allCalls(syntax)) {
    if (keep && !keep(call)) continue;
    if (call.argumentListOrNull() === null) continue;
    out.push(call);
  }
  return out;
}
