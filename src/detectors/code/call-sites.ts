import type { SgNode } from "@ast-grep/napi";
import type { PatchSyntax, SyntaxLanguage } from "./syntax-tree.js";

/** One function or method call found in parsed code. */
export interface CallSite {
  /** The call node. */
  node: SgNode;
  /** The callee as written, whitespace removed: `logger.info`, `console.log`, `log.Printf`. */
  callee: string;
  /** The callee's last name: `info`, `log`, `Printf`. */
  method: string;
  /** The callee's receiver, when it is a member call: `logger`, `console`, `this.logger`. */
  receiver?: string;
  /** The argument nodes (Python keyword arguments included, as `keyword_argument` nodes). */
  args: SgNode[];
  /** The parsed row (0-based) where the call starts. */
  row: number;
}

const CALL_KIND: Record<SyntaxLanguage, string> = {
  javascript: "call_expression",
  typescript: "call_expression",
  tsx: "call_expression",
  python: "call",
  go: "call_expression",
};

/** Member access node kinds and the field holding the member's name. */
const MEMBER: Record<SyntaxLanguage, { kind: string; object: string; property: string }> = {
  javascript: { kind: "member_expression", object: "object", property: "property" },
  typescript: { kind: "member_expression", object: "object", property: "property" },
  tsx: { kind: "member_expression", object: "object", property: "property" },
  python: { kind: "attribute", object: "object", property: "attribute" },
  go: { kind: "selector_expression", object: "operand", property: "field" },
};

function compact(text: string): string {
  return text.replace(/\s+/g, "").replace(/\?\./g, ".");
}

/**
 * Every call in a parsed tree, in source order, with its callee split into receiver and method.
 *
 * @example callSites(syntaxOfPatch(file)!).map((c) => c.callee) // ["logger.info", "JSON.stringify"]
 */
export function callSites(syntax: Pick<PatchSyntax, "lang" | "root">): CallSite[] {
  const member = MEMBER[syntax.lang];
  const out: CallSite[] = [];
  for (const node of syntax.root.findAll({ rule: { kind: CALL_KIND[syntax.lang] } })) {
    const fn = node.field("function");
    const argList = node.field("arguments");
    if (!fn || !argList) continue;
    const callee = compact(fn.text());
    let method = callee;
    let receiver: string | undefined;
    if (fn.kind() === member.kind) {
      method = fn.field(member.property)?.text() ?? callee;
      const object = fn.field(member.object)?.text();
      if (object !== undefined) receiver = compact(object);
    }
    const args = argList.kind() === "template_string" ? [argList] : argList.children().filter((c) => c.isNamed() && c.kind() !== "comment");
    out.push({ node, callee, method, ...(receiver !== undefined ? { receiver } : {}), args, row: node.range().start.line });
  }
  return out;
}
