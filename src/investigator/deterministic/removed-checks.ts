import { removedLines } from "../../domain/patch.js";
import { excerpt, stripStrings, type SourceLine } from "./tool-text.js";

type CheckKind = "expiry" | "signature" | "condition";

const EXPIRY = /\bexp\b|expir|\bttl\b|maxAge|notBefore|\bnbf\b/i;
const SIGNATURE = /verify\w*\s*\(|signature|\bhmac\b|timingSafeEqual/i;
const CONDITIONAL = /\bif\s*\(|\breturn\b|\bthrow\b|\?|&&|\|\||[<>]=?|verify\w*\s*\(|\bassert\w*\s*\(/;
const STOP = new Set([
  "null",
  "undefined",
  "true",
  "false",
  "typeof",
  "instanceof",
  "return",
  "this",
  "new",
  "length",
  "if",
]);

/** A check the PR removed, and where (if anywhere) the new code still makes it. */
export interface RemovedCheck {
  file: string;
  kind: CheckKind;
  /** The removed line, numbered in the base file. */
  removed: SourceLine;
  /** A line of the head snapshot that makes the same check, when one was found. */
  keptAt?: SourceLine;
}

function kindOf(code: string): CheckKind | undefined {
  if (EXPIRY.test(code) && CONDITIONAL.test(code)) return "expiry";
  if (SIGNATURE.test(code)) return "signature";
  if (/\bif\s*\(/.test(code)) return "condition";
  return undefined;
}

function conditionKeys(code: string): string[] {
  const cond = /\bif\s*\((.*)\)/.exec(code)?.[1] ?? code;
  return [...new Set([...cond.matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => m[0]))].filter(
    (k) => k.length >= 3 && !STOP.has(k),
  );
}

function makesCheck(kind: CheckKind, removedCode: string, line: SourceLine): boolean {
  const code = stripStrings(line.text, line.file);
  if (!CONDITIONAL.test(code)) return false;
  if (kind === "expiry") return EXPIRY.test(code);
  if (kind === "signature") return SIGNATURE.test(code) && /\bif\s*\(|verify\w*\s*\(/.test(code);
  if (!/\bif\s*\(|\?|&&|\|\||\bassert\w*\s*\(/.test(code)) return false;
  const keys = conditionKeys(removedCode);
  return (
    keys.length > 0 && keys.every((k) => new RegExp(`(^|[^\\w$])${k.replace(/\$/g, "\\$")}([^\\w$]|$)`).test(code))
  );
}

/**
 * Compares the checks a file's patch removed (an `if`, an expiry test, a `verify(…)` or signature
 * check) with the head snapshot's lines (the file itself and the helpers it calls): each removed
 * check is either kept somewhere (with the line) or missing.
 *
 * @example removedChecks("src/auth/session.ts", patch, headLines)[0]?.keptAt?.line // 17
 */
export function removedChecks(file: string, patch: string | undefined, head: SourceLine[]): RemovedCheck[] {
  const out: RemovedCheck[] = [];
  const seenKinds = new Set<string>();
  for (const del of removedLines(patch)) {
    const code = stripStrings(del.text, file);
    const kind = kindOf(code);
    if (!kind) continue;
    const key = kind === "condition" ? `condition:${conditionKeys(code).join(",")}` : kind;
    if (seenKinds.has(key)) continue;
    seenKinds.add(key);
    const keptAt = head.find((l) => makesCheck(kind, code, l));
    out.push({
      file,
      kind,
      removed: { file, line: del.line, text: excerpt(del.text) },
      ...(keptAt ? { keptAt: { ...keptAt, text: excerpt(keptAt.text) } } : {}),
    });
  }
  return out;
}

/**
 * Lines that make an expiry or signature check (a condition on an expiry, a `verify…(` call, a
 * signature comparison): the positive evidence that code which removed no check still checks.
 *
 * @example checksMadeIn([{ file: "a.ts", line: 3, text: "if (!verifySignature(t, s)) return null;" }]).length // 1
 */
export function checksMadeIn(lines: SourceLine[]): SourceLine[] {
  return lines
    .filter((l) => {
      const code = stripStrings(l.text);
      return (
        CONDITIONAL.test(code) &&
        (EXPIRY.test(code) || SIGNATURE.test(code)) &&
        /\bif\s*\(|verify\w*\s*\(|\bassert|\bthrow\b|\breturn\b/.test(code)
      );
    })
    .map((l) => ({ ...l, text: excerpt(l.text) }));
}
