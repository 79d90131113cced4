import type { SyntaxLanguage } from "./syntax-tree.js";

const CLOSER: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}" };

/** The index after a quoted string or rune starting at `start`, or -1 when it does not end on its line. */
function endOfQuoted(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") return -1;
    if (c === "\\") {
      if (text[i + 1] === "\n" || i + 1 >= text.length) return -1;
      i++;
    } else if (c === quote) return i + 1;
  }
  return -1;
}

/**
 * The text of a call's argument list that opens at `open` (a `(`) and closes on the same line, read
 * as code the way the parser reads it: strings, runes and template literals (with their
 * substitutions) are skipped whole, brackets must pair. Undefined whenever that cannot be told
 * exactly and cheaply: the list runs past the line, or holds a `/` (a comment, a regular expression
 * or a division in JavaScript and Go), a `<` (JSX or type arguments), a Python `#`, a prefixed or
 * triple-quoted Python string, or brackets that do not pair.
 *
 * @example oneLineArguments('log.info("a)", { id }); x()', 8, "typescript") // '("a)", { id })'
 */
export function oneLineArguments(text: string, open: number, lang: SyntaxLanguage): string | undefined {
  const js = lang === "javascript" || lang === "typescript" || lang === "tsx";
  // What closes each open bracket, innermost last; "`" while inside a template literal's text.
  const stack: string[] = [")"];
  let i = open + 1;
  while (i < text.length) {
    const c = text[i] ?? "";
    if (c === "\n") return undefined;
    if (stack[stack.length - 1] === "`") {
      if (c === "\\") {
        if (text[i + 1] === "\n") return undefined;
        i += 2;
      } else if (c === "`") {
        stack.pop();
        i++;
      } else if (c === "$" && text[i + 1] === "{") {
        stack.push("}");
        i += 2;
      } else i++;
      continue;
    }
    const closer = CLOSER[c];
    if (closer) {
      stack.push(closer);
      i++;
    } else if (c === ")" || c === "]" || c === "}") {
      if (stack.pop() !== c) return undefined;
      i++;
      if (stack.length === 0) return text.slice(open, i);
    } else if (c === '"' || c === "'") {
      const prefixed = /[A-Za-z]/.test(text[i - 1] ?? "") || text.startsWith(c.repeat(3), i);
      if (lang === "python" && prefixed) return undefined;
      i = endOfQuoted(text, i, c);
      if (i < 0) return undefined;
    } else if (c === "`") {
      if (js) {
        stack.push("`");
        i++;
      } else if (lang === "go") {
        const end = endOfRaw(text, i);
        if (end < 0) return undefined;
        i = end;
      } else return undefined;
    } else if ((c === "/" && lang !== "python") || (c === "#" && lang === "python") || (c === "<" && js)) {
      return undefined;
    } else if (c === "\\") {
      return undefined;
    } else i++;
  }
  return undefined;
}

/** The index after a Go raw string starting at `start`, or -1 when it does not end on its line. */
function endOfRaw(text: string, start: number): number {
  const end = text.indexOf("`", start + 1);
  const newline = text.indexOf("\n", start + 1);
  return end < 0 || (newline >= 0 && newline < end) ? -1 : end + 1;
}
