import type { ChangedFile } from "../../domain/pull-request.js";
import { parsePatch } from "../../domain/patch.js";
import type { SgNode } from "@ast-grep/napi";
import { callSites } from "../code/call-sites.js";
import { headText } from "../code/head-text.js";
import { grammarReader, type PatchSyntax, syntaxLanguageOf, syntaxOfPatch } from "../code/syntax-tree.js";
import { ALL_GRAMMARS, GRAMMARS } from "../code/grammars.js";
import { AUTH_RULES, type AuthRules } from "./auth-rules.js";
import { matchesCall, matchesValue, mayMatchCallee, nodesOfKinds, targetAndValue, targetName } from "./call-rules.js";
import { type CodeLanguage, codeLanguage, sanitizeCode, withCommentsJoined } from "../code-lines.js";
import { cryptoCalls, mayCallCrypto } from "./crypto-calls.js";
import type { Detector } from "../detector.js";
import type { Finding } from "../../domain/finding.js";
import { isDocPath, isTestPath } from "./file-kind.js";
import { securityFinding } from "./security-finding.js";
import { precheck } from "../precheck.js";

/** Path words (split on `/ . _ -` and camelCase) that name authentication or session code. */
const AUTH_PATH_WORDS = new Set([
  "auth",
  "authn",
  "authz",
  "authentication",
  "authorization",
  "authorize",
  "authenticate",
  "session",
  "sessions",
  "login",
  "logout",
  "signin",
  "passport",
  "jwt",
  "oauth",
  "oauth2",
  "oidc",
  "saml",
  "sso",
  "password",
  "passwords",
  "credential",
  "credentials",
  "permission",
  "permissions",
  "rbac",
  "acl",
  "csrf",
  "mfa",
  "totp",
  "2fa",
]);

/**
 * Changed lines that make an authentication or authorization decision: token and signature
 * checks, password hashing, login, session validation settings, guards, role checks, CSRF. Using a
 * cookie or a session (reading one, setting one, storing a value in one) is not among them.
 */
export const AUTH_LINE = new RegExp(
  [
    String.raw`\bjwt\.|jsonwebtoken|\bjose\b|\bbcrypt|\bargon2|\bpassport\.|\bisAuthenticated\b|\bIsAuthenticated\b`,
    String.raw`\brequireAuth|\bensureAuth|\bauthenticate\w*\s*\(|\bauthorize\w*\s*\(`,
    String.raw`\bverify(Token|Jwt|JWT|Password|Signature|Session|IdToken)\b|\.verify\s*\(`,
    String.raw`\b(ConstantTimeCompare|timingSafeEqual|compare_digest|secure_compare|hash_equals|FixedTimeEquals|CompareHashAndPassword|password_verify|checkpw|MessageDigest\.isEqual|hmac\.Equal)\s*\(`,
    String.raw`\bexpress-session|cookie-session|\bsession\.(regenerate|destroy)\b|\bSESSION_SECRET\b|\bsession\s*\(\s*\{`,
    String.raw`\bexpires_?in\b|\bexpiresIn\b`,
    String.raw`\b(check|compare|hash|verify)_?[Pp]assword|\bpassword_hash\b|@login_required|@requires_auth`,
    String.raw`permission_classes|\bhasRole\b|\brequireRole\b|\bisAdmin\b|headers\.authorization|\bBearer\s`,
    String.raw`\b(csrf|xsrf)\w*|\w(CSRF|Csrf|XSRF)\w*|\balgorithms\s*[:=]|ignoreExpiration|\bnoAuth\b|\bskipAuth\b`,
  ].join("|"),
  "i",
);

/** A word (any case) that every alternative of `AUTH_LINE` needs. */
export const AUTH_LINE_WORDS =
  /jwt|jsonwebtoken|jose|bcrypt|argon2|passport|auth|verify|session|expires|password|login_required|permission|role|isadmin|bearer|csrf|xsrf|algorithms|ignoreexpiration|constanttimecompare|timingsafeequal|compare_digest|secure_compare|hash_equals|fixedtimeequals|checkpw|isequal|hmac/i;

export { AUTH_CALL, AUTH_CALL_WORDS } from "./auth-rules.js";

/** The same behaviour read from the added lines of files no grammar here parses (Scala, Swift, Elixir, ...). */
const AUTH_WORD_UNPARSED =
  /\b(hmac|HMAC|Hmac)\b|\bOpenSSL::HMAC|\bpbkdf2|\bscrypt\b|\bsecure_compare\b|\bhas_secure_password\b|\bMessageDigest\.isEqual\b|\bJwts\.|\bBCrypt/;

/** Authentication calls that this patch adds, at their head lines. */
function authCalls(file: ChangedFile): Array<{ line: number; call: string }> {
  const lang = LANGUAGES.languageOf(file);
  if (!lang) {
    return parsePatch(file.patch)
      .filter((l) => l.kind === "add")
      .flatMap((l) => {
        const m = AUTH_WORD_UNPARSED.exec(l.text);
        return m ? [{ line: l.line, call: m[0] }] : [];
      });
  }
  // The tree is read only when the text names something it could find.
  const rules = AUTH_RULES[lang];
  const text = headText(file).text;
  const auth = precheck(rules.words.test(text));
  const crypto = precheck(mayCallCrypto(text, lang));
  const syntax = auth || crypto ? syntaxOfPatch(file) : undefined;
  if (!syntax) return [];
  const out: Array<{ line: number; call: string }> = [];
  const at = (row: number, call: string) => {
    const line = syntax.lineAt(row);
    if (line !== undefined) out.push({ line, call });
  };
  if (auth) for (const found of ruleFindings(syntax, rules, text)) at(found.row, found.call);
  // A password hashed with a fast hash is password hashing too (and weak: SEC-05 says so).
  for (const c of crypto ? cryptoCalls(syntax) : []) if (c.kind === "fast-hash-password") at(c.row, c.call);
  return out.sort((a, b) => a.line - b.line);
}

/** What the grammar's rules find on added rows: calls, values, attributes, statements. */
function ruleFindings(syntax: PatchSyntax, rules: AuthRules, text: string): Array<{ row: number; call: string }> {
  const out: Array<{ row: number; call: string }> = [];
  // The callee decides first: a call no rule's callee can match is never read further.
  for (const call of callSites(syntax, (c) => rules.calls.some((r) => mayMatchCallee(r, c)))) {
    const candidate = rules.calls.filter((r) => mayMatchCallee(r, call));
    if (!syntax.isAdded(call.row)) continue;
    if (candidate.some((r) => matchesCall(r, call, text))) out.push({ row: call.row, call: call.callee });
  }
  const values = rules.values.length > 0 && (!rules.valueWords || precheck(rules.valueWords.test(text)));
  for (const node of values ? nodesOfKinds(syntax.root, rules.valueKinds) : []) {
    const row = node.range().start.line;
    if (!syntax.isAdded(row) || !rules.values.some((r) => matchesValue(r, node))) continue;
    out.push({ row, call: collapsed(node.text()) });
  }
  const attributes = rules.attributes && (!rules.attributeWords || precheck(rules.attributeWords.test(text)));
  for (const node of attributes ? nodesOfKinds(syntax.root, rules.attributeKinds) : []) {
    const row = node.range().start.line;
    const name = attributeName(node);
    if (syntax.isAdded(row) && rules.attributes?.test(name)) out.push({ row, call: `[${name}]` });
  }
  const statements = rules.statements;
  if (statements) {
    const family = GRAMMARS[syntax.lang].family;
    text.split("\n").forEach((line, row) => {
      if (!syntax.isAdded(row) || !precheck(statements.test(line))) return;
      const m = statements.exec(sanitizeCode(line, family));
      if (m) out.push({ row, call: m[0].trim() });
    });
  }
  return out;
}

const collapsed = (text: string): string => text.replace(/\s+/g, " ").trim();

/** `AllowAnonymous` of `[AllowAnonymous]`, `PreAuthorize` of `@PreAuthorize("…")`. */
function attributeName(node: SgNode): string {
  const name = node.field("name") ?? targetAndValue(node)?.target;
  const text = (name ?? node).text().replace(/^@/, "");
  return targetName({ text: () => /^[\w.]+/.exec(text)?.[0] ?? text } as SgNode);
}

function pathWords(path: string): string[] {
  return path
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s/._-]+/)
    .filter((w) => w.length > 0);
}

/** A changed line of a patch, numbered in the head file (a removal: where it was). */
interface Changed {
  kind: "add" | "del";
  text: string;
  /** The line's code, strings and comments dropped (the text itself for a file no grammar reads). */
  code: string;
  line: number;
}

/** The changed lines of a patch, each numbered in the head file (a removal: the head line after it). */
function changedLines(file: ChangedFile, lang: CodeLanguage | undefined): Changed[] {
  const lines = parsePatch(file.patch);
  const out: Changed[] = [];
  let lastHead = 0;
  lines.forEach((l, i) => {
    if (l.kind !== "del") lastHead = l.line;
    if (l.kind === "context" || l.text.trim() === "") return;
    const line = l.kind === "add" ? l.line : (lines.slice(i + 1).find((n) => n.kind !== "del")?.line ?? lastHead + 1);
    out.push({ kind: l.kind, text: l.text, code: lang ? sanitizeCode(l.text, lang) : l.text, line: Math.max(1, line) });
  });
  return out;
}

/**
 * The guard a changed line declares or branches on (`@PreAuthorize`, `requireAuth` among a route's
 * handlers, `if (!user.isAdmin)`), or undefined.
 */
function guardOf(l: Changed, rules: AuthRules, authPath: boolean): string | undefined {
  return (rules.guards?.exec(l.text) ??
    rules.conditions.exec(l.code) ??
    (authPath ? BRANCH.exec(l.code) : null))?.[0].trim();
}

/** A branch: in authentication code (by its path), any branch is a check of who may do what. */
const BRANCH = /^\s*(}\s*)?(else\s+if|if|elif|elsif|unless|guard)\b[^\n]*/;

/**
 * The decisions a patch changes, line by line: each hit names what it found, at the first line
 * where one is. A guard only added, and an exemption only removed, harden the code and are no hit;
 * a guard removed or changed (its line not found again among the added ones) is.
 */
function changedDecisions(file: ChangedFile, authPath: boolean): { line?: number; hits: string[] } {
  if (file.patch === undefined) return { hits: [] };
  const read = LANGUAGES.reads(file);
  // In a parsed language only code counts: a mention in a comment or a string is not a change of behaviour.
  const lang = read ? codeLanguage(file.filename) : undefined;
  const grammar = syntaxLanguageOf(file.filename);
  const rules = grammar && read ? AUTH_RULES[grammar] : undefined;
  const text = lang ? withCommentsJoined(file.patch, lang) : file.patch;
  const patch = file.patch;
  // Lines are read one by one only when the patch has a word some rule needs.
  const mayHit = precheck(AUTH_LINE_WORDS.test(text));
  const list = rules?.exemptionList?.fileText.test(patch) ? rules.exemptionList : undefined;
  const mayDecide =
    rules !== undefined &&
    precheck(
      list !== undefined ||
        PASSWORD_WORD.test(text) ||
        authPath ||
        (rules.conditionWords.test(text) && rules.conditions.test(text)) ||
        [rules.guards, rules.hardening].some((r) => r !== undefined && everyLine(r).test(linesOf(file))),
    );
  if (!mayHit && !mayDecide) return { hits: [] };
  const lines = changedLines(file, lang);
  // A guard line removed and added again unchanged (moved, re-indented) is no change to it.
  const guards = new Map<Changed, string>();
  const unpaired = new Map<string, number>();
  if (rules && mayDecide) {
    for (const l of lines) {
      const guard = guardOf(l, rules, authPath);
      if (guard === undefined) continue;
      guards.set(l, guard);
      const key = l.text.trim();
      unpaired.set(key, (unpaired.get(key) ?? 0) + (l.kind === "del" ? 1 : -1));
    }
  }
  const removedGuard = (l: Changed) => (unpaired.get(l.text.trim()) ?? 0) > 0;
  let inList = false;
  let first: number | undefined;
  const hits = new Set<string>();
  // Walk the raw patch for the exemption list's bounds, which context lines open and close too.
  const entries = new Set<number>();
  if (list) {
    let row = 0;
    for (const l of parsePatch(patch)) {
      const opens = list.open.test(l.text);
      const closes = list.close.test(l.text);
      const entry = inList && !opens && !closes;
      // `$except = [];` or `= ['a'];` opens and closes on one line: no entry follows.
      if (opens) inList = !closes;
      else if (inList && closes) inList = false;
      if (l.kind !== "context" && l.text.trim() !== "") {
        if (entry) entries.add(row);
        row++;
      }
    }
  }
  lines.forEach((l, row) => {
    const entry = entries.has(row);
    // Removing an exemption (`skip_forgery_protection`, `.csrf().disable()`, an entry of Laravel's
    // `$except`, `@csrf_exempt`) is hardening, not a change to review.
    if (l.kind === "del" && (rules?.hardening?.test(l.text) || entry)) return;
    let match: string | undefined;
    const guard = guards.get(l);
    if (rules && guard !== undefined) {
      if (l.kind === "del") match = removedGuard(l) ? `removed ${guard}` : undefined;
      // Added, a guard hardens, unless it is switched off in place (`|| true`) or compares a password.
      else if (rules.weakened.test(l.code)) match = `weakened ${guard}`;
      else if (rules.passwordCompare.test(l.code)) match = "password compared";
    } else if (l.kind === "add" && entry && list) match = `added ${list.what}`;
    else {
      match =
        (mayHit ? AUTH_LINE.exec(l.code)?.[0] : undefined) ??
        (rules && mayDecide && rules.passwordCompare.test(l.code) ? "password compared" : undefined) ??
        (rules && mayDecide && rules.passwordRead.test(l.text) ? "password read from the request" : undefined);
    }
    if (match === undefined) return;
    hits.add(match.trim());
    first ??= l.line;
  });
  return { ...(first !== undefined ? { line: first } : {}), hits: [...hits].slice(0, 4) };
}

/** A word every password rule needs. */
const PASSWORD_WORD = /passw|pwd/i;

const MULTILINE = new WeakMap<RegExp, RegExp>();

/** A line rule read over a whole text at once: its `^` and `$` hold at every line. */
function everyLine(rule: RegExp): RegExp {
  let m = MULTILINE.get(rule);
  if (!m) {
    m = new RegExp(rule.source, rule.flags.includes("m") ? rule.flags : `${rule.flags}m`);
    MULTILINE.set(rule, m);
  }
  return m;
}

const BODIES = new WeakMap<ChangedFile, string>();

/** A patch's lines without their diff markers, as the line rules read them. */
function linesOf(file: ChangedFile): string {
  let body = BODIES.get(file);
  if (body === undefined) {
    body = (file.patch ?? "").replace(/^[-+ ]/gm, "");
    BODIES.set(file, body);
  }
  return body;
}

/** The languages this detector reads by what the code does. */
const LANGUAGES = grammarReader(ALL_GRAMMARS);

/**
 * SEC-03: a change to authentication or session handling (by path, or by what the changed lines
 * touch). One finding per file, high, blocking, `needs_more_context: true`: whether a check was
 * weakened usually shows only in the surrounding code. Tests and docs are skipped.
 *
 * @example await authChangeDetector.detect(ctx) // [{ policy: "SEC-03", needs_more_context: true, ... }]
 */
export const authChangeDetector: Detector = {
  id: "auth-change",
  policies: ["SEC-03"],
  covers: ["code"],
  reads: LANGUAGES.reads,
  async detect(ctx) {
    const findings: Finding[] = [];
    for (const file of ctx.pr.files) {
      if (isTestPath(file.filename) || isDocPath(file.filename)) continue;
      const paths = [file.filename, ...(file.previousFilename ? [file.previousFilename] : [])];
      // A file read by what its code does needs a changed decision; the path speaks only for the rest.
      const unread = !LANGUAGES.reads(file) || file.patch === undefined;
      const authPath = paths.some((p) => pathWords(p).some((w) => AUTH_PATH_WORDS.has(w)));
      const byPath = unread && authPath;
      // On an authentication path, a branch removed or changed is a check removed or changed.
      const byLine = changedDecisions(file, authPath);
      const calls = authCalls(file);
      const hits = [
        ...new Set([...byLine.hits, ...calls.map((c) => (/^[\w.$]+$/.test(c.call) ? `${c.call}(` : c.call))]),
      ].slice(0, 4);
      if (!byPath && hits.length === 0) continue;
      const lines = [byLine.line, ...(byPath ? [] : calls.map((c) => c.line))].filter(
        (l): l is number => l !== undefined,
      );
      const line = lines.length > 0 ? Math.min(...lines) : undefined;
      const what = byPath
        ? `${file.filename} is authentication/session code`
        : `${file.filename} changes an authentication or authorization decision (${hits.join(", ")})`;
      findings.push(
        securityFinding({
          policy: "SEC-03",
          detector: "auth-change",
          severity: "high",
          blocking: true,
          needsMoreContext: true,
          file: file.filename,
          ...(line !== undefined ? { line } : {}),
          message:
            `${what}${file.status === "removed" ? " and is removed" : ""}. Check in the surrounding code that no ` +
            "check was weakened (token or signature verification skipped, expiry lengthened, algorithm or " +
            "audience relaxed, a route left unprotected, password hashing changed) and that no token, " +
            "password or secret is logged.",
        }),
      );
    }
    return findings;
  },
};
