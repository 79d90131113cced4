import { findConfigSecrets } from "../detectors/security/config-secrets.js";
import { findSecrets } from "../detectors/security/credentials.js";

/** A provider pattern the model layer masks on top of the credential detector's matches. */
interface ExtraPattern {
  rule: string;
  /** Global regex; when it has a group named `secret`, only that group is masked. */
  regex: RegExp;
}

/**
 * Belt and braces: provider formats masked even when the detector misses them (another rule set,
 * a context the detector skips). PEM blocks are matched across diff prefixes (`+`), and a block
 * with no END line is masked to the end of the text.
 */
const EXTRA_PATTERNS: readonly ExtraPattern[] = [
  { rule: "aws-access-key-id", regex: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g },
  {
    rule: "aws-secret-access-key",
    regex: /aws.{0,20}?(?:secret|private).{0,20}?["'`=:\s]+(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
  },
  { rule: "github-token", regex: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b/g },
  { rule: "github-fine-grained-token", regex: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { rule: "slack-token", regex: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { rule: "slack-webhook", regex: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9_/-]+/g },
  { rule: "stripe-key", regex: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { rule: "anthropic-key", regex: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  // Three base64url parts, the first two JSON objects (`{"` encodes as `eyJ`); unsigned ones too.
  { rule: "jwt", regex: /\beyJ[A-Za-z0-9_-]{4,4096}\.eyJ[A-Za-z0-9_-]{4,16384}\.[A-Za-z0-9_-]{0,4096}/g },
  // scheme://user:password@host: only the password.
  {
    rule: "connection-string-password",
    regex: /\b[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s/:@'"`]{0,200}:(?<secret>[^\s/@'"`]{1,300})@/g,
  },
  { rule: "authorization-header", regex: /\b(?:Bearer|Basic|token)\s+(?<secret>[A-Za-z0-9._~+/-]{8,4096}=*)/g },
  {
    rule: "private-key",
    regex:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*$)/g,
  },
];

/** Names that say their value is a secret: `password`, `DB_PASSWORD`, `dbPassword`, `api_key`, `client-secret`, `dsn`. */
const SECRET_NAME =
  /(?:pass(?:word|wd|phrase)|pwd|secret|token|api_?key|apikey|access_?key|private_?key|credentials?|dsn|auth)$|(?:pass(?:word|wd|phrase)|pwd|secret|token|api_?key|access_?key|private_?key)_/i;

/** Cheap first look: a line without any of these words holds no secret assignment. */
const SECRET_WORD =
  /pass(?:word|wd|phrase)|pwd|secret|token|api_?key|apikey|access_?key|private_?key|credential|dsn|auth/i;

/** An unquoted value that names something rather than being one: a type, a reference, a placeholder marker. */
const NOT_A_VALUE =
  /^(?:string|number|boolean|bigint|any|unknown|undefined|null|true|false|object|never|void|none|None|nil|\$.*|\{.*|%.*|<.*|\[REDACTED.*|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)$/;

/** A name and an assignment or comparison operator. The lookbehind pins the name to its first character, so each name is tried once. */
const NAME_AND_OPERATOR =
  /(?<![\w$.-])["']?([A-Za-z_$][\w$.-]{0,79})["']?[ \t]{0,8}(?:===|!==|==|!=|:=|=>|[:=])[ \t]{0,8}/g;

/** Characters an unquoted value may hold. */
const BARE_CHAR = /[^\s"'`#;,(){}<>[\]]/;
const MAX_VALUE = 300;
const QUOTES = new Set(['"', "'", "`"]);

/**
 * `name = value` and `name: value` where the name says the value is a secret: masked whatever the
 * value's entropy (`PASSWORD=hunter2` in a `.env` file, `password = "changeme1"` in code). A quoted
 * value is masked anywhere; an unquoted one only when it ends the line (env files, YAML, INI), so
 * code such as `password = req.body.password;` keeps its meaning. Written as a scan rather than
 * one regular expression so that hostile text (`x:x:x:…`) costs linear time.
 *
 * @example assignmentSpans("PASSWORD=hunter2") // [{ start: 9, end: 16, rule: "secret-assignment" }]
 */
function assignmentSpans(text: string): Span[] {
  const out: Span[] = [];
  for (let lineStart = 0; lineStart <= text.length; ) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    if (SECRET_WORD.test(line))
      out.push(...lineSpans(line).map((sp) => ({ ...sp, start: sp.start + lineStart, end: sp.end + lineStart })));
    if (newline < 0) break;
    lineStart = newline + 1;
  }
  return out;
}

function lineSpans(line: string): Span[] {
  // Where an unquoted value ending the line (before a `# comment`) may start: computed once per line.
  const hash = line.indexOf("#");
  const coreEnd = (hash < 0 ? line : line.slice(0, hash)).trimEnd().length;
  let bareFrom = coreEnd;
  while (bareFrom > 0 && BARE_CHAR.test(line[bareFrom - 1] ?? "")) bareFrom--;
  const out: Span[] = [];
  for (const m of line.matchAll(NAME_AND_OPERATOR)) {
    const name = (m[1] ?? "").replace(/[-.]/g, "_");
    if (!SECRET_NAME.test(name)) continue;
    const at = m.index + m[0].length;
    const first = line[at] ?? "";
    if (QUOTES.has(first)) {
      const close = line.slice(at + 1, at + 2 + MAX_VALUE).indexOf(first);
      const value = close > 0 ? line.slice(at + 1, at + 1 + close) : "";
      if (value.trim() === "" || /["'`\\]/.test(value) || value.startsWith("[REDACTED")) continue;
      out.push({ start: at + 1, end: at + 1 + value.length, rule: "secret-assignment" });
    } else if (at >= bareFrom && at < coreEnd && coreEnd - at <= MAX_VALUE) {
      const value = line.slice(at, coreEnd);
      if (NOT_A_VALUE.test(value)) continue;
      out.push({ start: at, end: coreEnd, rule: "secret-assignment" });
    }
  }
  return out;
}

/** A detector value shorter than this is masked only on the line it was found on. */
const SHORT_VALUE = 8;

interface Span {
  start: number;
  end: number;
  rule: string;
}

/** What `redact` returns: the masked text and how many secrets were masked. */
export interface Redacted {
  text: string;
  count: number;
}

/**
 * Masks secrets before any text reaches a model: every value the credential detector
 * (`findSecrets`) reports, everywhere it occurs; values assigned to a secret-sounding name whatever
 * their entropy (`PASSWORD=hunter2`, `password = "changeme1"`); JWTs; the password of a connection
 * string (`postgres://app:pw@db`); `Bearer`/`Basic` credentials; and provider formats (AWS,
 * GitHub, Slack, Stripe, Anthropic keys, PEM private key blocks). Each becomes `[REDACTED:<rule>]`.
 * With the path of the file the text comes from (a patch, with `patch: true`, or `read_file`'s
 * numbered lines), a configuration file is also read by its structure, so that what SEC-01 would
 * find there (a Kubernetes Secret's data, `<add key="ApiKey" value="..."/>`, a Terraform default)
 * is masked too.
 *
 * @example (await redact("key = AKIAABCDEFGHIJKLMNOP")).text // "key = [REDACTED:aws:AWSAccessKeyID]"
 */
export async function redact(text: string, path?: string, opts: { patch?: boolean } = {}): Promise<Redacted> {
  if (text === "") return { text, count: 0 };
  const spans: Span[] = [];
  for (const secret of [...(await findSecrets(text)), ...configSecrets(text, path, opts.patch === true)]) {
    if (secret.value === "") continue;
    if (secret.value.length < SHORT_VALUE) spans.push(...onLine(text, secret.value, secret.line, secret.rule));
    else spans.push(...everywhere(text, secret.value, secret.rule));
  }
  spans.push(...assignmentSpans(text));
  for (const { rule, regex } of EXTRA_PATTERNS) {
    for (const m of text.matchAll(regex)) {
      const secret = m.groups?.secret;
      const start = secret !== undefined ? m.index + m[0].lastIndexOf(secret) : m.index;
      const length = secret !== undefined ? secret.length : m[0].length;
      spans.push({ start, end: start + length, rule });
    }
  }
  const merged = mergeSpans(spans);
  let out = "";
  let at = 0;
  for (const s of merged) {
    out += `${text.slice(at, s.start)}[REDACTED:${s.rule}]`;
    at = s.end;
  }
  return { text: out + text.slice(at), count: merged.length };
}

/** What a configuration file's structure shows of secrets in a text of its lines (a patch, or numbered lines). */
function configSecrets(
  text: string,
  path: string | undefined,
  patch: boolean,
): Array<{ value: string; line: number; rule: string }> {
  if (path === undefined) return [];
  const rows = text.split("\n").map((row) => (patch ? row.replace(/^[-+ ]/, "") : row.replace(/^\d+\t/, "")));
  const all = new Set(rows.map((_, i) => i));
  return (findConfigSecrets(path, rows, all) ?? []).map((s) => ({ value: s.value, line: s.row + 1, rule: s.rule }));
}

/**
 * Redacts several texts, summing the counts.
 *
 * @example const [title, body] = (await redactAll([pr.title, pr.body])).texts;
 */
export async function redactAll(texts: readonly string[]): Promise<{ texts: string[]; count: number }> {
  const results = await Promise.all(texts.map((t) => redact(t)));
  return { texts: results.map((r) => r.text), count: results.reduce((n, r) => n + r.count, 0) };
}

function everywhere(text: string, value: string, rule: string): Span[] {
  const out: Span[] = [];
  for (let i = text.indexOf(value); i >= 0; i = text.indexOf(value, i + value.length)) {
    out.push({ start: i, end: i + value.length, rule });
  }
  return out;
}

function onLine(text: string, value: string, line: number, rule: string): Span[] {
  let start = 0;
  for (let n = 1; n < line && start >= 0; n++) {
    const nl = text.indexOf("\n", start);
    start = nl < 0 ? -1 : nl + 1;
  }
  if (start < 0) return everywhere(text, value, rule);
  const nl = text.indexOf("\n", start);
  const end = nl < 0 ? text.length : nl;
  return everywhere(text.slice(start, end), value, rule).map((s) => ({
    ...s,
    start: s.start + start,
    end: s.end + start,
  }));
}

/** Sorts spans and merges overlaps; the first (earliest, then longest) span names the rule. */
function mergeSpans(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}
