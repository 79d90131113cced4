import type { SgNode } from "@ast-grep/napi";
import { callParts, fieldOf, OPERATORS, stringText } from "./flow-state.js";
import type { FlowSyntax } from "./flow-table.js";

/** What a condition, holding or failing, proves of one local it tests. */
interface Fact {
  name: string;
  /** `checked`: the local holds no syntax; `starts:q`, `ends:q`, `inner:q`: a quote test on it. */
  what: string;
}

/** Quote characters a quoted-literal test may use. */
const QUOTES = /^['"`]$/;

/** The text of a string literal that is one quote character (`"'"`, `'\\''`), else "". */
export function quoteOf(node: SgNode | null | undefined, t: FlowSyntax): string {
  if (!node || !t.stringKinds.includes(String(node.kind()))) return "";
  const text = stringText(node.text()).replace(/^\\(?=.$)/, "");
  return QUOTES.test(text) ? text : "";
}

/**
 * The locals a condition proves safe where it holds (`truth` true) or where it fails (false): a
 * local checked by a validating method (`s.isdigit()`), found in a constant allow-list (`s in
 * ALLOWED`, `ALLOWED.includes(s)`), equal to a constant (`s == "asc"`), or tested to be one quoted
 * literal with no quote inside (`s.startswith("'") and s.endswith("'") and "'" not in s[1:-1]`).
 * Conjunctions where the condition holds and disjunctions where it fails prove each of their
 * parts; negations swap. The vocabulary (validating, membership and quote-test methods) is the
 * language's `FlowSyntax`.
 *
 * @example guardedNames(cond, false, PYTHON, isConstant) // Set { "bar" } for `if not bar.isdigit(): return`
 */
export function guardedNames(
  cond: SgNode,
  truth: boolean,
  t: FlowSyntax,
  constant: (node: SgNode) => boolean,
): Set<string> {
  const names = new Set<string>();
  const quoteTests = new Map<string, Set<string>>();
  for (const f of factsOf(cond, truth, t, constant)) {
    if (f.what === "checked") names.add(f.name);
    else quoteTests.set(f.name, (quoteTests.get(f.name) ?? new Set()).add(f.what));
  }
  for (const [name, tests] of quoteTests) {
    for (const test of tests) {
      const q = test.startsWith("starts:") ? test.slice("starts:".length) : undefined;
      if (q !== undefined && tests.has(`ends:${q}`) && tests.has(`inner:${q}`)) names.add(name);
    }
  }
  return names;
}

function factsOf(node: SgNode, truth: boolean, t: FlowSyntax, constant: (node: SgNode) => boolean): Fact[] {
  const kind = String(node.kind());
  const isName = (n: SgNode | null | undefined): n is SgNode => !!n && t.identifierKinds.includes(String(n.kind()));
  if (t.wrapperKinds.includes(kind)) {
    const inner = node.namedChildren()[0];
    return inner ? factsOf(inner, truth, t, constant) : [];
  }
  if (t.unaryKinds.includes(kind)) {
    const op = fieldOf(node, "operator", t)?.text() ?? node.children()[0]?.text();
    const operand = fieldOf(node, "operand", t) ?? fieldOf(node, "argument", t) ?? node.namedChildren()[0];
    return (op === "!" || op === "not") && operand ? factsOf(operand, !truth, t, constant) : [];
  }
  if (t.binaryKinds.includes(kind)) {
    const named = node.namedChildren();
    const left = fieldOf(node, "left", t) ?? named[0];
    const right = fieldOf(node, "right", t) ?? named[1];
    const written =
      fieldOf(node, "operator", t)?.text() ??
      node
        .children()
        .find((c) => !c.isNamed())
        ?.text() ??
      "";
    const op = OPERATORS[written] ?? written;
    if (!left || !right) return [];
    // Both parts hold where `a && b` holds; both fail where `a || b` fails.
    if ((op === "&&" && truth) || (op === "||" && !truth))
      return [...factsOf(left, truth, t, constant), ...factsOf(right, truth, t, constant)];
    if (op === "in" || op === "not in") {
      const found = (op === "in") === truth;
      // `s in ALLOWED` holds: `s` is one of the allow-list's constants.
      if (found) return isName(left) && constant(right) ? [{ name: left.text(), what: "checked" }] : [];
      // `"'" in s[1:-1]` fails: no quote between the first and the last character.
      const slice = t.indexKinds.includes(String(right.kind())) ? right.namedChildren() : [];
      const [of, range] = slice;
      const q = quoteOf(left, t);
      if (q !== "" && isName(of) && range?.text().replace(/\s/g, "") === "1:-1")
        return [{ name: of.text(), what: `inner:${q}` }];
      return [];
    }
    // `s == "asc"` holds (or `s != "asc"` fails): `s` is that constant.
    const equal = op === "==" || op === "===" || op === "is";
    const unequal = op === "!=" || op === "!==" || op === "is not";
    if ((equal && truth) || (unequal && !truth)) {
      if (isName(left) && constant(right)) return [{ name: left.text(), what: "checked" }];
      if (isName(right) && constant(left)) return [{ name: right.text(), what: "checked" }];
    }
    return [];
  }
  if (t.callKinds.includes(kind) && truth) {
    const { object, method } = callParts(node, t);
    const args = (fieldOf(node, "arguments", t)?.namedChildren() ?? []).filter(
      (a) => !/^(keyword_argument|comment)$/.test(String(a.kind())),
    );
    const g = t.guards;
    if (!g) return [];
    if (isName(object) && g.validatingMethods?.test(method)) return [{ name: object.text(), what: "checked" }];
    // `ALLOWED.includes(s)`: a constant collection holds the argument.
    const [arg] = args;
    if (object && args.length === 1 && isName(arg) && g.memberMethods?.test(method) && constant(object))
      return [{ name: arg.text(), what: "checked" }];
    const q = args.length === 1 ? quoteOf(arg, t) : "";
    if (isName(object) && q !== "") {
      if (g.startsWith?.test(method)) return [{ name: object.text(), what: `starts:${q}` }];
      if (g.endsWith?.test(method)) return [{ name: object.text(), what: `ends:${q}` }];
    }
  }
  return [];
}
