/**
 * `text` as a regular expression that matches it literally (every metacharacter escaped, `/` too,
 * so it may sit in a literal).
 *
 * @example new RegExp(`\\b${escapeRegExp("a.b")}\\b`)
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
