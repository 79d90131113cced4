import type { CallSite } from "../code/call-sites.js";

/**
 * A call named as data: its last names, and optionally its receiver and whole callee. The SEC-02
 * tables (`injection-rules.ts`, `deserialization-rules.ts`) name their sinks so.
 *
 * @example matchesCall({ methods: ["load"], receiver: /^Marshal$/ }, call) // true for `Marshal.load(s)`
 */
export interface CallRule {
  /** The callee's last names, as regular-expression alternatives (the call index is filtered by them). */
  methods: readonly string[];
  /** `any`: a member call only; `none`: a bare call only; a pattern: the receiver as written. */
  receiver?: "any" | "none" | RegExp;
  /** A pattern the whole callee must match. */
  callee?: RegExp;
  /** `true`: only a constructor call (`new T(x)`); `false`: only a plain call; unset: either. */
  constructs?: boolean;
}

/** Call kinds that construct (`new T(x)`), across the grammars. */
const CONSTRUCTIONS = new Set(["new_expression", "object_creation_expression"]);

const METHOD_TESTS = new WeakMap<CallRule, RegExp>();

function methodTest(rule: CallRule): RegExp {
  let test = METHOD_TESTS.get(rule);
  if (!test) {
    test = new RegExp(`^(?:${rule.methods.join("|")})$`);
    METHOD_TESTS.set(rule, test);
  }
  return test;
}

/**
 * Whether a call is the one the rule names. A generic call's type arguments are not its name
 * (`conn.Query<User>(sql)` is `Query`).
 *
 * @example matchesCall({ methods: ["Query"], receiver: "any" }, call) // true for `conn.Query<User>(sql)`
 */
export function matchesCall(rule: CallRule, call: CallSite): boolean {
  if (!methodTest(rule).test(call.method.replace(/<.*>$/, ""))) return false;
  if (rule.receiver === "any" && call.receiver === undefined) return false;
  if (rule.receiver === "none" && call.receiver !== undefined) return false;
  if (rule.receiver instanceof RegExp && !rule.receiver.test(call.receiver ?? "")) return false;
  if (rule.callee && !rule.callee.test(call.callee)) return false;
  return rule.constructs === undefined || CONSTRUCTIONS.has(String(call.node.kind())) === rule.constructs;
}

/**
 * A callee filter for the call index from the rules' last names: a callee no rule names is no sink.
 *
 * @example calleeNames([{ methods: ["load", "loads"] }]).test("pickle.loads") // true
 */
export function calleeNames(rules: readonly CallRule[]): RegExp {
  const all = [...new Set(rules.flatMap((r) => r.methods))];
  return new RegExp(`(?:^|[^\\w$])(?:${all.join("|")})(?:<.*>)?$`);
}
