import type { SgNode } from "@ast-grep/napi";
import { callSites, type CallSite } from "../code/call-sites.js";
import type { PatchSyntax } from "../code/syntax-tree.js";
import { callArguments, kindOf } from "./built-string.js";

/** Words that say a value must be unguessable: tokens, secrets, passwords, codes, keys. */
const SECRET_WORD =
  /token|secret|passw|pwd|nonce|otp|salt|session|invite|reset|verif|code|key|uuid|guid|csrf|api|cred/i;
/** Case matters for ids: `userId`, `user_id`, `sid`, `ID`, but not `valid` or `paid`. */
const ID_WORD = /\b(id|ID|sid|ids)\b|[a-z0-9]Id\b|[a-z0-9]Ids\b|_(id|ID|ids)\b|^id_/;
const isSecretPurpose = (name: string): boolean => SECRET_WORD.test(name) || ID_WORD.test(name);
/** Names that say a value is a password (what a fast hash must never be used on). */
const PASSWORD = /passw|pwd|passphrase|\bpin\b/i;

/** What a call in the tree is, for SEC-05 and SEC-03. */
export interface CryptoCall {
  kind: "predictable-random" | "fast-hash-password" | "weak-hash";
  /** 0-based parsed row of the call. */
  row: number;
  /** The callee as written. */
  call: string;
  /** The name that gave the purpose away (a variable, a key, the enclosing function). */
  purpose?: string;
}

const PY_RANDOM = /^random\.(random|randint|randrange|choice|choices|getrandbits|sample|uniform|shuffle|randbytes)$/;
const PY_RANDOM_BARE = /^(randint|randrange|choice|choices|getrandbits|randbytes)$/;
/** math/rand functions that crypto/rand does not have: seeing one is enough. */
const GO_MATH_RAND_ONLY =
  /^rand\.(Intn|IntN|Int31|Int31n|Int63|Int63n|Int64|Int64N|Int32|Int32N|Uint32|Uint64|Uint|UintN|Float32|Float64|Perm|Shuffle|N|NewSource|New|Seed|ExpFloat64|NormFloat64)$/;
const GO_AMBIGUOUS_RAND = /^rand\.(Read|Int)$/;
const FAST_HASH_CALL =
  /^(hashlib\.(md5|sha1|sha224|sha256|sha384|sha512|new)|md5\.Sum|sha1\.Sum|sha256\.Sum256|sha512\.Sum512|md5|sha1|sha256|CryptoJS\.(MD5|SHA1|SHA256|SHA512))$/;
const GO_WEAK_HASH = /^(md5|sha1)\.(Sum|New)$/;

/**
 * The words every callee `cryptoCalls` looks at contains (any case): `random`, `rand.`, the bare
 * Python names (`randint`, `choice`...), the hashes (`md5`, `sha1`, `hashlib`, `CryptoJS.SHA256`)
 * and `.update`. A callee is a piece of the parsed text, so text without them has no such call.
 */
const CRYPTO_CALL_WORDS = /rand|choice|md5|sha|hashlib|update/i;

/**
 * False only when the text (as the parser would read it) names no call `cryptoCalls` looks at:
 * such a file need not be parsed for SEC-05 or SEC-03.
 *
 * @example mayCallCrypto("const id = crypto.randomUUID()") // true
 */
export function mayCallCrypto(text: string): boolean {
  return CRYPTO_CALL_WORDS.test(text);
}

/**
 * Randomness from a predictable generator (`Math.random`, Python's `random`, Go's `math/rand`)
 * whose value is named as a token, id, secret or password; fast hashes (MD5, SHA-1, SHA-2) of a
 * password; Go's MD5 and SHA-1. Only calls on added rows.
 *
 * @example cryptoCalls(syntax) // [{ kind: "predictable-random", row: 4, call: "random.choice", purpose: "reset_token" }]
 */
export function cryptoCalls(syntax: PatchSyntax): CryptoCall[] {
  // SEC-03 and SEC-05 both ask, per file: one reading per tree.
  const known = FOUND.get(syntax.root);
  if (known) return known;
  const out: CryptoCall[] = [];
  // Only Go and Python need the whole text (their imports decide what `rand` and `random` are).
  const text = syntax.lang === "go" || syntax.lang === "python" ? syntax.root.text() : "";
  const goImports = syntax.lang === "go" ? goRandImport(text) : undefined;
  const pyBareRandom = syntax.lang === "python" && /^\s*from\s+random\s+import\b/m.test(text);
  for (const call of callSites(syntax)) {
    // The callee decides first (plain JavaScript); the row is read from the tree only for a candidate.
    const random = isPredictableRandom(call, syntax.lang, goImports, pyBareRandom);
    const goWeak = syntax.lang === "go" && GO_WEAK_HASH.test(call.callee);
    if (!random && !goWeak && !FAST_HASH_CALL.test(call.callee) && call.method !== "update") continue;
    if (!syntax.isAdded(call.row)) continue;
    if (random) {
      const purpose = purposeOf(call.node);
      if (purpose) out.push({ kind: "predictable-random", row: call.row, call: call.callee, purpose });
      continue;
    }
    if (hashesPassword(call)) {
      out.push({ kind: "fast-hash-password", row: call.row, call: call.callee });
      continue;
    }
    if (goWeak) out.push({ kind: "weak-hash", row: call.row, call: call.callee });
  }
  FOUND.set(syntax.root, out);
  return out;
}

const FOUND = new WeakMap<SgNode, CryptoCall[]>();

function goRandImport(text: string): "math" | "crypto" | undefined {
  if (/"math\/rand(\/v2)?"/.test(text)) return "math";
  if (/"crypto\/rand"/.test(text)) return "crypto";
  return undefined;
}

function isPredictableRandom(
  call: CallSite,
  lang: PatchSyntax["lang"],
  goImport: "math" | "crypto" | undefined,
  pyBare: boolean,
): boolean {
  if (lang === "python") return PY_RANDOM.test(call.callee) || (pyBare && PY_RANDOM_BARE.test(call.callee));
  if (lang === "go") {
    if (goImport === "crypto") return false;
    return GO_MATH_RAND_ONLY.test(call.callee) || (goImport === "math" && GO_AMBIGUOUS_RAND.test(call.callee));
  }
  return call.callee === "Math.random";
}

/** A fast hash whose input (or the `.update(...)` chained on it) names a password. */
function hashesPassword(call: CallSite): boolean {
  const argText = (c: CallSite | SgNode[]): string =>
    (Array.isArray(c) ? c : callArguments(c)).map((a) => a.text()).join(" ");
  if (FAST_HASH_CALL.test(call.callee)) return PASSWORD.test(argText(call));
  // createHash("sha256").update(password): the algorithm on the inner call, the data on this one.
  if (
    call.method === "update" &&
    /createHash\(\s*["'`](md5|sha1|sha-1|sha256|sha512)["'`]\s*\)/i.test(call.receiver ?? "")
  ) {
    return PASSWORD.test(argText(call));
  }
  return false;
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
]);
const FUNCTION_KINDS = new Set([
  "function_declaration",
  "method_definition",
  "function_definition",
  "method_declaration",
  "function_expression",
]);

/**
 * The name that says what a value is for: the variable, key or keyword it is assigned to, else
 * the enclosing function's name (or the variable holding an arrow function), when it names a
 * secret purpose.
 */
function purposeOf(node: SgNode): string | undefined {
  const names: string[] = [];
  for (let n: SgNode | null = node.parent(); n; n = n.parent()) {
    const kind = kindOf(n);
    if (NAMED_KINDS.has(kind) && names.length === 0) {
      const target = n.field("name") ?? n.field("left") ?? n.field("key") ?? n.children().find((c) => c.isNamed());
      if (target) names.push(target.text());
    }
    if (FUNCTION_KINDS.has(kind)) {
      const name = n.field("name")?.text();
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
  return names.find((name) => isSecretPurpose(name.replace(/[^\w]/g, "_")));
}
