import type { SgNode } from "@ast-grep/napi";
import { kindOf } from "./built-string.js";
import { methodParts } from "./call-rules.js";

/** The functions around a node and their names, read from the tree in every grammar (SEC-05's random flow, SEC-02's quoted values). */

/** Named functions and methods of every grammar (Ruby's `method` and `singleton_method`, Rust's `function_item`, C#'s local functions). */
export const FUNCTION_KINDS: ReadonlySet<string> = new Set([
  "function_declaration",
  "method_definition",
  "function_definition",
  "method_declaration",
  "function_expression",
  "method",
  "singleton_method",
  "function_item",
  "local_function_statement",
]);
/** Anonymous functions: a value returned from one is passed to its caller, which is not followed. */
export const LAMBDA_KINDS = new Set(["arrow_function", "lambda", "lambda_expression", "closure_expression", "block"]);
/** The nearest function, method or anonymous function around a node. */
export function enclosingFunction(node: SgNode): SgNode | undefined {
  for (let n = node.parent(); n; n = n.parent()) {
    const kind = kindOf(n);
    if (FUNCTION_KINDS.has(kind) || (LAMBDA_KINDS.has(kind) && kind !== "block")) return n;
  }
  return undefined;
}

/** A function's name: its own, or the name of what holds it (`const gen = () => ...`, `exports.make = function () {...}`). */
export function functionName(fn: SgNode): string | undefined {
  const own = (fn.field("name") ?? methodParts(fn)?.name)?.text();
  if (own) return own;
  const holder = fn.parent();
  if (!holder) return undefined;
  const target = holder.field("left") ?? holder.field("name") ?? holder.field("key");
  return target && target.id() !== fn.id() ? /([A-Za-z_$][\w$]*)\W*$/.exec(target.text())?.[1] : undefined;
}
