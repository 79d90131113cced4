import type { SgNode } from "@ast-grep/napi";
import { callSites, type CallSite } from "../code/call-sites.js";
import { GRAMMARS, type SyntaxLanguage } from "../code/grammars.js";
import type { PatchSyntax } from "../code/syntax-tree.js";
import { sanitizeCode } from "../code-lines.js";
import { callArguments, kindOf, StringBuilderReader } from "./built-string.js";
import {
  type CallRule,
  matchesCall,
  matchesMethod,
  matchesValue,
  mayMatchCallee,
  methodParts,
  nodesOfKinds,
  targetAndValue,
  targetName,
} from "./call-rules.js";
import { precheck } from "../precheck.js";
import { CRYPTO_RULES, type CryptoRules, TLS_DECLARATION_WORDS } from "./crypto-rules.js";
import { FUNCTION_KINDS } from "./enclosing-function.js";
import { isInnocentName, isSecretName, isSecureReceiver, secretUseOf } from "./random-flow.js";

/** Names that say a value is a password (what a fast hash must never be used on). */
const PASSWORD = /passw|pwd|passphrase|\bpin\b/i;

/** What a call (or a value, or a method) in the tree is, for SEC-05 and SEC-03. */
export interface CryptoCall {
  kind: "predictable-random" | "fast-hash-password" | "weak-hash" | "weak-cipher" | "fixed-iv" | "tls-off";
  /** 0-based parsed row of the call. */
  row: number;
  /** The callee as written (for a value or a method: the name given it, or the method's name). */
  call: string;
  /** The name that gave the purpose away (a variable, a key, the enclosing function). */
  purpose?: string;
}

/**
 * False only when the text (as the parser would read it) names no call, value or method that
 * `cryptoCalls` looks at in this grammar: such a file need not be parsed for SEC-05 or SEC-03.
 *
 * @example mayCallCrypto("const id = crypto.randomUUID()", "typescript") // true
 */
export function mayCallCrypto(text: string, lang: SyntaxLanguage): boolean {
  return CRYPTO_RULES[lang].words.test(text);
}

const anyCall = (rules: readonly CallRule[], call: CallSite, text: string): boolean =>
  rules.some((r) => matchesCall(r, call, text));

/** Lines that only name an import (`import ...NoopHostnameVerifier;`, `using ...;`, `use ...;`). */
const IMPORT_LINE = /^\s*(import|using|use|require|require_once)\b/;

/**
 * By the grammar's rules (`crypto-rules.ts`), on added rows only: randomness from a predictable
 * generator whose value is named as a token, id, secret or password, or reaches a cookie or such a
 * name (`random-flow.ts`; a generator given a cryptographic one is not predictable); fast hashes (MD5, SHA-1,
 * SHA-2) of a password; MD5 and SHA-1; broken ciphers and ECB; constant IVs; and TLS checks turned
 * off (by a call's arguments, a value given a name, a verifier whose body accepts everything, or a
 * constant that only means "verify nothing").
 *
 * @example cryptoCalls(syntax) // [{ kind: "predictable-random", row: 4, call: "random.choice", purpose: "reset_token" }]
 */
export function cryptoCalls(syntax: PatchSyntax): CryptoCall[] {
  // SEC-03 and SEC-05 both ask, per file: one reading per tree.
  const known = FOUND.get(syntax.root);
  if (known) return known;
  const rules = CRYPTO_RULES[syntax.lang];
  // Only rules that read imports, declarations or other nodes need the whole text.
  const text = NEEDS_TEXT.get(rules) ? syntax.root.text() : "";
  const out: CryptoCall[] = [...callFindings(syntax, rules, text), ...nodeFindings(syntax, rules, text)];
  out.sort((a, b) => a.row - b.row);
  FOUND.set(syntax.root, out);
  return out;
}

const FOUND = new WeakMap<SgNode, CryptoCall[]>();

const NEEDS_TEXT = new Map<CryptoRules, boolean>(
  Object.values(CRYPTO_RULES).map((r) => {
    const calls = [r.random, r.fastHash, r.weakHash, r.weakCipher, r.fixedIv, r.tlsOff].flat();
    const byText = calls.some((c) => c.fileText || c.unlessFileText || c.receiverDeclared);
    const byNodes = r.tlsMethods.length > 0 || r.valueWords !== undefined;
    return [r, byText || byNodes || r.tlsNames !== undefined || r.weakCipherNames !== undefined];
  }),
);

function callFindings(syntax: PatchSyntax, rules: CryptoRules, text: string): CryptoCall[] {
  const out: CryptoCall[] = [];
  const lists = [rules.random, rules.fastHash, rules.weakHash, rules.weakCipher, rules.fixedIv, rules.tlsOff];
  // The callee decides first (plain JavaScript); arguments and rows are read only for a candidate.
  for (const call of callSites(syntax, (c) => lists.some((list) => list.some((r) => mayMatchCallee(r, c))))) {
    if (!syntax.isAdded(call.row)) continue;
    const found = (kind: CryptoCall["kind"]) => out.push({ kind, row: call.row, call: call.callee });
    if (anyCall(rules.random, call, text)) {
      if (isSecureReceiver(syntax, call, rules.secureGenerator)) continue;
      const filled = rules.randomFills !== undefined && anyCall(rules.randomFills, call, text);
      const named = filled ? undefined : purposeOf(call.node);
      // Named for what it is (`const resetToken = ...`), or followed to where it goes.
      const source = filled ? call.args[0] : call.node;
      const use =
        named === undefined && source ? secretUseOf(syntax, source, rules.randomSinks, text, filled) : undefined;
      const line = use ? syntax.lineAt(use.row) : undefined;
      const purpose = named ?? (use && `a value that reaches ${use.purpose}${line ? ` on line ${line}` : ""}`);
      if (purpose) out.push({ kind: "predictable-random", row: call.row, call: call.callee, purpose });
      continue;
    }
    if (anyCall(rules.fastHash, call, text) && hashesPassword(syntax, call)) found("fast-hash-password");
    else if (anyCall(rules.weakHash, call, text)) found("weak-hash");
    else if (anyCall(rules.weakCipher, call, text)) found("weak-cipher");
    else if (anyCall(rules.fixedIv, call, text)) found("fixed-iv");
    else if (anyCall(rules.tlsOff, call, text)) found("tls-off");
  }
  return out;
}

/** Values given names, verifier methods, and constants named in code, on added rows. */
function nodeFindings(syntax: PatchSyntax, rules: CryptoRules, text: string): CryptoCall[] {
  const out: CryptoCall[] = [];
  const valueRules = [...rules.ivValues, ...rules.tlsValues];
  const values = valueRules.length > 0 && (!rules.valueWords || precheck(rules.valueWords.test(text)));
  for (const node of values ? nodesOfKinds(syntax.root, rules.valueKinds) : []) {
    const row = node.range().start.line;
    if (!syntax.isAdded(row)) continue;
    const iv = rules.ivValues.some((r) => matchesValue(r, node));
    if (iv || rules.tlsValues.some((r) => matchesValue(r, node))) {
      const name = targetAndValue(node)?.target;
      out.push({ kind: iv ? "fixed-iv" : "tls-off", row, call: name ? targetName(name) : node.text() });
    }
  }
  const declarationWords = TLS_DECLARATION_WORDS[syntax.lang];
  const methods = rules.tlsMethods.length > 0 && (!declarationWords || precheck(declarationWords.test(text)));
  for (const node of methods ? nodesOfKinds(syntax.root, rules.methodKinds) : []) {
    const name = methodParts(node)?.name;
    const row = name?.range().start.line;
    if (row === undefined || !syntax.isAdded(row)) continue;
    if (rules.tlsMethods.some((r) => matchesMethod(r, node, text)))
      out.push({ kind: "tls-off", row, call: name?.text() ?? "" });
  }
  if (rules.tlsNames || rules.weakCipherNames) out.push(...namedConstants(syntax, rules, text));
  return out;
}

/** Rows whose code (strings and comments dropped) names a constant of `tlsNames` or `weakCipherNames`. */
function namedConstants(syntax: PatchSyntax, rules: CryptoRules, text: string): CryptoCall[] {
  const names = [rules.tlsNames, rules.weakCipherNames].filter((r): r is RegExp => r !== undefined);
  if (!precheck(names.some((r) => r.test(text)))) return [];
  const family = GRAMMARS[syntax.lang].family;
  const out: CryptoCall[] = [];
  text.split("\n").forEach((line, row) => {
    if (!syntax.isAdded(row) || IMPORT_LINE.test(line) || !precheck(names.some((r) => r.test(line)))) return;
    const code = sanitizeCode(line, family);
    const tls = rules.tlsNames?.exec(code);
    const ecb = tls ? null : rules.weakCipherNames?.exec(code);
    if (tls) out.push({ kind: "tls-off", row, call: tls[0] });
    else if (ecb) out.push({ kind: "weak-cipher", row, call: ecb[0] });
  });
  return out;
}

/**
 * Whether a hash call's input names a password: in its arguments, or in what an argument variable
 * was given (`var bytes = Encoding.UTF8.GetBytes(password); sha.ComputeHash(bytes)`).
 */
function hashesPassword(syntax: PatchSyntax, call: CallSite): boolean {
  if (PASSWORD.test(argumentText(call))) return true;
  const reader = StringBuilderReader.of(syntax);
  return callArguments(call).some(
    (a) =>
      /^[$@]?[A-Za-z_]\w*$/.test(a.text()) &&
      reader.assignmentsTo(a.text(), call.row + 1).some((v) => PASSWORD.test(v.text())),
  );
}

function argumentText(call: CallSite): string {
  return callArguments(call)
    .map((a) => a.text())
    .join(" ");
}

const NAMED_KINDS = new Set([
  "variable_declarator",
  "assignment_expression",
  "assignment",
  "augmented_assignment",
  "short_var_declaration",
  "assignment_statement",
  "var_spec",
  "pair",
  "keyword_argument",
  "keyed_element",
  "public_field_definition",
  "field_definition",
  // Kotlin, Rust.
  "property_declaration",
  "let_declaration",
]);

/**
 * The name that says what a value is for: the variable, key or keyword it is assigned to, else
 * the enclosing function's name (or the variable holding an arrow function), when it names a
 * secret purpose.
 */
function purposeOf(node: SgNode): string | undefined {
  const names: string[] = [];
  let given: string | undefined;
  for (let n: SgNode | null = node.parent(); n; n = n.parent()) {
    const kind = kindOf(n);
    if (NAMED_KINDS.has(kind) && names.length === 0) {
      const target =
        n.field("name") ?? n.field("left") ?? n.field("key") ?? n.field("pattern") ?? targetAndValue(n)?.target;
      if (target) {
        names.push(target.text());
        given = target.text();
      }
    }
    if (FUNCTION_KINDS.has(kind)) {
      const name = (n.field("name") ?? methodParts(n)?.name)?.text();
      if (name) names.push(name);
      break;
    }
    if (kind === "arrow_function" || kind === "lambda") {
      // An arrow function held by a variable is named by it; an inline callback is part of its caller.
      const holder = n.parent();
      if (holder && kindOf(holder) === "variable_declarator") {
        const name = holder.field("name")?.text();
        if (name) names.push(name);
        break;
      }
    }
  }
  // A value named for a delay, a sample, a colour or a test is not a secret, whatever its function.
  if (given !== undefined && isInnocentName(given)) return undefined;
  return names.find((name) => isSecretName(name));
}
