import { type ConfigEntry, type ConfigFormat, unquote } from "./entry.js";
import { keyValueLine } from "./key-value-line.js";

/** One open mapping (or list item) and what its keys said so far. */
interface Frame {
  indent: number;
  /** The key that opened it; undefined for a list item. */
  key?: string;
  /** The value of a `name:` (or `key:`) key of this mapping, for a name/value pair. */
  name?: string;
  /** A `value:` entry read before its `name:`, renamed when the name comes. */
  pending?: ConfigEntry;
}

const KEY_LINE = /^(?:(["'])(.+?)\1|([^\s"'#:{}[\],&*!|>][^#:]*?))\s*:(?:\s+(.*)|\s*)$/;

const SPACED_PAIR = /^(?:(["'])(.+?)\1|([A-Za-z_][\w.-]*))\s+:(\S.*)$/;

/** Kinds of Kubernetes document whose values only name secrets kept elsewhere, or hold them encrypted. */
const REFERENCE_KINDS = new Set(["ExternalSecret", "SealedSecret", "ClusterExternalSecret", "PushSecret"]);

/** The `kind:` of each row's YAML document (`---` separates documents). */
function documentKinds(rows: readonly string[]): Array<string | undefined> {
  const kinds: Array<string | undefined> = new Array(rows.length);
  let start = 0;
  const close = (end: number) => {
    let kind: string | undefined;
    for (let i = start; i < end; i++) {
      const m = /^kind:\s*["']?([\w.-]+)/.exec(rows[i] ?? "");
      if (m) {
        kind = m[1];
        break;
      }
    }
    for (let i = start; i < end; i++) kinds[i] = kind;
  };
  rows.forEach((row, i) => {
    if (/^---/.test(row)) {
      close(i);
      start = i;
    }
  });
  close(rows.length);
  return kinds;
}

/**
 * YAML, every document of a file (Kubernetes and Helm manifests, compose files, GitHub Actions,
 * Spring `application.yml`), read by indentation, line by line: a hunk of a file reads as well as
 * the whole. `# key: value` comments are read too, a list item `- KEY=value` is a pair, a
 * `name:`/`value:` mapping is named by its name, and a block scalar's `key=value` lines are read.
 * Nothing is resolved: tags, anchors and aliases are references, not values.
 *
 * @example yamlFormat.read(["env:", "  - name: DB_PASSWORD", "    value: hunter22"])[0]?.path // ["env", "DB_PASSWORD"]
 */
export const yamlFormat: ConfigFormat = {
  id: "yaml",
  matches: (path) => /\.ya?ml$/i.test(path),
  read(rows) {
    const out: ConfigEntry[] = [];
    const kinds = documentKinds(rows);
    let stack: Frame[] = [];
    let block: { indent: number; path: string[] } | undefined;
    const pathOf = (frames: readonly Frame[]) => frames.flatMap((f) => (f.key !== undefined ? [f.key] : []));
    const emit = (index: number, path: string[], raw: string, commented: boolean, frame: Frame | undefined) => {
      const rest = raw.trim();
      if (rest === "" || /^[&*!|>{[]/.test(rest)) return;
      const { value, quoted } = unquote(rest, "#");
      const kind = kinds[index];
      if (kind !== undefined && REFERENCE_KINDS.has(kind)) return;
      const entry: ConfigEntry = { row: index, path, value, commented, quoted };
      if (kind === "Secret" && (path[0] === "data" || path[0] === "stringData") && path.length === 2) {
        entry.secretData = path[0] === "data" ? "base64" : "plain";
      }
      const key = path[path.length - 1];
      if (frame && (key === "name" || key === "key")) {
        frame.name = value;
        if (frame.pending) frame.pending.path = [...frame.pending.path.slice(0, -1), value];
      }
      if (frame && key === "value") {
        if (frame.name !== undefined) entry.path = [...path.slice(0, -1), frame.name];
        else frame.pending = entry;
      }
      out.push(entry);
      // A value kept in a trailing comment (`token: ${{ secrets.T }} # 98513912-9a2c-...`) counts too.
      const trailing = /\s#\s*([A-Za-z0-9._~+/=-]{16,})\s*$/.exec(rest);
      if (trailing?.[1] && trailing[1] !== value)
        out.push({ ...entry, value: trailing[1], commented: true, quoted: false });
    };
    rows.forEach((row, index) => {
      if (/^(---|\.\.\.)(\s|$)/.test(row)) {
        stack = [];
        block = undefined;
        return;
      }
      if (row.trim() === "") return;
      const indent = row.length - row.trimStart().length;
      if (block && indent > block.indent) {
        const kv = keyValueLine(row.trim(), "=:");
        if (kv)
          out.push({ row: index, path: [...block.path, kv.key], value: kv.value, commented: false, quoted: kv.quoted });
        return;
      }
      block = undefined;
      let text = row.trim();
      if (text.startsWith("#")) {
        // A commented-out line: read it where it stands, without changing the open mappings.
        const inner = text.replace(/^#+\s*/, "");
        const m = KEY_LINE.exec(inner.replace(/^-\s+/, ""));
        const key = m?.[2] ?? m?.[3];
        // A commented-out key is a key (`# password: x`), not prose that has a colon in it.
        if (key !== undefined && m?.[4] !== undefined && /^[\w.-]+$/.test(key.trim())) {
          emit(index, [...pathOf(stack.filter((f) => f.indent < indent)), key.trim()], m[4], true, undefined);
        } else {
          const kv = keyValueLine(inner.replace(/^-\s+/, ""), "=");
          if (kv) emit(index, [...pathOf(stack.filter((f) => f.indent < indent)), kv.key], kv.value, true, undefined);
        }
        return;
      }
      let at = indent;
      while (stack.length > 0 && (stack[stack.length - 1]?.indent ?? -1) >= at) stack.pop();
      // List items: each `- ` opens a mapping of its own.
      while (text.startsWith("- ") || text === "-") {
        stack.push({ indent: at });
        const rest = text.slice(1);
        at += 1 + (rest.length - rest.trimStart().length);
        text = rest.trim();
      }
      if (text === "") return;
      // `KEY :value` (a space before the colon, none after) is how some write a pair by hand.
      const m = KEY_LINE.exec(text) ?? SPACED_PAIR.exec(text);
      const key = (m?.[2] ?? m?.[3])?.trim();
      if (!m || key === undefined) {
        // A list's scalar item: `- DB_PASSWORD=hunter22` (compose `environment:`), `- "--token=abc"`.
        const kv = keyValueLine(unquote(text, "#").value, "=");
        if (kv && stack[stack.length - 1]?.key === undefined)
          emit(index, [...pathOf(stack), kv.key], kv.value, false, undefined);
        return;
      }
      const value = m[4]?.trim() ?? "";
      const top = stack[stack.length - 1];
      if (value === "" || value.startsWith("#") || /^&\S+\s*(#.*)?$/.test(value)) {
        stack.push({ indent: at, key });
        return;
      }
      if (/^[|>][-+0-9]*\s*(#.*)?$/.test(value)) {
        block = { indent: at, path: [...pathOf(stack), key] };
        return;
      }
      emit(index, [...pathOf(stack), key], value.replace(/^&\S+\s+/, ""), false, top);
    });
    return out;
  },
};
