import type { ConfigEntry, ConfigFormat } from "./entry.js";
import { uncomment } from "./key-value-line.js";

/**
 * Java `.properties`: `key=value`, `key: value` or `key value`; `#` and `!` comments (read too).
 * The key's dots are its path: `spring.datasource.password` is `["spring", "datasource", "password"]`.
 *
 * @example propertiesFormat.read(["db.password=s3cr3t!"])[0]?.path // ["db", "password"]
 */
export const propertiesFormat: ConfigFormat = {
  id: "properties",
  matches: (path) => /\.properties$/i.test(path),
  read(rows) {
    const out: ConfigEntry[] = [];
    rows.forEach((row, index) => {
      const inComment = uncomment(row, ["#", "!"]);
      const text = (inComment ?? row).trim();
      // The key ends at the first unescaped `=`, `:` or whitespace.
      const m = /^((?:\\.|[^=:\s\\])+)\s*(?:[=:]\s*|\s+)(.*)$/.exec(text);
      if (!m?.[1] || m[2] === undefined) return;
      const key = m[1].replace(/\\(.)/g, "$1");
      if (!/^[\w.$@/-]+$/.test(key)) return;
      out.push({ row: index, path: key.split("."), value: m[2].trim(), commented: inComment !== undefined });
    });
    return out;
  },
};
