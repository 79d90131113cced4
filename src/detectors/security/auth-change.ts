import type { ChangedFile } from "../../domain/pull-request.js";
import { parsePatch } from "../../domain/patch.js";
import type { SgNode } from "@ast-grep/napi";
import { callSites } from "../code/call-sites.js";
import { headText } from "../code/head-text.js";
import { grammarReader, type PatchSyntax, syntaxLanguageOf, syntaxOfPatch } from "../code/syntax-tree.js";
import { ALL_GRAMMARS, GRAMMARS } from "../code/grammars.js";
import { AUTH_RULES, type AuthRules } from "./auth-rules.js";
import { matchesCall, matchesValue, mayMatchCallee, nodesOfKinds, targetAndValue, targetName } from "./call-rules.js";
import { codeLanguage, sanitizeCode, withCommentsJoined } from "../code-lines.js";
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

/** Changed lines that touch token checks, sessions, password hashing or route guards. */
export const AUTH_LINE = new RegExp(
  [
    String.raw`\bjwt\.|jsonwebtoken|\bjose\b|\bbcrypt|\bargon2|\bpassport\.|\bisAuthenticated\b|\bIsAuthenticated\b`,
    String.raw`\brequireAuth|\bensureAuth|\bauthenticate\w*\s*\(|\bauthorize\w*\s*\(`,
    String.raw`\bverify(Token|Jwt|JWT|Password|Signature|Session|IdToken)\b|\.verify\s*\(`,
    String.raw`\b(req|request)\.session\b|\bexpress-session|cookie-session|\bsession\.(regenerate|destroy|cookie)\b`,
    String.raw`\bsession_?(id|token|secret|cookie)\b|\bSESSION_(SECRET|COOKIE|TTL)|\bexpires_?in\b|\bexpiresIn\b`,
    String.raw`\bmaxAge\b.*(session|cookie)|\b(session|cookie)\b.*\bmaxAge\b|\bsession\s*\(\s*\{`,
    String.raw`\b(check|compare|hash|verify)_?[Pp]assword|\bpassword_hash\b|@login_required|@requires_auth`,
    String.raw`permission_classes|\bhasRole\b|\brequireRole\b|\bisAdmin\b|headers\.authorization|\bBearer\s`,
    String.raw`\bcsrf\b|\bhttpOnly\b|\bsameSite\b|\balgorithms\s*[:=]|ignoreExpiration|\bnoAuth\b|\bskipAuth\b`,
  ].join("|"),
  "i",
);

/** A word (any case) that every alternative of `AUTH_LINE` needs. */
export const AUTH_LINE_WORDS =
  /jwt|jsonwebtoken|jose|bcrypt|argon2|passport|auth|verify|session|expires|maxage|password|login_required|permission|role|isadmin|bearer|csrf|httponly|samesite|algorithms|ignoreexpiration/i;

export { AUTH_CALL, AUTH_CALL_WORDS } from "./auth-rules.js";

/** The same behaviour read from the added lines of files no grammar here parses (Scala, Swift, Elixir, ...). */
const AUTH_WORD_UNPARSED =
  /\b(hmac|HMAC|Hmac)\b|\bOpenSSL::HMAC|\bset_cookie\b|\bSetCookie\b|\bcookies\.signed\b|\bpbkdf2|\bscrypt\b|\bsecure_compare\b|\bhas_secure_password\b|\bMessageDigest\.isEqual\b|\bJwts\.|\bBCrypt/;

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

/** The first changed line that matters, numbered in the head file (a removal: where it was). */
function firstChangedLine(
  file: ChangedFile,
  onlyAuthLines: boolean,
): { line?: number; hits: string[]; onlyHardening?: boolean } {
  // In a parsed language only code counts: a mention in a comment or a string is not a change of behaviour.
  const lang = LANGUAGES.reads(file) ? codeLanguage(file.filename) : undefined;
  const grammar = syntaxLanguageOf(file.filename);
  const rules = grammar && LANGUAGES.reads(file) ? AUTH_RULES[grammar] : undefined;
  // Lines are read one by one only when the patch has a word some alternative of AUTH_LINE needs.
  const text = file.patch === undefined ? undefined : lang ? withCommentsJoined(file.patch, lang) : file.patch;
  const mayHit = precheck(text !== undefined && AUTH_LINE_WORDS.test(text));
  // A removed guard is read by its own rule, whatever words the patch has.
  if (!mayHit && onlyAuthLines && !rules?.removedGuards) return { hits: [] };
  const lines = parsePatch(file.patch);
  let lastHead = 0;
  let first: number | undefined;
  const hits = new Set<string>();
  const list = rules?.exemptionList?.fileText.test(file.patch ?? "") ? rules.exemptionList : undefined;
  let inList = false;
  // Whether every changed line drops an exemption (a change that only hardens is no change to review).
  let hardening = 0;
  let other = 0;
  lines.forEach((l, i) => {
    if (l.kind !== "del") lastHead = l.line;
    const opens = list?.open.test(l.text) === true;
    const closes = list?.close.test(l.text) === true;
    const entry = inList && !opens && !closes;
    // `$except = [];` or `= ['a'];` opens and closes on one line: no entry follows.
    if (opens) inList = !closes;
    else if (inList && closes) inList = false;
    if (l.kind === "context") return;
    if (l.text.trim() === "") return;
    // Removing an exemption (`skip_forgery_protection`, `.csrf().disable()`, an entry of Laravel's
    // `$except`) is hardening, not a change to review.
    if (l.kind === "del" && (rules?.hardening?.test(l.text) || entry)) {
      hardening++;
      return;
    }
    other++;
    const added = l.kind === "add" && entry && list ? `added ${list.what}` : undefined;
    const guard = l.kind === "del" ? rules?.removedGuards?.exec(l.text) : null;
    const match = added ?? (guard ?? (mayHit ? AUTH_LINE.exec(lang ? sanitizeCode(l.text, lang) : l.text) : null))?.[0];
    if (match !== undefined) hits.add(guard ? `removed ${match.trim()}` : match.trim());
    if (first !== undefined || (onlyAuthLines && match === undefined)) return;
    if (l.kind === "add") first = l.line;
    else first = lines.slice(i + 1).find((n) => n.kind !== "del")?.line ?? lastHead + 1;
  });
  return {
    ...(first !== undefined ? { line: Math.max(1, first) } : {}),
    hits: [...hits].slice(0, 4),
    onlyHardening: hardening > 0 && other === 0,
  };
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
      const byPath = paths.some((p) => pathWords(p).some((w) => AUTH_PATH_WORDS.has(w)));
      const byLine = firstChangedLine(file, !byPath);
      // A change that only drops exemptions hardens the code, on an authentication path too.
      if (byLine.onlyHardening) continue;
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
        : `${file.filename} changes authentication/session handling (${hits.join(", ")})`;
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
