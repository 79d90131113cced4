import { readableLine } from "../code-lines.js";
import { precheck } from "../precheck.js";

/** A literal assigned to a secret-like name that looks like a real secret. */
export interface SecretAssignment {
  /** The exact literal (without quotes). */
  value: string;
  /** 1-based line within the scanned text. */
  line: number;
  /** The name it is assigned to, e.g. "DB_PASSWORD". */
  name: string;
}

const SECRET_WORD =
  /password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|signing[_-]?key|encryption[_-]?key|credential/i;

/** Names that contain a secret word but hold something else (a URL, a header name, a length). */
const NOT_A_SECRET_LAST_WORD = new Set(
  (
    "url uri path file dir name type header field length len ttl expiry expires in prefix id ids count " +
    "limit policy label placeholder pattern regex endpoint env var min max mode format version kind error " +
    "message text hint"
  ).split(" "),
);

/** The last word of `tokenUrl`, `TOKEN_URL`, `token-url`: "url". */
function lastWord(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[\s_.-]+/);
  return (words[words.length - 1] ?? "").toLowerCase();
}

/**
 * `name = "value"`, `name: value`, `"name": "value"`, `name := "value"`, `name => 'value'`.
 * Not `==`/`===` comparisons. Group 2 is the name; 4 a quoted value, 5 an unquoted one.
 */
const ASSIGNMENT =
  /(["']?)([A-Za-z_][A-Za-z0-9_.-]*)\1\s*(?::=|=>|:|=)(?![=>])\s*(?:(?:b|r|u)?(["'`])((?:(?!\3).){1,400})\3|([A-Za-z0-9+/=_-]{12,200})(?![A-Za-z0-9+/=_.(-]))/g;

const PLACEHOLDER =
  /changeme|change_me|change-me|xxx|\*\*\*|example|sample|dummy|placeholder|redacted|your[_-]|fake|<[^>]*>|\$\{|\{\{|%\(|process\.env|os\.environ|getenv|secrets\./i;

/**
 * Finds high-entropy literals assigned to secret-like names (password, secret, token, api_key,
 * private_key...), skipping placeholders (`changeme`, `xxx`, `${VAR}`, `<token>`, `process.env.X`).
 *
 * @example findSecretAssignments('DB_PASSWORD = "p9X!vR2#qL7m"')[0]?.name // "DB_PASSWORD"
 */
export function findSecretAssignments(text: string): SecretAssignment[] {
  const out: SecretAssignment[] = [];
  text.split("\n").forEach((raw, index) => {
    // Overlong lines are recorded unread by the coverage ledger.
    const lineText = readableLine(raw);
    // The name is part of the line: a line without a secret word has no assignment to report.
    if (lineText === undefined || !precheck(SECRET_WORD.test(lineText))) return;
    for (const m of lineText.matchAll(ASSIGNMENT)) {
      const name = m[2] ?? "";
      const quoted = m[4];
      const value = quoted ?? m[5];
      if (!value || !SECRET_WORD.test(name) || NOT_A_SECRET_LAST_WORD.has(lastWord(name))) continue;
      if (quoted !== undefined ? looksLikeQuotedSecret(value) : looksLikeBareSecret(value)) {
        out.push({ value, line: index + 1, name });
      }
    }
  });
  return out;
}

function looksLikeQuotedSecret(value: string): boolean {
  if (value.length < 8 || /\s/.test(value) || PLACEHOLDER.test(value)) return false;
  if (/^(https?:\/\/|\.{0,2}\/)/.test(value)) return false; // a URL or a path
  if (/^[a-z]+([-_.][a-z]+)+$/.test(value)) return false; // a slug such as "session-token"
  if (/^(.)\1+$/.test(value)) return false;
  const hasLetter = /[A-Za-z]/.test(value);
  const hasDigitOrSymbol = /[^A-Za-z]/.test(value);
  return hasLetter && hasDigitOrSymbol && shannonEntropy(value) >= 3.0;
}

function looksLikeBareSecret(value: string): boolean {
  if (PLACEHOLDER.test(value)) return false;
  return /[A-Za-z]/.test(value) && /\d/.test(value) && shannonEntropy(value) >= 3.3;
}

/**
 * Shannon entropy in bits per character.
 *
 * @example shannonEntropy("aaaa") // 0
 */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
