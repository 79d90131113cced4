import type { ConfigEntry, ConfigFormat } from "./entry.js";

const ELEMENT = /<([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/g;
const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const TEXT_ELEMENT = /<([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*>([^<]*)<\/\1\s*>/g;

/** The five predefined entities; nothing else is expanded (no DTD, no external entity is ever read). */
function decode(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(ATTRIBUTE)) out.set(m[1] ?? "", decode(m[2] ?? m[3] ?? ""));
  return out;
}

/** The attribute that names an element: `<add key="ApiKey" .../>`, `<property name="password" .../>`. */
function nameOf(attrs: Map<string, string>): string | undefined {
  for (const a of ["key", "name", "Key", "Name", "id"]) {
    const v = attrs.get(a);
    if (v !== undefined) return v;
  }
  return undefined;
}

/**
 * XML configuration (`Web.config`, `app.config`, Maven `settings.xml`, Spring and Hibernate XML),
 * read element by element on each line: attributes are keys (`password="..."`), a named pair
 * (`<add key="ApiKey" value="..."/>`, `<add name="Db" connectionString="..."/>`) is named by its
 * key, and an element's text (`<password>...</password>`) is its value. Lines inside `<!-- -->`
 * are read too. Only the five predefined entities are decoded: no DTD, no entity is ever expanded.
 *
 * @example xmlFormat.read(['<add key="ApiKey" value="k3y-9x8z"/>'])[0]?.path // ["add", "ApiKey"]
 */
export const xmlFormat: ConfigFormat = {
  id: "xml",
  matches: (path) => /\.(xml|config|pubxml|plist|xsd|jelly)$/i.test(path),
  read(rows) {
    const out: ConfigEntry[] = [];
    let inComment = false;
    /** A start tag whose attributes go on over the next lines (`<jdbcConnection driverClass="..."` / `password="..."/>`). */
    let openTag: string | undefined;
    rows.forEach((row, index) => {
      const commented = inComment || row.includes("<!--");
      for (let at = 0; ; ) {
        const open = row.indexOf(inComment ? "-->" : "<!--", at);
        if (open < 0) break;
        inComment = !inComment;
        at = open + 3;
      }
      if (openTag !== undefined) {
        const end = row.indexOf(">");
        for (const [attr, value] of attributes(end < 0 ? row : row.slice(0, end))) {
          out.push({ row: index, path: [openTag, attr], value, commented, quoted: true });
        }
        if (end >= 0) openTag = undefined;
      }
      const unclosed = /<([A-Za-z_][\w:.-]*)(\s+[^<>]*)?$/.exec(row);
      if (unclosed) {
        openTag = unclosed[1];
        for (const [attr, value] of attributes(unclosed[2] ?? "")) {
          out.push({ row: index, path: [openTag ?? "", attr], value, commented, quoted: true });
        }
      }
      for (const m of row.matchAll(ELEMENT)) {
        const tag = m[1] ?? "";
        const attrs = attributes(m[2] ?? "");
        const name = nameOf(attrs);
        for (const [attr, value] of attrs) {
          if (attr === "key" || attr === "name" || attr === "Key" || attr === "Name" || attr === "id") continue;
          // `<add key="X" value="..."/>`: the value is X's; `<add name="Db" connectionString="..."/>`: Db's connection string.
          const path =
            name === undefined ? [tag, attr] : attr === "value" || attr === "Value" ? [tag, name] : [tag, name, attr];
          out.push({ row: index, path, value, commented, quoted: true });
        }
      }
      for (const m of row.matchAll(TEXT_ELEMENT)) {
        const name = nameOf(attributes(m[2] ?? ""));
        const value = decode((m[3] ?? "").trim());
        if (value === "") continue;
        out.push({
          row: index,
          path: name === undefined ? [m[1] ?? ""] : [m[1] ?? "", name],
          value,
          commented,
          quoted: true,
        });
      }
    });
    return out;
  },
};
