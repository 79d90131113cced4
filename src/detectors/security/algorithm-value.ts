import type { SgNode } from "@ast-grep/napi";
import { callAt, callSites } from "../code/call-sites.js";
import type { PatchSyntax } from "../code/syntax-tree.js";
import { kindOf, StringBuilderReader } from "./built-string.js";
import { matchesCall } from "./call-rules.js";
import type { AlgorithmCall, CryptoRules } from "./crypto-rules.js";
import { STRING_SYNTAX } from "./string-syntax.js";

/**
 * Algorithm names found by value: what the name argument of `Cipher.getInstance`,
 * `MessageDigest.getInstance`, `hashlib.new`, `crypto.createHash`, `HashAlgorithm.Create`... can
 * be, through literals, constants and locals (every assignment of the name in the file), fields,
 * a choice between literals, `+` of known parts, and a properties file's key
 * (`props.getProperty("hashAlg1", "SHA-256")`) read from the review's head snapshot, its default
 * argument when no properties file of the snapshot has the key. Each name is judged by the call's
 * `judge` (`judgeAlgorithm`).
 */

/** One value an algorithm argument can have, and where it was read. */
export interface AlgorithmValue {
  name: string;
  /** Where it comes from, for the message: `benchmark.properties: hashAlg1=MD5`, `the default of getProperty("x")`. */
  from?: string;
}

/** Keys and values of the properties files the reviewed code reads, by key; `files` names those found. */
export interface PropertyValues {
  values: ReadonlyMap<string, { value: string; file: string }>;
  /** Properties files the code names that the head snapshot does not have. */
  missing: readonly string[];
}

export const NO_PROPERTIES: PropertyValues = { values: new Map(), missing: [] };

const MAX_DEPTH = 5;
const MAX_VALUES = 8;
const TERNARY = /ternary|conditional_expression|^if_expression$/;

/** Reads the values an expression can have, following names within one tree. */
class AlgorithmReader {
  private readonly reader: StringBuilderReader;

  constructor(
    private readonly syntax: PatchSyntax,
    private readonly rules: CryptoRules,
    private readonly properties: PropertyValues,
    private readonly text: string,
  ) {
    this.reader = StringBuilderReader.of(syntax);
  }

  values(node: SgNode, depth = 0, seen: Set<string> = new Set()): AlgorithmValue[] {
    if (depth > MAX_DEPTH) return [];
    const kind = kindOf(node);
    const strings = STRING_SYNTAX[this.syntax.lang];
    if (strings.wrapperKinds.includes(kind) || kind === "parenthesized_expression") {
      const inner = node.namedChildren();
      return inner.length === 1 && inner[0] ? this.values(inner[0], depth, seen) : [];
    }
    if (strings.stringKinds.includes(kind)) {
      const read = this.reader.readText(node);
      return read.dynamic ? [] : [{ name: read.literal.trim() }];
    }
    if (TERNARY.test(kind)) {
      return node
        .namedChildren()
        .flatMap((c) => this.values(c, depth + 1, seen))
        .slice(0, MAX_VALUES);
    }
    if (strings.binaryKinds.includes(kind)) return this.joined(node, depth, seen);
    const call = this.reader.callOf(node);
    if (call) return this.lookup(call.node, depth, seen);
    const name = /([$@]?[A-Za-z_]\w*)$/.exec(node.text())?.[1];
    if (!name || !/^[\w$@.]+$/.test(node.text()) || seen.has(name)) return [];
    return this.named(name, node.range().start.line, depth, new Set(seen).add(name));
  }

  /** Every value given to a name in the file: above its use first, else anywhere (a field, a constant). */
  private named(name: string, row: number, depth: number, seen: Set<string>): AlgorithmValue[] {
    let assigned = this.reader.assignmentsTo(name, row);
    if (assigned.length === 0) {
      for (const [target, list] of this.reader.assignedNames()) {
        if (target === name || target.endsWith(`.${name}`)) assigned = list.map((a) => a.value);
        if (assigned.length > 0) break;
      }
    }
    return assigned.flatMap((v) => this.values(v, depth + 1, seen)).slice(0, MAX_VALUES);
  }

  /** `"AES/" + MODE + "/NoPadding"`: every joining of the two sides' values. */
  private joined(node: SgNode, depth: number, seen: Set<string>): AlgorithmValue[] {
    const [left, right] = node.namedChildren();
    const op = node
      .children()
      .find((c) => !c.isNamed())
      ?.text();
    if (!left || !right || op !== "+") return [];
    const l = this.values(left, depth + 1, seen);
    const r = this.values(right, depth + 1, seen);
    return l
      .flatMap((a) =>
        r.map((b) => ({ name: a.name + b.name, ...((a.from ?? b.from) ? { from: a.from ?? b.from } : {}) })),
      )
      .slice(0, MAX_VALUES);
  }

  /** A properties lookup: the key's value in the snapshot's properties files, else the default argument. */
  private lookup(node: SgNode, depth: number, seen: Set<string>): AlgorithmValue[] {
    const call = callAt(this.syntax.lang, node);
    const rule = this.rules.propertyLookups;
    if (!call || !rule || !matchesCall(rule, call, this.text)) return [];
    const [keyNode, fallback] = call.args;
    const key = keyNode ? this.values(keyNode, depth + 1, seen)[0]?.name : undefined;
    if (key === undefined) return [];
    const found = this.properties.values.get(key);
    if (found) return [{ name: found.value, from: `${found.file}: ${key}=${found.value}` }];
    const where =
      this.properties.missing.length > 0
        ? `${this.properties.missing.join(", ")} not found in the snapshot`
        : "no properties file of the snapshot has it";
    return fallback
      ? this.values(fallback, depth + 1, seen).map((v) => ({ ...v, from: `the default of ${key} (${where})` }))
      : [];
  }
}

/** A weak algorithm an algorithm call is given. */
export interface WeakAlgorithm {
  kind: "weak-hash" | "weak-cipher";
  row: number;
  call: string;
  /** The name judged, and where it was read, for the message: `MD5 (benchmark.properties: hashAlg1=MD5)`. */
  value: string;
}

/**
 * The weak algorithms the grammar's `algorithmCalls` are given on added rows (or whose value is
 * read from a properties file), found by value.
 *
 * @example weakAlgorithms(syntax, CRYPTO_RULES.java, props, text) // [{ kind: "weak-hash", row: 12, call: "MessageDigest.getInstance", value: "MD5 (benchmark.properties: hashAlg1=MD5)" }]
 */
export function weakAlgorithms(
  syntax: PatchSyntax,
  rules: CryptoRules,
  properties: PropertyValues,
  text: string,
): WeakAlgorithm[] {
  if (rules.algorithmCalls.length === 0) return [];
  const reader = new AlgorithmReader(syntax, rules, properties, text);
  const out: WeakAlgorithm[] = [];
  const candidates = callSites(syntax, (c) =>
    rules.algorithmCalls.some((a) => !a.call.callee || a.call.callee.test(c.callee)),
  );
  for (const call of candidates) {
    if (!syntax.isAdded(call.row)) continue;
    const rule = rules.algorithmCalls.find((a) => matchesCall(a.call, call, text));
    const arg = rule ? call.args[rule.index] : undefined;
    if (!rule || !arg) continue;
    for (const v of reader.values(arg)) {
      const kind = judgeAlgorithm(rule.judge, v.name);
      if (!kind) continue;
      out.push({ kind, row: call.row, call: call.callee, value: v.from ? `${v.name} (${v.from})` : v.name });
      break;
    }
  }
  return out;
}

const WEAK_CIPHERS = /^(des|desede|des-?ede3?|tripledes|3des|rc4|arcfour|rc2|blowfish|bf|idea|rc5)(-|$)/i;
/**
 * Judges an algorithm name for the kind of call that takes it.
 *
 * @example judgeAlgorithm("transformation", "AES") // "weak-cipher" (Java's AES alone is AES/ECB)
 */
export function judgeAlgorithm(judge: AlgorithmCall["judge"], name: string): WeakAlgorithm["kind"] | undefined {
  const n = name.trim();
  const flat = n.toUpperCase().replace(/[-_ ]/g, "");
  switch (judge) {
    case "digest":
      return /^(RSA)?(MD5|MD4|MD2|SHA1|SHA)$/.test(flat) ? "weak-hash" : undefined;
    case "mac":
      return /^HMAC(MD5|MD4|MD2)$|^(MD5|MD4|MD2)$/.test(flat) ? "weak-hash" : undefined;
    case "kdf":
      return /MD5|MD2|DES|RC2|RC4/.test(flat) ? (/DES|RC2|RC4/.test(flat) ? "weak-cipher" : "weak-hash") : undefined;
    case "transformation": {
      const [algorithm = "", mode] = n.split("/");
      if (WEAK_CIPHERS.test(algorithm)) return "weak-cipher";
      if (/^RSA$/i.test(algorithm)) return undefined; // `RSA/ECB/...` names no block mode
      if (mode?.toUpperCase() === "ECB") return "weak-cipher";
      return mode === undefined && /^AES(_\d+)?$/i.test(algorithm) ? "weak-cipher" : undefined;
    }
    case "cipher":
      return WEAK_CIPHERS.test(n) || /(^|-)ecb$/i.test(n) ? "weak-cipher" : undefined;
  }
}
