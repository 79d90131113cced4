import type { SgNode } from "@ast-grep/napi";
import { type CodeLanguage, sanitizeCode } from "../code-lines.js";
import type { SyntaxLanguage } from "./syntax-tree.js";

/** One row of a node's code: the parsed row and its text with strings emptied and comments dropped. */
export interface CodeRow {
  row: number;
  code: string;
}

function lineLanguage(lang: SyntaxLanguage): CodeLanguage {
  return lang === "python" ? "python" : lang === "go" ? "go" : "js";
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
  const language = lineLanguage(lang);
  return node
    .text()
    .split("\n")
    .map((text, i) => ({ row: start + i, code: sanitizeCode(text, language) }));
}
