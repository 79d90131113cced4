import type { SgNode } from "@ast-grep/napi";
import { sanitizeCode } from "../code-lines.js";
import { GRAMMARS, type SyntaxLanguage } from "./grammars.js";

/** One row of a node's code: the parsed row and its text with strings emptied and comments dropped. */
export interface CodeRow {
  row: number;
  code: string;
}

/**
 * The code of a node (an argument list, an expression) row by row, each row reduced by
 * `sanitizeCode`: string literals emptied (interpolations kept), comments dropped, string keys read
 * as members. The parser found the node, so it is code; the rows are read as text, which costs
 * one call into the parser per node.
 *
 * @example codeRows(call.argumentList, "python") // [{ row: 3, code: '("", request.headers)' }]
 */
export function codeRows(node: SgNode, lang: SyntaxLanguage): CodeRow[] {
  const start = node.range().start.line;
  const language = GRAMMARS[lang].family;
  return node
    .text()
    .split("\n")
    .map((text, i) => ({ row: start + i, code: sanitizeCode(text, language) }));
}
