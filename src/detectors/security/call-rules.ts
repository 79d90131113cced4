import type { SgNode } from "@ast-grep/napi";
import type { CallSite } from "../code/call-sites.js";

/**
 * The shapes the per-language rule tables of SEC-05 (`crypto-rules.ts`) and SEC-03
 * (`auth-rules.ts`) are written in, and the code that applies them to a parsed tree: a call and
 * its arguments, a name given a value (an assignment, a hash or array entry, an initializer), a
 * method whose body decides nothing. The tables hold the languages' words; this file holds none.
 *
 * @example matchesCall({ method: /^danger_accept_invalid_certs$/, args: [{ index: 0, matches: /^true$/ }] }, call, text)
 */

/** A call, by its callee and arguments. Every given test must hold. */
export interface CallRule {
  /** The callee as `callSites` writes it (`.` for member access, whitespace removed). */
  callee?: RegExp;
  /** The callee's last name. */
  method?: RegExp;
  /** The callee's receiver (what the method is called on). */
  receiver?: RegExp;
  /**
   * The receiver is a name the file declares with this type (`Random rng = new Random()`,
   * `var rng = new Random()`, `val rng = Random(1)`), as far as the patch shows its declaration.
   */
  receiverDeclared?: RegExp;
  /** Arguments at these positions, their text with whitespace collapsed. */
  args?: ReadonlyArray<{ index: number; matches: RegExp }>;
  /** Some argument matches (text with whitespace collapsed). */
  anyArgument?: RegExp;
  /** No argument matches: `sample(random: SecureRandom)` is safe. */
  noArgument?: RegExp;
  /** The call has no arguments at all (`chars.random()`). */
  noArguments?: boolean;
  /** The file's parsed text must match (an import that says what a name is). */
  fileText?: RegExp;
  /** The file's parsed text must not match. */
  unlessFileText?: RegExp;
}

/** A name given a value: `x.verify_mode = VERIFY_NONE`, `'verify' => false`, `ValidateLifetime = false`. */
export interface ValueRule {
  /** The target's last name (`verify_mode` of `http.verify_mode`, `iv` of `$iv`, `verify` of `'verify'`). */
  target: RegExp;
  /** The value, whitespace collapsed. */
  value: RegExp;
  /** The hash or array holding the entry is itself the value of this key (`ssl: { verify: false }`). */
  parentKey?: RegExp;
}

/** A method or function declared with a body that decides nothing (`{}`, `return true`). */
export interface MethodRule {
  name: RegExp;
  /** The body, comments dropped and whitespace collapsed. */
  body: RegExp;
  /** The file's parsed text must match (`HostnameVerifier` for a method named `verify`). */
  fileText?: RegExp;
}

/** Collapses runs of whitespace: rule patterns are written with single spaces. */
export const collapsed = (text: string): string => text.replace(/\s+/g, " ").trim();

/** The text of a body or value with `//`, `/* *\/` and `#` comments dropped, whitespace collapsed. */
export function withoutComments(text: string): string {
  return collapsed(text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|[^:"'])\/\/[^\n]*/g, "$1"));
}

const DECLARED = new Map<string, RegExp>();

/** Answers for the last file's text: one scan of it per declared name and type. */
let answered: { text: string; answers: Map<string, boolean> } = { text: "", answers: new Map() };

/** Whether the text declares `name` with a type `type` matches (Java/C#/Kotlin/Rust forms). */
function declaredAs(name: string, type: RegExp, text: string): boolean {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return false;
  const key = `${name} ${type.source}`;
  if (answered.text !== text) answered = { text, answers: new Map() };
  const known = answered.answers.get(key);
  if (known !== undefined) return known;
  const answer = declarationPattern(name, type, key).test(text);
  answered.answers.set(key, answer);
  return answer;
}

function declarationPattern(name: string, type: RegExp, key: string): RegExp {
  let pattern = DECLARED.get(key);
  if (!pattern) {
    const t = type.source.replace(/^\^|\$$/g, "");
    pattern = new RegExp(
      String.raw`\b(?:${t})\s+${name.replace("$", "\\$")}\b|\b${name.replace("$", "\\$")}\s*(?::\s*(?:${t})\s*)?=\s*(?:new\s+)?(?:${t})\s*\(`,
    );
    DECLARED.set(key, pattern);
  }
  return pattern;
}

/**
 * Whether a call matches a rule. `fileText` is the parsed text of the whole file (for imports and
 * declarations).
 *
 * @example matchesCall({ callee: /^Math\.random$/ }, call, "") // true for Math.random()
 */
export function matchesCall(rule: CallRule, call: CallSite, fileText: string): boolean {
  if (rule.callee && !rule.callee.test(call.callee)) return false;
  if (rule.method && !rule.method.test(call.method)) return false;
  if (rule.receiver && !rule.receiver.test(call.receiver ?? "")) return false;
  if (rule.fileText && !rule.fileText.test(fileText)) return false;
  if (rule.unlessFileText?.test(fileText)) return false;
  if (rule.receiverDeclared && !declaredAs(call.receiver ?? "", rule.receiverDeclared, fileText)) return false;
  if (rule.noArguments && call.args.length > 0) return false;
  if (rule.args || rule.anyArgument || rule.noArgument) {
    const texts = call.args.map((a) => collapsed(a.text()));
    if (rule.args && !rule.args.every((a) => a.matches.test(texts[a.index] ?? "\u0000"))) return false;
    if (rule.anyArgument && !texts.some((t) => rule.anyArgument?.test(t))) return false;
    if (rule.noArgument && texts.some((t) => rule.noArgument?.test(t))) return false;
  }
  return true;
}

/** Whether the callee text alone can match (a cheap first filter before the arguments are read). */
export function mayMatchCallee(rule: CallRule, call: Pick<CallSite, "callee" | "method">): boolean {
  return (!rule.callee || rule.callee.test(call.callee)) && (!rule.method || rule.method.test(call.method));
}

/** Node kinds that hold a name and its value, and those that pair a key with a value. */
const PAIR_KINDS = new Set(["pair", "array_element_initializer", "field_initializer"]);
const SKIPPED_TARGET_KINDS = new Set(["binding_pattern_kind", "mutable_specifier", "modifiers", "implicit_type"]);

/** The target and value of an assignment, a declaration with a value, or a key/value entry. */
export function targetAndValue(node: SgNode): { target: SgNode; value: SgNode } | undefined {
  const named = node.namedChildren().filter((c) => !SKIPPED_TARGET_KINDS.has(String(c.kind())));
  const target = named[0];
  const value = named[named.length - 1];
  if (!target || !value || target === value || named.length < 2) return undefined;
  return { target, value };
}

/** The last name of a target: `verify_mode` of `http.verify_mode`, `iv` of `$iv`, `x` of `x: Int`. */
export function targetName(target: SgNode): string {
  const text = target.text().replace(/["'`]/g, "");
  const typed = /^[$@:]*([A-Za-z_]\w*)\s*:\s*\S/.exec(text);
  if (typed?.[1] && !text.includes("=>")) return typed[1];
  return /([A-Za-z_]\w*[!?]?)\W*$/.exec(text)?.[1] ?? "";
}

/** The key of the entry whose value holds `node` (`ssl` of `ssl: { verify: false }`), if any. */
function parentKeyOf(node: SgNode): string | undefined {
  for (let n = node.parent(), depth = 0; n && depth < 4; n = n.parent(), depth++) {
    if (PAIR_KINDS.has(String(n.kind()))) {
      const key = targetAndValue(n)?.target;
      return key ? targetName(key) : undefined;
    }
  }
  return undefined;
}

/**
 * Whether a node that gives a name a value matches a rule.
 *
 * @example matchesValue({ target: /^verify$/, value: /^false$/ }, pairNode) // true for 'verify' => false
 */
export function matchesValue(rule: ValueRule, node: SgNode): boolean {
  const parts = targetAndValue(node);
  if (!parts) return false;
  if (!rule.target.test(targetName(parts.target))) return false;
  if (!rule.value.test(collapsed(parts.value.text()))) return false;
  return !rule.parentKey || rule.parentKey.test(parentKeyOf(node) ?? "");
}

const BODY_KINDS = new Set(["block", "function_body", "arrow_expression_clause", "compound_statement"]);
const NAME_KINDS = new Set(["identifier", "simple_identifier", "name"]);

/** A method's name node and its body, or undefined for a declaration without a body. */
export function methodParts(node: SgNode): { name: SgNode; body: SgNode } | undefined {
  const children = node.children();
  const name = node.field("name") ?? children.find((c) => NAME_KINDS.has(String(c.kind())));
  const body = [...children].reverse().find((c) => BODY_KINDS.has(String(c.kind())));
  return name && body ? { name, body } : undefined;
}

/**
 * Whether a declared method matches a rule: its name, its body (comments dropped) and the file.
 *
 * @example matchesMethod({ name: /^checkServerTrusted$/, body: /^\{ ?\}$/ }, decl, text) // true for an empty check
 */
export function matchesMethod(rule: MethodRule, node: SgNode, fileText: string): boolean {
  const parts = methodParts(node);
  if (!parts || !rule.name.test(parts.name.text())) return false;
  if (rule.fileText && !rule.fileText.test(fileText)) return false;
  return rule.body.test(withoutComments(parts.body.text()));
}

/**
 * The nodes of the given kinds in a parsed tree, found in one search (the caller keeps those on
 * rows the patch adds).
 *
 * @example nodesOfKinds(syntax.root, ["pair"]).length // 2
 */
export function nodesOfKinds(root: SgNode, kinds: readonly string[]): SgNode[] {
  if (kinds.length === 0) return [];
  const rule = kinds.length === 1 ? { kind: kinds[0] } : { any: kinds.map((kind) => ({ kind })) };
  return root.findAll({ rule } as Parameters<SgNode["findAll"]>[0]);
}
