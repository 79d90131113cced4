import { readableLine } from "../code-lines.js";
import { precheck } from "../precheck.js";
import { MAY_NAME_SECRET, type SecretKeyKind, secretKeyKind } from "./secret-names.js";
import { notASecret, shannonEntropy } from "./secret-values.js";

/** A literal assigned to a secret-like name that looks like a real secret. */
export interface SecretAssignment {
  /** The exact literal (without quotes). */
  value: string;
  /** 1-based line within the scanned text. */
  line: number;
  /** The name it is assigned to, e.g. "DB_PASSWORD". */
  name: string;
}

/**
 * `name = "value"`, `name: value`, `"name": "value"`, `name := "value"`, `name => 'value'`.
 * Not `==`/`===` comparisons. Group 2 is the name; 4 a quoted value, 5 an unquoted one.
 */
const ASSIGNMENT =
  /(["']?)([A-Za-z_][A-Za-z0-9_.-]*)\1\s*(?::=|=>|:|=)(?![=>])\s*(?:(?:b|r|u)?(["'`])((?:(?!\3).){1,400})\3|([A-Za-z0-9+/=_-]{12,200})(?![A-Za-z0-9+/=_.(-]))/g;

/**
 * A literal a value falls back to when the environment has none: `key: process.env.X || "lit"`,
 * `getenv('X') ?: 'lit'`,
 * `os.getenv("X", "lit")`, `os.environ.get("X", "lit")`, `ENV.fetch("X", "lit")`. Group 1 is the
 * key it is assigned to (if any), 2 the environment variable's name, 4 the literal.
 */
const FALLBACK =
  /(?:(?:^|[\s,{(])([A-Za-z_][\w]*)["']?\s*[:=]\s*)?(?:process\.env\.([A-Za-z_]\w*)|(?:getenv|environ\.get|ENV\.fetch|Getenv|GetEnvironmentVariable|env\.get)\(\s*["']([A-Za-z_]\w*)["'])[^"'`\n]*?(?:\|\||\?\?|\?:|\bor\b|,)\s*["'`]([^"'`\n]{1,400})["'`]/g;

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
    if (lineText === undefined || !precheck(MAY_NAME_SECRET.test(lineText))) return;
    for (const m of lineText.matchAll(ASSIGNMENT)) {
      const name = m[2] ?? "";
      const quoted = m[4];
      const value = quoted ?? m[5];
      const kind = value ? secretKeyKind(name) : undefined;
      if (!value || !kind || notASecret(value, kind, { key: name }) !== undefined || /^secrets\./.test(value)) continue;
      if (quoted !== undefined ? looksLikeQuotedSecret(value, kind) : looksLikeBareSecret(value)) {
        out.push({ value, line: index + 1, name });
      }
    }
    for (const m of lineText.matchAll(FALLBACK)) {
      // `token: process.env.TOKEN || "a67170ff..."`: named by its key, or by the variable it falls back from.
      const names = [m[1] ?? "", m[2] ?? "", m[3] ?? ""].filter((n) => n !== "");
      const value = m[4] ?? "";
      const name = names.find((n) => secretKeyKind(n) !== undefined);
      const kind = name === undefined ? undefined : secretKeyKind(name);
      if (!name || !kind || notASecret(value, kind, { key: name }) !== undefined) continue;
      if (looksLikeQuotedSecret(value, kind)) out.push({ value, line: index + 1, name });
    }
  });
  return out;
}

/**
 * A quoted literal is a password when it is one word of four or more characters (weak ones count:
 * `1234`, `admin123`); a token or key must also look random (letters with digits or symbols, entropy).
 */
function looksLikeQuotedSecret(value: string, kind: SecretKeyKind): boolean {
  if (kind === "password" && value.length >= 4) return true;
  if (value.length < 8) return false;
  if (/^(https?:\/\/|\.{0,2}\/)/.test(value)) return false; // a URL or a path
  if (/^[a-z]+([-_.][a-z]+)+$/.test(value)) return false; // a slug such as "session-token"
  if (/^(.)\1+$/.test(value)) return false;
  const hasLetter = /[A-Za-z]/.test(value);
  const hasDigitOrSymbol = /[^A-Za-z]/.test(value);
  return hasLetter && hasDigitOrSymbol && shannonEntropy(value) >= 3.0;
}

function looksLikeBareSecret(value: string): boolean {
  return /[A-Za-z]/.test(value) && /\d/.test(value) && shannonEntropy(value) >= 3.3;
}
