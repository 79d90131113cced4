import { createRequire } from "node:module";
import type * as SmolToml from "smol-toml";

/**
 * Line-by-line TOML section tracking for diff hunks, shared by pyproject.toml and Cargo.toml.
 * A section label is the table name (`tool.poetry.dependencies`), or `<table>#<key>` while inside a
 * multi-line array (`project#dependencies`); `?` stands for a table the hunk does not show.
 */

let toml: typeof SmolToml | undefined;

/** The TOML parser, loaded by the first whole manifest read (a PR with no TOML manifest never loads it). */
function parseToml(text: string): unknown {
  toml ??= createRequire(import.meta.url)("smol-toml") as typeof SmolToml;
  return toml.parse(text);
}

const HEADER = /^\s*\[\[?\s*([^\][]+?)\s*\]\]?\s*(?:#.*)?$/;
const ARRAY_START = /^\s*([A-Za-z0-9_-]+)\s*=\s*\[/;
const KEY_VALUE = /^\s*("[^"]+"|'[^']+'|[A-Za-z0-9_.-]+)\s*=\s*(.+?)\s*$/;

/**
 * The table a `[header]` or `[[header]]` line opens, with spaces around dots removed.
 *
 * @example tableHeader("[tool.poetry.group.dev.dependencies]") // "tool.poetry.group.dev.dependencies"
 */
export function tableHeader(text: string): string | undefined {
  const m = HEADER.exec(text);
  return m?.[1]?.replace(/\s*\.\s*/g, ".");
}

/** The line without strings and comments, so brackets inside `"requests[socks]"` do not count. */
function bare(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '""').replace(/#.*$/, "");
}

function bracketDepth(text: string): number {
  const s = bare(text);
  return (s.match(/\[/g)?.length ?? 0) - (s.match(/\]/g)?.length ?? 0);
}

/**
 * The table part of a label, undefined for a table the hunk does not show.
 *
 * @example tableOf("project#dependencies") // "project"
 */
export function tableOf(section: string | undefined): string | undefined {
  if (section === undefined) return undefined;
  const table = section.split("#")[0];
  return table === "?" ? undefined : table;
}

/**
 * The array key of a label, if inside an array.
 *
 * @example arrayKeyOf("project#dependencies") // "dependencies"
 */
export function arrayKeyOf(section: string | undefined): string | undefined {
  const hash = section?.indexOf("#") ?? -1;
  return section !== undefined && hash >= 0 ? section.slice(hash + 1) : undefined;
}

/**
 * The section after this TOML line: a header opens a table; `key = [` left open opens an array;
 * a closing `]` returns to the table.
 *
 * @example nextTomlSection("project", "dependencies = [") // "project#dependencies"
 */
export function nextTomlSection(section: string | undefined, text: string): string | undefined {
  const header = tableHeader(text);
  if (header !== undefined) return header;
  if (arrayKeyOf(section) !== undefined) {
    return bracketDepth(text) < 0 ? tableOf(section) : section;
  }
  const start = ARRAY_START.exec(text);
  if (start && bracketDepth(text) > 0) return `${section ?? "?"}#${start[1]}`;
  return section;
}

/**
 * A `key = value` line: the unquoted key and the raw value text (comments kept out of strings).
 *
 * @example keyValue(`serde = { version = "1.0" }`) // { key: "serde", value: `{ version = "1.0" }` }
 */
export function keyValue(text: string): { key: string; value: string } | undefined {
  const m = KEY_VALUE.exec(text.replace(/\s+#[^"']*$/, ""));
  if (!m || m[1] === undefined || m[2] === undefined) return undefined;
  return { key: m[1].replace(/^["']|["']$/g, ""), value: m[2] };
}

/**
 * The value of `field = "..."` inside an inline table.
 *
 * @example inlineField(`{ version = "1.0", optional = true }`, "version") // "1.0"
 */
export function inlineField(value: string, field: string): string | undefined {
  const m = new RegExp(`(?:^|[{,\\s])${field}\\s*=\\s*["']([^"']*)["']`).exec(value);
  return m?.[1];
}

/**
 * The text of a plain TOML string value, or undefined for anything else.
 *
 * @example stringValue(`"1.0"`) // "1.0"
 */
export function stringValue(value: string): string | undefined {
  const m = /^["']([^"']*)["']$/.exec(value.trim());
  return m?.[1];
}

/**
 * A parsed TOML table (an object that is not an array).
 *
 * @example isTomlTable({ dependencies: {} }) // true
 */
export function isTomlTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A whole TOML document as a table, or undefined when it does not parse (a manifest being edited
 * into a broken state is read from the hunks instead).
 *
 * @example parseTomlTable("[package]\nname = \"x\"")?.["package"] // { name: "x" }
 */
export function parseTomlTable(text: string): Record<string, unknown> | undefined {
  let doc: unknown;
  try {
    doc = parseToml(text);
  } catch {
    return undefined;
  }
  return isTomlTable(doc) ? doc : undefined;
}
