import type { ConfigEntry, ConfigFormat } from "./entry.js";

/** An open object or array, the key it sits under, and its name/value pair so far. */
interface Frame {
  array: boolean;
  key?: string;
  name?: string;
  pending?: ConfigEntry;
}

/** `"key": "value"` pairs written inside a comment. */
const COMMENTED_PAIR = /"([^"\\]{1,200})"\s*:\s*"((?:[^"\\]|\\.){0,2000})"/g;

/**
 * JSON with comments (`appsettings.json`, `tsconfig.json`, `.vscode/*.json`, `*.tf.json`), read by
 * a tolerant scanner: trailing commas, comments and a hunk cut mid-object do not stop it. Pairs
 * written in `//` and `/* *\/` comments are read too. `{"name": "X", "value": "..."}` is named X.
 *
 * @example jsonFormat.read(['{"Db": {"Password": "hunter22"}}'])[0]?.path // ["Db", "Password"]
 */
export const jsonFormat: ConfigFormat = {
  id: "json",
  matches: (path) => /\.(json|jsonc|json5)$/i.test(path),
  read(rows) {
    const text = rows.join("\n");
    const out: ConfigEntry[] = [];
    const stack: Frame[] = [];
    let row = 0;
    let key: string | undefined;
    const path = () => stack.flatMap((f) => (f.key !== undefined ? [f.key] : []));
    const value = (v: string, quoted: boolean, at: number) => {
      const top = stack[stack.length - 1];
      if (!top || top.array || key === undefined) {
        if (top?.array && quoted) out.push({ row: at, path: path(), value: v, commented: false, quoted });
        return;
      }
      const entry: ConfigEntry = { row: at, path: [...path(), key], value: v, commented: false, quoted };
      if (key === "name" || key === "Name" || key === "key" || key === "Key") {
        top.name = v;
        if (top.pending) top.pending.path = [...top.pending.path.slice(0, -1), v];
      } else if (key === "value" || key === "Value") {
        if (top.name !== undefined) entry.path = [...path(), top.name];
        else top.pending = entry;
      }
      out.push(entry);
      key = undefined;
    };
    const comment = (body: string, at: number) => {
      for (const m of body.matchAll(COMMENTED_PAIR)) {
        const before = body.slice(0, m.index);
        const line = at + (before.match(/\n/g)?.length ?? 0);
        out.push({
          row: line,
          path: [...path(), m[1] ?? ""],
          value: unescapeJson(m[2] ?? ""),
          commented: true,
          quoted: true,
        });
      }
    };
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === "\n") {
        row++;
        continue;
      }
      if (c === "/" && text[i + 1] === "/") {
        const end = text.indexOf("\n", i);
        const stop = end < 0 ? text.length : end;
        comment(text.slice(i + 2, stop), row);
        i = stop - 1;
        continue;
      }
      if (c === "/" && text[i + 1] === "*") {
        const end = text.indexOf("*/", i + 2);
        const stop = end < 0 ? text.length : end;
        const body = text.slice(i + 2, stop);
        comment(body, row);
        row += body.match(/\n/g)?.length ?? 0;
        i = stop + 1;
        continue;
      }
      if (c === '"' || c === "'") {
        let j = i + 1;
        while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
        const s = unescapeJson(text.slice(i + 1, j));
        // A string followed by `:` is a key; a hunk may start inside an object, so no `{` is needed.
        if (followedByColon(text, j + 1)) {
          if (stack.length === 0) stack.push({ array: false });
          key = s;
        } else value(s, true, row);
        i = j;
        continue;
      }
      if (c === "{" || c === "[") {
        stack.push({ array: c === "[", ...(key !== undefined ? { key } : {}) });
        key = undefined;
        continue;
      }
      if (c === "}" || c === "]") {
        stack.pop();
        key = undefined;
        continue;
      }
      if (c === ",") {
        key = undefined;
        continue;
      }
      if (c !== undefined && /[\w.+-]/.test(c)) {
        let j = i;
        while (j < text.length && /[\w.+-]/.test(text[j] ?? "")) j++;
        const word = text.slice(i, j);
        // JSON5 allows unquoted keys.
        if (followedByColon(text, j)) key = word;
        else value(word, false, row);
        i = j - 1;
      }
    }
    return out;
  },
};

function unescapeJson(s: string): string {
  return s.includes("\\")
    ? s
        .replace(/\\(["\\/'])/g, "$1")
        .replace(/\\n/g, "\n")
        .replace(/\\t/g, "\t")
    : s;
}

function followedByColon(text: string, from: number): boolean {
  let k = from;
  while (k < text.length && (text[k] === " " || text[k] === "\t")) k++;
  return text[k] === ":";
}
