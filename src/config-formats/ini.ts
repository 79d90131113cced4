import type { ConfigEntry, ConfigFormat } from "./entry.js";
import { keyValueLine, uncomment } from "./key-value-line.js";

/** INI-like files (`.ini`, `.cfg`, `.conf`, `.cnf`, `.npmrc`, `.pypirc`, `.s3cfg`) and TOML. */
function sectioned(id: string, matches: (path: string) => boolean, seps: string, marks: string[]): ConfigFormat {
  return {
    id,
    matches,
    read(rows) {
      const out: ConfigEntry[] = [];
      let section: string[] = [];
      rows.forEach((row, index) => {
        const inComment = uncomment(row, marks);
        const text = inComment ?? row;
        const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:[#;].*)?$/.exec(text);
        if (header) {
          if (inComment === undefined) section = (header[1] ?? "").split(".").map((s) => s.replace(/^["']|["']$/g, ""));
          return;
        }
        const kv = keyValueLine(text, seps, marks.join(""));
        if (!kv) return;
        out.push({
          row: index,
          path: [...section, ...kv.key.split(".")],
          value: kv.value,
          commented: inComment !== undefined,
          quoted: kv.quoted,
        });
      });
      return out;
    },
  };
}

/**
 * INI and its cousins: `[section]` then `key = value` or `key: value`; `;` and `#` comments.
 *
 * @example iniFormat.read(["[client]", "password = hunter22"])[0]?.path // ["client", "password"]
 */
export const iniFormat = sectioned(
  "ini",
  (path) =>
    /\.(ini|cfg|conf|cnf|s3cfg)$/i.test(path) || /(^|\/)\.(npmrc|pypirc|yarnrc|netrc|gitconfig|my\.cnf)$/i.test(path),
  "=:",
  [";", "#"],
);

/**
 * TOML: `[table]` / `[[array]]` headers, `key = value` (dotted keys are paths), `#` comments.
 *
 * @example tomlFormat.read(["[database]", 'password = "hunter22"'])[0]?.path // ["database", "password"]
 */
export const tomlFormat = sectioned("toml", (path) => /\.toml$/i.test(path), "=", ["#"]);
