import type { ConfigEntry } from "../../config-formats/index.js";
import { configFormatOf } from "../../config-formats/index.js";
import { secretKeyKind, USER_KEY } from "./secret-names.js";
import { type NotASecret, notASecret } from "./secret-values.js";
import { credentialsInValue } from "./value-credentials.js";

/** A secret read from a configuration file's structure. */
export interface ConfigSecret {
  /** The exact secret as written in the file (base64 for a Secret's `data`). */
  value: string;
  /** 0-based row of the rows read. */
  row: number;
  /** `config:<format>:<rule>`, e.g. "config:yaml:secret-key". */
  rule: string;
  /** What it is, without the value: "password of spring.datasource.password (commented out)". */
  label: string;
}

/** Keys that name a value's holder rather than the value (`default`, `value`): the key before them names it. */
const HOLDER_KEYS = new Set(["default", "value", "val", "defaultvalue", "default_value", "content", "plain"]);

/** What a Secret's data may look like and still be a credential: a phrase, a short word, a URL. */
const SECRET_DATA_STILL_SECRET: ReadonlySet<NotASecret> = new Set([
  "prose",
  "short",
  "not-a-credential",
  "names-a-secret",
  "reference",
] as const);

/** Formats that hold no translations: a quoted phrase under a password's name there is a passphrase. */
const PASSPHRASE_FORMATS: ReadonlySet<string> = new Set(["dotenv", "dockerfile", "terraform", "ini", "toml"]);

/** Keys of a Kubernetes Secret's data that hold no credential. */
const PLAIN_DATA_KEY =
  /(user(name)?|address|host(name)?|port|database|db|name|region|endpoint|bucket|email|namespace|crt|cert|certificate|pem|url|uri|server|schema|driver|dialect|tenant|id|env|environment|mode|level)$/i;

/** The name an entry's value goes by: its last key, or the key before a `default`/`value` holder. */
function nameOf(entry: ConfigEntry): string {
  const path = entry.path;
  const last = path[path.length - 1] ?? "";
  if (HOLDER_KEYS.has(last.toLowerCase()) && path.length >= 2) return path[path.length - 2] ?? last;
  return last;
}

/**
 * Whether an added value of these rows may take its name from rows out of view: it sits under a
 * holder key (`default = ...` in a `variable "x"` block, `value:` of a name/value pair) or in the
 * `data`/`stringData` of what may be a Kubernetes Secret. Only such values need the whole file to
 * be judged; any other value's name is on its own row.
 *
 * @example namedOutOfView("variables.tf", ['  default = "x"'], new Set([0])) // true
 */
export function namedOutOfView(path: string, rows: readonly string[], addedRows: ReadonlySet<number>): boolean {
  const entries = configFormatOf(path)?.read(rows) ?? [];
  return entries.some(
    (e) =>
      addedRows.has(e.row) &&
      (HOLDER_KEYS.has((e.path[e.path.length - 1] ?? "").toLowerCase()) ||
        e.path[0] === "data" ||
        e.path[0] === "stringData"),
  );
}

/** User names written within four rows of a row: what a password equal to its user is compared with. */
function usersNear(entries: readonly ConfigEntry[], row: number): string[] {
  return entries.filter((e) => Math.abs(e.row - row) <= 4 && USER_KEY.test(e.path.join("."))).map((e) => e.value);
}

function base64Text(value: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) return undefined;
  const text = Buffer.from(value, "base64").toString("utf8");
  return /^[\x20-\x7e\t\r\n]*$/.test(text) ? text : undefined;
}

/**
 * Secrets in a configuration file, judged by its structure: a secret-like key (password, token,
 * api key, client secret, connection string...) holding a literal that is not a placeholder, a
 * reference, an example or a dummy; a Kubernetes Secret's `data` (decoded) and `stringData`;
 * credentials inside values (connection strings, URLs with a password, auth headers). Commented-out
 * lines count. Only entries on `addedRows` are judged, read with the rest of the rows around them.
 *
 * @example findConfigSecrets(".env", ["DB_PASSWORD=Pr0d!pw"], new Set([0]))[0]?.rule // "config:dotenv:secret-key"
 */
export function findConfigSecrets(
  path: string,
  rows: readonly string[],
  addedRows: ReadonlySet<number>,
): ConfigSecret[] | undefined {
  const format = configFormatOf(path);
  if (!format) return undefined;
  const entries = format.read(rows);
  const out: ConfigSecret[] = [];
  const note = (e: ConfigEntry) => (e.commented ? " (commented out)" : "");
  for (const entry of entries) {
    if (!addedRows.has(entry.row)) continue;
    const name = nameOf(entry);
    const where = entry.path.join(".");
    let judged = entry.value;
    if (entry.secretData === "base64") judged = base64Text(entry.value) ?? entry.value;
    for (const c of credentialsInValue(judged, { users: usersNear(entries, entry.row) })) {
      // A Secret's base64 value is masked whole, as written; elsewhere the credential itself.
      out.push({
        value: entry.secretData === "base64" ? entry.value : c.value,
        row: entry.row,
        rule: `config:${format.id}:${c.rule}`,
        label: `${c.label} at ${where}${note(entry)}`,
      });
    }
    if (out.some((s) => s.row === entry.row && s.value === entry.value)) continue;
    // Unquoted HCL values are expressions (`var.db_password`), not literals.
    if (format.id === "terraform" && !entry.quoted) continue;
    // A Secret's value named like no secret is one unless its key says what it is or it is one plain word.
    const plainData =
      entry.secretData !== undefined &&
      (PLAIN_DATA_KEY.test(name.replace(/[^A-Za-z]/g, "")) || /^[a-z]+$/.test(judged));
    const kind = secretKeyKind(name) ?? (entry.secretData && !plainData ? "token" : undefined);
    if (!kind) continue;
    const users = usersNear(entries, entry.row);
    const rule = notASecret(judged, kind, { key: name, users });
    // A Secret's data is secret by its kind: only a value that stands for another one is not.
    const stillSecret = entry.secretData !== undefined && rule !== undefined && SECRET_DATA_STILL_SECRET.has(rule);
    // A quoted phrase under a password's name is a passphrase where no translation lives (an env
    // file, a Dockerfile, Terraform, INI, TOML); in JSON, YAML, XML and properties it may be a label.
    const passphrase =
      rule === "prose" && kind === "password" && entry.quoted === true && PASSPHRASE_FORMATS.has(format.id);
    if (rule !== undefined && !stillSecret && !passphrase) continue;
    out.push({
      value: entry.value,
      row: entry.row,
      rule: `config:${format.id}:${entry.secretData ? "kubernetes-secret" : "secret-key"}`,
      label: entry.secretData
        ? `Kubernetes Secret ${entry.secretData === "base64" ? "data" : "stringData"} "${name}"${note(entry)}`
        : `${kind === "password" ? "password" : "secret"} in ${where}${note(entry)}`,
    });
  }
  return out;
}
