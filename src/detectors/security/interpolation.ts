import type { languageOf } from "./file-kind.js";

type Language = ReturnType<typeof languageOf>;

/**
 * True when a line builds a string from a non-constant value: a template literal `${x}` (an
 * ALL_CAPS constant does not count), `"..." + x`, a Python f-string, `"..." % x`, `.format(`,
 * or Ruby's `#{x}`.
 *
 * @example interpolates("`SELECT * FROM t WHERE id = ${req.query.id}`", "js") // true
 */
export function interpolates(line: string, language: Language): boolean {
  for (const m of line.matchAll(/\$\{([^}]*)\}/g)) {
    if (!/^\s*[A-Z_][A-Z0-9_]*\s*$/.test(m[1] ?? "")) return true;
  }
  if (/["'`]\s*\+\s*[\w(]|[\w)\]]\s*\+\s*["'`]/.test(line)) return true;
  if (language === "js") return false;
  return (
    /\b[fF][rR]?["'][^"']*\{[^}]+\}/.test(line) ||
    /["']\s*%\s*[\w(]/.test(line) ||
    /["']\s*\.format\s*\(/.test(line) ||
    /#\{[^}]+\}/.test(line)
  );
}

/**
 * True when a line reads request data: `req.`, `request.`, `ctx.query`, `params.x`, `query[...]`, `body.x`.
 *
 * @example readsRequestData("db.query(sql + req.body.name)") // true
 */
export function readsRequestData(line: string): boolean {
  return (
    /\b(req|request|ctx\.request)\s*\??\.\s*\w/.test(line) ||
    /\b(params|query|body|args|form|searchParams|GET|POST|userInput|input)\s*(\.|\[|\.get\()/.test(line)
  );
}
