import type { SgNode } from "@ast-grep/napi";

/** String literal node kinds of the grammars the detectors parse. */
const STRING_KINDS = new Set([
  "string",
  "template_string",
  "interpreted_string_literal",
  "raw_string_literal",
  "rune_literal",
  "concatenated_string",
  "regex",
]);
/** Interpolations inside strings: their code runs, so it counts. */
const INTERPOLATION_KINDS = new Set(["template_substitution", "interpolation"]);
const COMMENT_KINDS = new Set(["comment", "html_comment", "line_comment", "block_comment"]);
/** Subscripts whose string index names a member: `obj["email"]`, `headers['Authorization']`. */
const SUBSCRIPT_KINDS = new Set(["subscript_expression", "subscript", "index_expression"]);
const CALL_KINDS = new Set(["call_expression", "call"]);
const MEMBER_KINDS = new Set(["member_expression", "attribute", "selector_expression"]);
/** Getter methods whose string argument names a member: `headers.get("Authorization")`. */
const KEY_GETTERS = /^(?:get|getHeader|header|Get|getlist|pop)$/;

/** One row of code: the parsed row and the code tokens on it, strings emptied. */
export interface CodeRow {
  row: number;
  code: string;
}

function stringKey(node: SgNode): string | undefined {
  if (!STRING_KINDS.has(String(node.kind()))) return undefined;
  const m = /^[A-Za-z]{0,2}(["'`])([A-Za-z_][\w-]*)\1$/.exec(node.text());
  return m?.[2]?.replace(/-/g, "_");
}

/** The code inside a string: template substitutions and f-string interpolations (nested strings too). */
function interpolations(node: SgNode, rows: Map<number, string[]>): void {
  for (const child of node.children()) {
    if (INTERPOLATION_KINDS.has(String(child.kind()))) {
      for (const inner of child.children()) if (inner.isNamed()) walk(inner, rows);
    } else if (STRING_KINDS.has(String(child.kind()))) {
      interpolations(child, rows);
    }
  }
}

/** `headers.get("Authorization")`: the object and the key the getter reads. */
function getterKey(call: SgNode): { object: SgNode; key: string; row: number } | undefined {
  const fn = call.field("function");
  const args = call.field("arguments");
  if (!fn || !args || !MEMBER_KINDS.has(String(fn.kind()))) return undefined;
  const parts = fn.children().filter((c) => c.isNamed());
  const object = parts[0];
  const method = parts[parts.length - 1];
  if (!object || !method || parts.length < 2 || !KEY_GETTERS.test(method.text())) return undefined;
  const named = args.children().filter((c) => c.isNamed() && String(c.kind()) !== "comment");
  const key = named.length === 1 && named[0] ? stringKey(named[0]) : undefined;
  return key === undefined ? undefined : { object, key, row: named[0]?.range().start.line ?? 0 };
}

function emit(rows: Map<number, string[]>, row: number, text: string): void {
  const list = rows.get(row);
  if (list) list.push(text);
  else rows.set(row, [text]);
}

function walk(node: SgNode, rows: Map<number, string[]>): void {
  const kind = String(node.kind());
  if (COMMENT_KINDS.has(kind)) return;
  const row = node.range().start.line;
  if (STRING_KINDS.has(kind)) {
    emit(rows, row, '""');
    interpolations(node, rows);
    return;
  }
  if (CALL_KINDS.has(kind)) {
    const key = getterKey(node);
    if (key) {
      walk(key.object, rows);
      emit(rows, key.row, `.${key.key}`);
      return;
    }
  }
  if (SUBSCRIPT_KINDS.has(kind)) {
    const children = node.children().filter((c) => c.isNamed());
    const key = children.length === 2 && children[1] ? stringKey(children[1]) : undefined;
    if (children[0] && key !== undefined) {
      walk(children[0], rows);
      emit(rows, children[1]?.range().start.line ?? row, `.${key}`);
      return;
    }
  }
  const children = node.children();
  if (children.length === 0) {
    emit(rows, row, node.text());
    return;
  }
  for (const child of children) walk(child, rows);
}

/**
 * The code of a node row by row: string literals emptied (template and f-string interpolations
 * kept), comments dropped, and string keys read as members (`req.headers["authorization"]` reads
 * `req.headers.authorization`). Tokens are joined by spaces (`user . email`).
 *
 * @example codeRows(argNode) // [{ row: 3, code: 'user . email' }]
 */
export function codeRows(node: SgNode): CodeRow[] {
  const rows = new Map<number, string[]>();
  walk(node, rows);
  return [...rows].sort((a, b) => a[0] - b[0]).map(([row, parts]) => ({ row, code: parts.join(" ") }));
}

