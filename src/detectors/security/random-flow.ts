import type { SgNode } from "@ast-grep/napi";
import { callAt, callSites, type CallSite } from "../code/call-sites.js";
import { GRAMMARS } from "../code/grammars.js";
import type { PatchSyntax } from "../code/syntax-tree.js";
import { kindOf, StringBuilderReader } from "./built-string.js";
import { type CallRule, matchesCall, methodParts, targetAndValue } from "./call-rules.js";
import { enclosingFunction, FUNCTION_KINDS, functionName, LAMBDA_KINDS } from "./enclosing-function.js";
import { STRING_SYNTAX } from "./string-syntax.js";

/**
 * Where a predictable random value goes, within one file: forward from the generator's call
 * through expressions (string conversions, concatenation, formatting, method calls on it), locals
 * (every later use of the name it is given, in the same function), and returns of helper functions
 * (every call of the helper in the file), until it reaches a security value: a cookie (a call of
 * the language's `randomSinks`), or a name, key, setter or function that says token, session,
 * password, nonce, key, salt, secret, reset, remember, cookie... (`isSecuritySink`). A value used for
 * jitter, sampling, shuffling, a colour or a test is not followed past a name that says so. Small
 * and bounded on purpose (SEC-02's dataflow engine is the general one).
 *
 * @example secretUseOf(syntax, call.node, rules.randomSinks, text) // { purpose: "cookie (new Cookie(...))", row: 7 }
 */

/** Words that say a value must be unguessable. */
const SECRET_WORD =
  /token|secret|passw|pwd|nonce|otp|salt|session|invite|reset|verif|code|key|uuid|guid|csrf|api|cred|cookie|remember/i;
/** Case matters for ids: `userId`, `user_id`, `sid`, `ID`, but not `valid` or `paid`. */
const ID_WORD = /\b(id|ID|sid|ids)\b|[a-z0-9]Id\b|[a-z0-9]Ids\b|_(id|ID|ids)\b|^id_/;
/** Words that say a random value is not a secret: jitter, sampling, shuffling, colours, tests. */
const INNOCENT_WORD =
  /^(test|tests|mock|fake|dummy|sample|sampling|jitter|delay|backoff|shuffle|shuffled|sort|color|colour|hue|retry|timeout|sleep|wait|demo|example|placeholder|animation|position|offset)$/;

/** The words of a name: `resetToken` → reset, token; `RESET_TOKEN` → reset, token. */
function words(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

/**
 * Whether a name says what a random value is for is a secret (and nothing in it says it is a test,
 * a delay, a sample or a colour).
 *
 * @example isSecretName("rememberMeKey") // true; isSecretName("testId") // false
 */
export function isSecretName(name: string): boolean {
  if (isInnocentName(name)) return false;
  return SECRET_WORD.test(name) || ID_WORD.test(name.replace(/[^\w]/g, "_"));
}

/**
 * Whether a name says a random value is for jitter, sampling, shuffling, a colour or a test.
 *
 * @example isInnocentName("retryDelayMs") // true
 */
export function isInnocentName(name: string): boolean {
  return words(name).some((w) => INNOCENT_WORD.test(w));
}

/** Words a value's name has when it must be unguessable, read as parts of a name (`reset`, not `preset`). */
const FLOW_SUBSTRING = /token|secret|passw|nonce|session|csrf|xsrf|remember|cookie|credential/i;
const FLOW_WORDS = new Set(["key", "apikey", "salt", "otp", "reset", "sid", "pwd", "pin", "invite", "verification"]);

/**
 * Whether a name a random value reaches says it is a security value: stricter than `isSecretName`
 * (which judges the name a generator's value is given directly), since a value followed several
 * steps passes through many names: an `id`, a `code` or `api` alone does not make one.
 *
 * @example isSecuritySink("rememberMeKey") // true; isSecuritySink("elementId") // false
 */
export function isSecuritySink(name: string): boolean {
  if (isInnocentName(name)) return false;
  return FLOW_SUBSTRING.test(name) || words(name).some((w) => FLOW_WORDS.has(w));
}

/** A security value a random value reaches. */
export interface SecretUse {
  /** What it reaches: `rememberMeKey`, `a cookie (new Cookie(...))`, `mysession[cookie]`. */
  purpose: string;
  /** 0-based parsed row where it reaches it. */
  row: number;
}

const MAX_HOPS = 8;
const MAX_VISITS = 200;

/** Return statements (Kotlin's `return` is a jump expression, Rust's a return expression). */
const RETURN_KINDS = new Set(["return_statement", "return", "return_expression", "jump_expression"]);
/** Keyed entries: `{ token: v }`, `token=v`, `'token' => v`, `Value: v`. */
const PAIR_KINDS = new Set([
  "pair",
  "keyword_argument",
  "array_element_initializer",
  "keyed_element",
  "named_argument",
]);
/** Where a value stops being carried: a statement, a body, a declaration of a type. */
const STOP_KIND =
  /statement$|^block$|body$|^program$|^module$|^source_file$|^compilation_unit$|_declaration$|^class$|comparison|equality|boolean_operator|^if|^while|^for|^switch|^case|^when/;
/** Operators whose result is a truth value or a count, not the random value. */
const TEST_OPERATORS = new Set([
  "<",
  ">",
  "<=",
  ">=",
  "==",
  "!=",
  "===",
  "!==",
  "&&",
  "||",
  "and",
  "or",
  "in",
  "instanceof",
]);

/** The callee of a call, without its receiver's arguments: `request.getSession().setAttribute` → `request.getSession.setAttribute`. */
function calleeName(call: CallSite): string {
  return call.callee.replace(/\([^()]*\)/g, "");
}

function contains(outer: SgNode, inner: SgNode): boolean {
  const o = outer.range();
  const i = inner.range();
  return o.start.index <= i.start.index && i.end.index <= o.end.index;
}

/**
 * The first security value a predictable random value from `source` (a generator's call node)
 * reaches in this file, or undefined.
 *
 * @example secretUseOf(syntax, call.node, CRYPTO_RULES.java.randomSinks, text)?.purpose // "rememberMeKey"
 */
export function secretUseOf(
  syntax: PatchSyntax,
  source: SgNode,
  sinks: readonly CallRule[],
  fileText: string,
  filled = false,
): SecretUse | undefined {
  const grammar = GRAMMARS[syntax.lang];
  const callKinds = new Set(grammar.callKinds.map((k) => k.kind));
  const assignmentKinds = new Set(grammar.assignmentKinds);
  const identifierKinds = STRING_SYNTAX[syntax.lang].identifierKinds;
  const seen = new Set<number>();
  let visits = 0;

  const follow = (start: SgNode, hops: number): SecretUse | undefined => {
    if (hops > MAX_HOPS || ++visits > MAX_VISITS) return undefined;
    let from = start;
    for (let n = start.parent(); n; from = n, n = n.parent()) {
      const kind = kindOf(n);
      if (seen.has(n.id())) return undefined;
      seen.add(n.id());
      if (callKinds.has(kind)) {
        const call = callAt(syntax.lang, n);
        if (call && contains(call.argumentList, from)) {
          if (sinks.some((r) => matchesCall(r, call, fileText)))
            return { purpose: `a cookie (${call.callee}(...))`, row: call.row };
          const name = calleeName(call);
          if (isSecuritySink(name.split(".").slice(-2).join("."))) return { purpose: `${name}(...)`, row: call.row };
        }
        continue; // the call's result is made from the value
      }
      if (PAIR_KINDS.has(kind)) {
        const key = n.field("key") ?? n.field("name") ?? targetAndValue(n)?.target;
        if (!key || contains(key, from)) return undefined;
        if (isSecuritySink(key.text())) return { purpose: key.text(), row: n.range().start.line };
        if (isInnocentName(key.text())) return undefined;
        continue; // the object or argument list holds it
      }
      if (assignmentKinds.has(kind)) return assigned(n, from, hops);
      if (RETURN_KINDS.has(kind)) return returned(n, hops);
      if (kind.includes("binary") || kind.includes("expression")) {
        const op = n
          .children()
          .find((c) => !c.isNamed())
          ?.text();
        if (op !== undefined && TEST_OPERATORS.has(op) && (kind.includes("binary") || kind === "infix_expression"))
          return undefined;
      }
      // An arrow function's expression body is what it returns (`const gen = () => Math.random()`).
      if (LAMBDA_KINDS.has(kind) && kind !== "block" && n.field("body")?.id() === from.id()) return returnedBy(n, hops);
      if (FUNCTION_KINDS.has(kind) || LAMBDA_KINDS.has(kind) || STOP_KIND.test(kind)) return undefined;
    }
    return undefined;
  };

  /** A value given to a name: the name judged, then its later uses in the same function followed. */
  const assigned = (node: SgNode, from: SgNode, hops: number): SecretUse | undefined => {
    const target = node.field("left") ?? node.field("name") ?? node.field("pattern") ?? targetAndValue(node)?.target;
    if (!target) return undefined;
    const name = target.text();
    const row = node.range().start.line;
    // The value picks a place in what is assigned: a session id when the store is sessions (`sessions[sid] = user`).
    if (contains(target, from)) return isSecuritySink(name) ? { purpose: name, row } : undefined;
    if (isSecuritySink(name)) return { purpose: name, row };
    if (isInnocentName(name) || !/^[$@]?[A-Za-z_]\w*$/.test(name)) return undefined;
    const scope = enclosing(node, FUNCTION_KINDS) ?? syntax.root;
    for (const use of usesOf(scope, name, identifierKinds)) {
      if (use.range().start.line < row || contains(target, use)) continue;
      const found = follow(use, hops + 1);
      if (found) return found;
    }
    return undefined;
  };

  /** A value returned: the function's name judged, then every call of it in the file followed. */
  const returned = (node: SgNode, hops: number): SecretUse | undefined => {
    if (kindOf(node) === "jump_expression" && !node.text().startsWith("return")) return undefined;
    const fn = enclosingFunction(node);
    return fn ? returnedBy(fn, hops) : undefined;
  };

  /** What a function returns goes where its calls go: its name judged, then every call of it followed. */
  const returnedBy = (fn: SgNode, hops: number): SecretUse | undefined => {
    const name = functionName(fn);
    if (!name) return undefined;
    if (isSecuritySink(name)) return { purpose: `${name}()`, row: fn.range().start.line };
    if (isInnocentName(name)) return undefined;
    for (const call of callSites(syntax, (c) => c.method === name)) {
      const found = follow(call.node, hops + 1);
      if (found) return found;
    }
    return undefined;
  };

  if (!filled) return follow(source, 0);
  // A buffer the generator filled (`rng.nextBytes(buf)`): its later uses carry the random bytes.
  const name = source.text();
  if (!/^[$@]?[A-Za-z_]\w*$/.test(name)) return undefined;
  const row = source.range().start.line;
  const scope = enclosing(source, FUNCTION_KINDS) ?? syntax.root;
  for (const use of usesOf(scope, name, identifierKinds)) {
    if (use.range().start.line <= row) continue;
    const found = follow(use, 1);
    if (found) return found;
  }
  return undefined;
}

/** The identifiers named `name` in a scope. */
function usesOf(scope: SgNode, name: string, identifierKinds: readonly string[]): SgNode[] {
  return scope.findAll({
    rule: { any: identifierKinds.map((kind) => ({ kind })), regex: `^${name.replace(/\$/g, "\\$")}$` },
  } as Parameters<SgNode["findAll"]>[0]);
}

/**
 * Whether the generator a method is called on is a cryptographic one after all: a variable given
 * one (`Random numGen = SecureRandom.getInstance("SHA1PRNG")`), or a parameter that every call of
 * its function in the file passes such a variable or value.
 *
 * @example isSecureReceiver(syntax, call, /\bSecureRandom\b/) // true for `generator.nextDouble()` fed a SecureRandom
 */
export function isSecureReceiver(syntax: PatchSyntax, call: CallSite, secure: RegExp | undefined): boolean {
  const name = call.receiver;
  if (!secure || !name || !/^[$@]?[A-Za-z_]\w*$/.test(name)) return false;
  const reader = StringBuilderReader.of(syntax);
  const holds = (value: SgNode): boolean => {
    if (secure.test(value.text())) return true;
    const values = reader.assignmentsTo(value.text(), value.range().start.line + 1);
    return values.length > 0 && values.some((v) => secure.test(v.text()));
  };
  const assigned = reader.assignmentsTo(name, call.row + 1);
  if (assigned.length > 0) return assigned.some((v) => secure.test(v.text()));
  // A parameter: what the function's callers in this file pass at its position.
  const fn = enclosing(call.node, FUNCTION_KINDS);
  const fnName = fn ? (fn.field("name") ?? methodParts(fn)?.name)?.text() : undefined;
  const params = fn?.field("parameters")?.namedChildren() ?? [];
  const index = params.findIndex((p) => (p.field("name") ?? p).text().split(/\W+/).includes(name));
  if (!fnName || index < 0) return false;
  const callers = callSites(syntax, (c) => c.method === fnName);
  return (
    callers.length > 0 &&
    callers.every((c) => {
      const arg = c.args[index];
      return arg !== undefined && holds(arg);
    })
  );
}

/** The nearest ancestor of one of the kinds (an anonymous function in between ends the search). */
function enclosing(node: SgNode, kinds: ReadonlySet<string>): SgNode | undefined {
  for (let n = node.parent(); n; n = n.parent()) {
    const kind = kindOf(n);
    if (kinds.has(kind)) return n;
    if (LAMBDA_KINDS.has(kind) && kind !== "block") return undefined;
  }
  return undefined;
}
