import { dockerfileFormat } from "./dockerfile.js";
import { dotenvFormat } from "./dotenv.js";
import type { ConfigEntry, ConfigFormat } from "./entry.js";
import { hclFormat } from "./hcl.js";
import { iniFormat, tomlFormat } from "./ini.js";
import { jsonFormat } from "./json.js";
import { propertiesFormat } from "./properties.js";
import { xmlFormat } from "./xml.js";
import { yamlFormat } from "./yaml.js";

/** The reader of a fenced block by its info string; untagged blocks are read as YAML and as env lines. */
const BY_LANGUAGE: Readonly<Record<string, readonly ConfigFormat[]>> = {
  yaml: [yamlFormat],
  yml: [yamlFormat],
  json: [jsonFormat],
  jsonc: [jsonFormat],
  toml: [tomlFormat],
  ini: [iniFormat],
  cfg: [iniFormat],
  conf: [iniFormat],
  properties: [propertiesFormat],
  xml: [xmlFormat],
  env: [dotenvFormat],
  dotenv: [dotenvFormat],
  bash: [dotenvFormat],
  sh: [dotenvFormat],
  shell: [dotenvFormat],
  console: [dotenvFormat],
  zsh: [dotenvFormat],
  dockerfile: [dockerfileFormat],
  docker: [dockerfileFormat],
  hcl: [hclFormat],
  terraform: [hclFormat],
  tf: [hclFormat],
  "": [yamlFormat, dotenvFormat],
};

/** `password: `x``, "the password is `x`", "(**admin_passwd**) is `x`": a secret word, then a value in code. */
const INLINE =
  /\b(passwords?|passwd|pass(?:phrase|word)?|pwd|secret|token|api[ _-]?key|access[ _-]?key|credentials?|admin_passwd)\b[^`\n|]{0,40}?(?:[:=]|\bis\b|\bto\b)\s*(?:\*\*)?\s*`([^`\s]+)`/gi;

const SECRET_CUE = /pass|pwd|secret|token|key|credential/i;

/** A cell that labels a secret: a few words naming one, not a description that mentions one. */
function isLabel(cell: string): boolean {
  return SECRET_CUE.test(cell) && cell.split(/\s+/).length <= 3;
}

function cellText(cell: string): string {
  return cell
    .replace(/\*\*|__/g, "")
    .trim()
    .replace(/^`([^`]*)`$/, "$1");
}

/**
 * Markdown: configuration written in a document. A fenced block is read by the format its info
 * string names (```yaml, ```ini, ```env, ```bash...), an untagged one as YAML and env lines; a table
 * row pairs a cell that names a secret with the next cell (`| **Password** | `Admin123!` |`); prose
 * pairs a secret word with the code span after it ("default password: `x`"). Code in other
 * languages is left to the code scan.
 *
 * @example markdownFormat.read(["| Password | `Adm1n!` |"])[0]?.value // "Adm1n!"
 */
export const markdownFormat: ConfigFormat = {
  id: "markdown",
  embedsCode: true,
  matches: (path) => /\.(md|markdown|mdx)$/i.test(path),
  read(rows) {
    const out: ConfigEntry[] = [];
    let fence: { marker: string; start: number; readers: readonly ConfigFormat[] } | undefined;
    /** The header cells of the table being read: a column named "Password" names its cells. */
    let header: string[] | undefined;
    rows.forEach((row, index) => {
      const open = /^\s*(`{3,}|~{3,})\s*([\w+-]*)/.exec(row);
      if (fence) {
        if (open && row.trim().startsWith(fence.marker)) {
          const block = rows.slice(fence.start + 1, index);
          for (const reader of fence.readers) {
            for (const e of reader.read(block)) out.push({ ...e, row: e.row + fence.start + 1 });
          }
          fence = undefined;
        }
        return;
      }
      if (open) {
        fence = { marker: open[1] ?? "```", start: index, readers: BY_LANGUAGE[(open[2] ?? "").toLowerCase()] ?? [] };
        return;
      }
      if (/^\s*\|/.test(row)) {
        const cells = row.split("|").slice(1, -1).map(cellText);
        if (cells.every((c) => /^:?-{2,}:?$/.test(c))) return;
        const names = header;
        header ??= cells;
        cells.forEach((cell, i) => {
          const next = cells[i + 1];
          const column = names?.[i];
          if (next !== undefined && next !== "" && isLabel(cell)) {
            out.push({ row: index, path: [cell], value: next, commented: false, quoted: true });
          } else if (column !== undefined && cell !== "" && isLabel(column)) {
            out.push({ row: index, path: [column], value: cell, commented: false, quoted: true });
          }
        });
        return;
      }
      header = undefined;
      // `KEYCLOAK_PASSWORD: x` or `DB_PASSWORD=x` written as a line of its own (an indented block, a list).
      const line = /^\s*(?:[-*]\s+)?([A-Z][A-Z0-9_]{2,})\s*[:=]\s*(\S+)\s*$/.exec(row);
      if (line) out.push({ row: index, path: [line[1] ?? ""], value: line[2] ?? "", commented: false, quoted: false });
      for (const m of row.matchAll(INLINE)) {
        out.push({ row: index, path: [m[1] ?? ""], value: m[2] ?? "", commented: false, quoted: true });
      }
    });
    return out;
  },
};
