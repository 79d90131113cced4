import type { SourceLine } from "./tool-text.js";
import { stripStrings } from "./tool-text.js";

const IDENT = "[A-Za-z_$][\\w$]*";
const NOT_FOLLOWED = new Set([
  "if",
  "for",
  "while",
  "switch",
  "catch",
  "return",
  "function",
  "typeof",
  "new",
  "await",
  "async",
  "super",
  "import",
  "require",
  "void",
  "delete",
  "throw",
  "yield",
  "in",
  "of",
  "instanceof",
  "def",
  "print",
  "len",
  "str",
  "int",
  "dict",
  "list",
  "set",
  "isinstance",
  "constructor",
  "Boolean",
  "Number",
  "String",
  "Object",
  "Array",
  "Date",
  "JSON",
  "Math",
  "Promise",
  "Error",
  "TypeError",
  "RangeError",
  "Symbol",
  "Map",
  "Set",
  "WeakMap",
  "BigInt",
  "RegExp",
  "URL",
  "Buffer",
  "parseInt",
  "parseFloat",
  "isNaN",
  "setTimeout",
  "clearTimeout",
  "setInterval",
  "structuredClone",
]);

/**
 * Names of functions defined on these lines (`function f`, `const f = (…) =>`, `def f`, methods).
 *
 * @example definedFunctions([{ file: "a.ts", line: 1, text: "export function f(x) {" }]) // Map { "f" => 1 }
 */
export function definedFunctions(lines: SourceLine[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const l of lines) {
    const name = definitionName(l.text);
    if (name && !found.has(name)) found.set(name, l.line);
  }
  return found;
}

const DEFINITION_FORMS = [
  new RegExp(`\\bfunction\\s*\\*?\\s*(${IDENT})\\s*[<(]`),
  new RegExp(
    `\\b(?:const|let|var)\\s+(${IDENT})\\s*(?::[^=]+)?=\\s*(?:async\\s*)?(?:function\\b|\\([^)]*\\)\\s*(?::[^=]+)?=>|${IDENT}\\s*=>)`,
  ),
  new RegExp(`^\\s*(?:async\\s+)?def\\s+(${IDENT})\\s*\\(`),
  new RegExp(
    `^\\s*(?:public\\s+|private\\s+|protected\\s+|static\\s+|async\\s+)*(${IDENT})\\s*\\([^)]*\\)\\s*(?::\\s*[^{]+)?\\{\\s*$`,
  ),
];

/** The function a line defines, if it is a definition line. */
export function definitionName(text: string): string | undefined {
  for (const form of DEFINITION_FORMS) {
    const name = form.exec(text)?.[1];
    if (name && !NOT_FOLLOWED.has(name)) return name;
  }
  return undefined;
}

/**
 * Bare function calls on these lines (not methods, not keywords or built-ins), in first-seen order.
 *
 * @example calledFunctions(["if (!verifySignature(t)) logger.warn(x)"]) // ["verifySignature"]
 */
export function calledFunctions(texts: string[]): string[] {
  const seen = new Set<string>();
  const re = new RegExp(`(^|[^\\w$.])(${IDENT})\\s*\\(`, "g");
  for (const raw of texts) {
    const text = stripStrings(raw);
    if (/^\s*(import|export\s+\{|\*|\/\/)/.test(text)) continue;
    const defined = definitionName(text);
    for (const m of text.matchAll(re)) {
      const name = m[2] ?? "";
      if (name !== defined && !NOT_FOLLOWED.has(name)) seen.add(name);
    }
  }
  return [...seen];
}

/**
 * The body of the function starting at `start`: up to where its braces balance (or the next
 * top-level line in Python). Falls back to 40 lines when the shape is unclear.
 */
export function functionBody(lines: SourceLine[], start: number): SourceLine[] {
  const from = lines.findIndex((l) => l.line === start);
  if (from < 0) return [];
  const body: SourceLine[] = [];
  let depth = 0;
  let opened = false;
  for (let i = from; i < lines.length && body.length < 200; i++) {
    const l = lines[i];
    if (!l) break;
    body.push(l);
    for (const ch of stripStrings(l.text, l.file)) {
      if (ch === "{") {
        depth++;
        opened = true;
      } else if (ch === "}") depth--;
    }
    if (opened && depth <= 0) return body;
    if (!opened && body.length >= 40) return body;
  }
  return body;
}
