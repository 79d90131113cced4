import { unquote } from "./entry.js";

/** A `key = value` line read: the key, the literal value, and whether it was quoted. */
export interface KeyValue {
  key: string;
  value: string;
  quoted: boolean;
}

/**
 * Reads one `key<sep>value` line (the first separator of `seps` after the key), or undefined.
 * Keys are names (letters, digits, `_ - . /`, and `:` inside `//host/:_authToken`).
 *
 * @example keyValueLine("db.password = 'x1'", "=:") // { key: "db.password", value: "x1", quoted: true }
 */
export function keyValueLine(text: string, seps: string, commentMarks = "#"): KeyValue | undefined {
  const m = /^\s*(?:export\s+)?(["']?)([A-Za-z0-9_$@/][\w.$@/:-]*?)\1\s*([=:])(?!=)(.*)$/.exec(text);
  if (!m || !seps.includes(m[3] ?? "")) return undefined;
  const key = m[2] ?? "";
  if (key.endsWith(":") || key.includes("://")) return undefined;
  const { value, quoted } = unquote(m[4] ?? "", commentMarks);
  return { key, value, quoted };
}

/**
 * The text of a commented-out line without its comment marks, or undefined when the row is not
 * a comment: `# password = x` gives `password = x`.
 *
 * @example uncomment("  ;; key = v", [";", "#"]) // "key = v"
 */
export function uncomment(row: string, marks: readonly string[]): string | undefined {
  const text = row.trimStart();
  for (const mark of marks) {
    if (text.startsWith(mark)) {
      let rest = text;
      while (rest.startsWith(mark)) rest = rest.slice(mark.length);
      return rest;
    }
  }
  return undefined;
}
