/**
 * What a configuration format reader gives: the key paths of a file with their literal values,
 * commented-out lines included. Readers never execute anything (no YAML tags, no XML entities, no
 * interpolation): they read text.
 *
 * @example readConfig("appsettings.json", ['{ "Db": { "Password": "hunter22" } }'])[0]?.path // ["Db", "Password"]
 */
export interface ConfigEntry {
  /** 0-based index of the row (of the rows given to the reader) where the value is written. */
  row: number;
  /**
   * The key path down to the value: `["spring", "datasource", "password"]`. For a name/value pair
   * (`- name: DB_PASSWORD` / `value: ...`, `<add key="ApiKey" value="..."/>`) the last key is the
   * pair's name.
   */
  path: readonly string[];
  /** The literal value, without quotes (base64 `data` of a Kubernetes Secret as written). */
  value: string;
  /** True when the line is commented out (`# password: ...`, `// "Key": ...`, `<!-- ... -->`). */
  commented: boolean;
  /** True when the value was quoted: an unquoted value in HCL or a Dockerfile is a reference, not a literal. */
  quoted?: boolean;
  /** A value of a Kubernetes Secret: `data` (base64) or `stringData` (plain). */
  secretData?: "base64" | "plain";
}

/** A configuration format: which files it reads, and how. */
export interface ConfigFormat {
  /** The format's name, as the ledger and findings say it: "yaml", "xml", "terraform"... */
  id: string;
  /** Whether a path is a file of this format (by its name). */
  matches(path: string): boolean;
  /**
   * True when the file may also hold code (a document's code samples): the code scan for secret
   * assignments still runs over it. Otherwise the format's reading replaces that scan.
   */
  embedsCode?: boolean;
  /** The entries of a file's rows (a row is a line; blank rows stand for gaps between hunks). */
  read(rows: readonly string[]): ConfigEntry[];
}

/**
 * A quoted value's text without its quotes and, for an unquoted one, without a trailing comment.
 *
 * @example unquote('"a#b" # note', "#") // { value: "a#b", quoted: true }
 */
export function unquote(raw: string, commentMarks = "#"): { value: string; quoted: boolean } {
  const text = raw.trim();
  const q = text[0];
  // A backquote starts a command whose output is the value: kept as written, not a quoted literal.
  if (q === '"' || q === "'") {
    const end = text.indexOf(q, 1);
    if (end > 0) return { value: text.slice(1, end), quoted: true };
    return { value: text.slice(1), quoted: true };
  }
  let end = text.length;
  for (const mark of commentMarks) {
    // A comment starts at a mark after whitespace (`a#b` is a value, `a #b` a value and a comment).
    const at = text.search(new RegExp(`\\s${mark === "/" ? "//" : `\\${mark}`}`));
    if (at >= 0 && at < end) end = at;
  }
  return { value: text.slice(0, end).trim(), quoted: false };
}
