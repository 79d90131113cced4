import { stripStrings, type SourceLine } from "./tool-text.js";

/** Words that name a secret or a session credential. */
export const SENSITIVE = /token|password|passwd|secret|session_?id|sessionid|authorization|api_?key|credential|cookie/i;

/** `console.*`, `logger.*`/`log.*` (also `this.logger.*`) and camel-case `logXxx(` calls. */
export const LOG_CALL = /(?:\bconsole\.\w+|\blog(?:ger)?\.\w+|\blog[A-Z]\w*|\blog)\s*\(/;

/** A logging call that writes something sensitive. */
export interface SensitiveLog {
  file: string;
  line: number;
  /** The call as written (up to three lines joined). */
  text: string;
  /** The sensitive words in its arguments, lower-cased (e.g. ["token"]). */
  terms: string[];
  /** The object keys it logs that look sensitive (what a redaction list would match). */
  keys: string[];
}

/**
 * Finds logging calls whose arguments (outside string literals) mention a token, password,
 * secret, session id or authorization header.
 *
 * @example scanSensitiveLogging([{ file: "a.ts", line: 3, text: 'logger.info("x", { token: s.token })' }])[0]?.terms // ["token"]
 */
export function scanSensitiveLogging(lines: SourceLine[]): SensitiveLog[] {
  const found: SensitiveLog[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i];
    if (!first || !LOG_CALL.test(stripStrings(first.text, first.file))) continue;
    // Join the call with its continuation lines until the parentheses balance (at most 3 lines).
    let joined = "";
    let depth = 0;
    for (let j = i; j < Math.min(lines.length, i + 3); j++) {
      const next = lines[j];
      if (!next || next.line !== first.line + (j - i)) break;
      joined += (j > i ? " " : "") + next.text.trim();
      for (const ch of stripStrings(next.text, next.file)) depth += ch === "(" ? 1 : ch === ")" ? -1 : 0;
      if (depth <= 0) break;
    }
    const code = stripStrings(joined, first.file);
    const call = LOG_CALL.exec(code);
    if (!call) continue;
    const args = code.slice(call.index + call[0].length);
    const terms = [...new Set([...args.matchAll(new RegExp(SENSITIVE.source, "gi"))].map((m) => m[0].toLowerCase()))];
    if (terms.length === 0) continue;
    const keys = [...args.matchAll(/([A-Za-z_$][\w$]*)\s*:|[{,]\s*([A-Za-z_$][\w$]*)\s*(?=[,}])/g)]
      .map((m) => m[1] ?? m[2] ?? "")
      .filter((k) => SENSITIVE.test(k));
    found.push({ file: first.file, line: first.line, text: joined, terms, keys });
  }
  return found;
}

/**
 * The keys a logging setup redacts: quoted strings in arrays named `redact*`/`censor*`/`mask*`
 * (pino's `redact`, a JSON `"redact": [...]`), last path segment, lower-cased.
 *
 * @example redactionKeys('const REDACT_PATHS = ["token", "req.headers.authorization"];') // Set { "token", "authorization" }
 */
export function redactionKeys(text: string): Set<string> {
  const keys = new Set<string>();
  for (const m of text.matchAll(
    /(?:redact|censor|mask)\w*["']?\s*[:=]\s*(?:\{[^}[]*?paths["']?\s*:\s*)?\[([^\]]*)\]/gi,
  )) {
    for (const s of (m[1] ?? "").matchAll(/["']([^"']+)["']/g)) {
      const last = (s[1] ?? "").split(".").pop() ?? "";
      if (last && last !== "*") keys.add(last.replace(/[[\]"']/g, "").toLowerCase());
    }
  }
  return keys;
}

/** True when every sensitive key the call logs is redacted, and it logs sensitive data only under keys. */
export function isRedacted(log: SensitiveLog, redacted: Set<string>): boolean {
  if (log.keys.length === 0) return false;
  const keysCovered = log.keys.every((k) => redacted.has(k.toLowerCase()));
  const termsCovered = log.terms.every((t) => [...redacted].some((r) => r.includes(t) || t.includes(r)));
  return keysCovered && termsCovered;
}
