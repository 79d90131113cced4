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
  // `if (!s) return s`: a false-y value (empty, zero, none) holds no syntax.
  if (t.identifierKinds.includes(kind)) return truth ? [] : [{ name: node.text(), what: "checked" }];
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
    // Where `a || b` holds (or `a && b` fails), one of them does: a local both check is checked.
    if ((op === "||" && truth) || (op === "&&" && !truth)) {
      const checked = (n: SgNode) =>
        new Set(factsOf(n, truth, t, constant).flatMap((f) => (f.what === "checked" ? [f.name] : [])));
      const inRight = checked(right);
      return [...checked(left)].filter((name) => inRight.has(name)).map((name) => ({ name, what: "checked" }));
    }
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
      // `typeof n === "number"` holds: `n` is a number.
      const typed = typeTested(left, right, t) ?? typeTested(right, left, t);
      if (typed) return [{ name: typed, what: "checked" }];
      if (isName(left) && constant(right)) return [{ name: left.text(), what: "checked" }];
      if (isName(right) && constant(left)) return [{ name: right.text(), what: "checked" }];
    }
    return [];
  }
  if (t.callKinds.includes(kind)) {
    const { object, method } = callParts(node, t);
    const args = (fieldOf(node, "arguments", t)?.namedChildren() ?? []).filter(
      (a) => !/^(keyword_argument|comment)$/.test(String(a.kind())),
    );
    const g = t.guards;
    if (!g) return [];
    const [arg] = args;
    const callee = fieldOf(node, "function", t)?.text() ?? "";
    const one = args.length === 1 && isName(arg) ? arg.text() : undefined;
    // `isNaN(s)` fails: `s` reads as a number.
    if (!truth) return one !== undefined && g.invalidatingCalls?.test(callee) ? [{ name: one, what: "checked" }] : [];
    if (isName(object) && g.validatingMethods?.test(method)) return [{ name: object.text(), what: "checked" }];
    if (one !== undefined && g.validatingCalls?.test(callee)) return [{ name: one, what: "checked" }];
    // `/^\d+$/.test(s)`: a pattern anchored at both ends whose characters hold no syntax.
    const p = g.patternTest;
    if (one !== undefined && object && p?.method.test(method) && p.kinds.includes(String(object.kind()))) {
      const pattern = fieldOf(object, "pattern", t)?.text() ?? "";
      if (closedPattern(pattern, fieldOf(object, "flags", t)?.text() ?? "")) return [{ name: one, what: "checked" }];
    }
    // `isinstance(n, int)`, `isinstance(n, (int, float))`.
    const [first, second] = args;
    const types = g.typeCalls;
    if (isName(first) && second && args.length === 2 && types?.callee.test(callee)) {
      const named = second.namedChildren().length > 0 ? second.namedChildren() : [second];
      if (named.every((n) => types.plain.test(n.text()))) return [{ name: first.text(), what: "checked" }];
    }
    // `re.fullmatch(r"\d+", s)`, `re.match(r"\d+$", s)`, unless a flag makes `$` end a line.
    if (g.patternCalls?.test(callee) && isName(second) && args.length === 2 && first) {
      const written = first.text();
      const flags = /\b(?:re\.)?(?:M|MULTILINE)\b/.test(fieldOf(node, "arguments", t)?.text() ?? "") ? "m" : "";
      if (t.stringKinds.includes(String(first.kind())) && !/^[a-zA-Z]*[fF]/.test(written)) {
        const text = stringText(written);
        const how = callee.split(".").at(-1);
        const anchored =
          how === "fullmatch" ? `^(?:${text})$` : how === "match" && !text.startsWith("^") ? `^${text}` : text;
        if (closedPattern(anchored, flags)) return [{ name: second.text(), what: "checked" }];
      }
    }
    // `ids.every((n) => typeof n === "number")`, `ids.every(Number.isInteger)`: each item is checked.
    if (isName(object) && arg && args.length === 1 && g.everyMethods?.test(method) && checksEach(arg, t, constant))
      return [{ name: object.text(), what: "checked" }];
    // `ALLOWED.includes(s)`: a constant collection holds the argument.
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

/** The local a type test names (`typeof n` against `"number"`), when the type holds no syntax. */
function typeTested(test: SgNode, type: SgNode, t: FlowSyntax): string | undefined {
  const g = t.guards?.typeTest;
  if (!g || !t.unaryKinds.includes(String(test.kind())) || !t.stringKinds.includes(String(type.kind()))) return;
  const op = fieldOf(test, "operator", t)?.text() ?? test.children()[0]?.text() ?? "";
  const operand = fieldOf(test, "argument", t) ?? fieldOf(test, "operand", t) ?? test.namedChildren()[0];
  if (!g.operator.test(op) || !operand || !t.identifierKinds.includes(String(operand.kind()))) return;
  return g.plain.test(stringText(type.text())) ? operand.text() : undefined;
}

/** Whether a callback given to `every` checks its one parameter (`(n) => Number.isInteger(n)`). */
function checksEach(callback: SgNode, t: FlowSyntax, constant: (node: SgNode) => boolean): boolean {
  if (t.guards?.validatingCalls?.test(callback.text())) return true;
  if (!t.functionKinds.includes(String(callback.kind()))) return false;
  const single = fieldOf(callback, "parameter", t);
  const params = single ? [single] : (fieldOf(callback, "parameters", t)?.namedChildren() ?? []);
  const [param] = params;
  if (!param || params.length !== 1) return false;
  const name = (fieldOf(param, "pattern", t) ?? param).text();
  let body = fieldOf(callback, "body", t);
  // A body that is one `return` statement.
  if (body && t.blockKinds.includes(String(body.kind()))) {
    const statements = body.namedChildren().filter((c) => String(c.kind()) !== "comment");
    const only = statements.length === 1 ? statements[0] : undefined;
    body = only && t.returnKinds.includes(String(only.kind())) ? (only.namedChildren()[0] ?? null) : null;
  }
  return !!body && factsOf(body, true, t, constant).some((f) => f.name === name && f.what === "checked");
}

/** One item of a character class that holds no syntax: `\d`, `\w`, `a-z`, `0-9`, a letter, `_`, `.`. */
const CLASS_ITEM = String.raw`(?:\\[dw._]|[a-z]-[a-z]|[A-Z]-[A-Z]|[0-9]-[0-9]|[A-Za-z0-9_.])`;

/**
 * Whether a global replacement by a plain text leaves only characters that hold no syntax: it
 * removes everything outside a closed class (`/[^0-9]/g`, `/[^\w.]+/g`, `/\D/g`, `/\W+/g`).
 *
 * @example strippedToPlain("[^a-z0-9_]", "gi", "") // true; strippedToPlain("[^\\w ]", "g", "") // false
 */
export function strippedToPlain(pattern: string, flags: string, replacement: string): boolean {
  if (!flags.includes("g") || !/^[A-Za-z0-9_.]*$/.test(replacement)) return false;
  return new RegExp(String.raw`^(?:\[\^${CLASS_ITEM}+\]|\\[DW])[+*]?$`).test(pattern);
}

/**
 * Whether a regular expression matches only whole texts made of letters, digits, `_`, `.` and
 * single `-`: anchored at both ends (not per line), no alternation outside a group, and nothing
 * that matches a quote, a space, a parenthesis or `--` (a SQL comment).
 *
 * @example closedPattern("^\\d+$", "") // true; closedPattern("^[\\w-]+$", "") // false
 */
export function closedPattern(pattern: string, flags: string): boolean {
  if (flags.includes("m") || !pattern.startsWith("^") || !/(?:^|[^\\])\$$/.test(pattern)) return false;
  const klass = String.raw`\[${CLASS_ITEM}+\]`;
  const atom = String.raw`(?:\\[dw._]|[A-Za-z0-9_]|${klass}|-)`;
  const quantifier = String.raw`(?:[+*?]|\{\d+(?:,\d*)?\})\??`;
  const token = new RegExp(String.raw`^(?:(${atom})(${quantifier})?|\((?:\?:)?|\)(${quantifier})?|\|)`);
  const tokens: Array<{ atom?: string; optional: boolean; text: string }> = [];
  let depth = 0;
  let rest = pattern.slice(1, -1);
  while (rest !== "") {
    const m = token.exec(rest);
    if (!m) return false;
    const [text, atomText, q, groupQ] = m;
    if (text.startsWith("(")) depth++;
    else if (text.startsWith(")")) depth--;
    else if (text === "|" && depth === 0) return false;
    if (depth < 0) return false;
    // A repeated group could repeat a `-`: none is allowed with one.
    if (groupQ) tokens.push({ text: ")*", optional: true });
    tokens.push({ text, atom: atomText, optional: !!q && !/^(?:\+|\{[1-9])/.test(q) });
    rest = rest.slice(text.length);
  }
  if (depth !== 0) return false;
  // A `-` never next to another: each is unrepeated, between atoms that are always there (or the
  // pattern's first, `^-?\d+$`), and no group repeats.
  return tokens.every((tok, i) => {
    if (tok.atom !== "-") return true;
    if (tokens.some((x) => x.text === ")*") || /[+*{]/.test(tok.text.slice(1))) return false;
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    const solid = (x: (typeof tokens)[number] | undefined) => !!x?.atom && x.atom !== "-" && !x.optional;
    return (i === 0 || solid(before)) && solid(after);
  });
}
