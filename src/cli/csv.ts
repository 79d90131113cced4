/** One CSV field as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * One CSV record, CRLF-terminated (RFC 4180). Lists are joined with "; ", booleans are
 * `true`/`false`, null is an empty field.
 *
 * @example csvRecord(["acme/web#7", ["SEC-01", "LIC-02"], true, null]) // 'acme/web#7,SEC-01; LIC-02,true,\r\n'
 */
export function csvRecord(values: ReadonlyArray<string | number | boolean | null | readonly string[]>): string {
  const text = (v: (typeof values)[number]): string =>
    v === null ? "" : Array.isArray(v) ? v.join("; ") : String(v as string | number | boolean);
  return `${values.map((v) => csvField(text(v))).join(",")}\r\n`;
}
