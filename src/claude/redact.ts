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
  {
    rule: "private-key",
    regex:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*$)/g,
  },
];

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
 * (`findSecrets`) reports, everywhere it occurs, plus a few provider formats (AWS, GitHub, Slack,
 * Stripe, Anthropic keys, PEM private key blocks). Each becomes `[REDACTED:<rule>]`.
 *
 * @example (await redact("key = AKIAABCDEFGHIJKLMNOP")).text // "key = [REDACTED:aws:AWSAccessKeyID]"
 */
export async function redact(text: string): Promise<Redacted> {
  if (text === "") return { text, count: 0 };
  const spans: Span[] = [];
  for (const secret of await findSecrets(text)) {
    if (secret.value === "") continue;
    if (secret.value.length < SHORT_VALUE) spans.push(...onLine(text, secret.value, secret.line, secret.rule));
    else spans.push(...everywhere(text, secret.value, secret.rule));
  }
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
