import type { ChangedFile } from "../../domain/pull-request.js";
import { parsePatch } from "../../domain/patch.js";
import { callSites } from "../code/call-sites.js";
import { headText } from "../code/head-text.js";
import { grammarReader, syntaxOfPatch } from "../code/syntax-tree.js";
import { FIRST_GRAMMARS } from "../code/grammars.js";
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
const AUTH_LINE = new RegExp(
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
const AUTH_LINE_WORDS =
  /jwt|jsonwebtoken|jose|bcrypt|argon2|passport|auth|verify|session|expires|maxage|password|login|permission|role|isadmin|bearer|csrf|httponly|samesite|algorithms|ignoreexpiration/i;

/**
 * Calls (callee as written, whitespace removed) that verify a signature, HMAC or token, issue a
 * session or cookie, or hash and check passwords, in JavaScript/TypeScript, Python and Go. Read
 * from the syntax tree, so a mention in a comment or a string is not a call.
 */
export const AUTH_CALL = new RegExp(
  [
    // Tokens and JWTs: jsonwebtoken, jose, PyJWT, python-jose, golang-jwt.
    String.raw`(^|\.)(jwt|jsonwebtoken|jose|jws|jwe)\.(sign|verify|decode|encode|Parse\w*|New\w*|Sign\w*)$`,
    String.raw`(^|\.)(jwtVerify|jwtDecrypt|SignJWT|verifyIdToken|verifyAccessToken|verifyToken|verifyJwt|decodeJwt|ParseWithClaims|NewWithClaims|SignedString)$`,
    // Signatures and HMACs.
    String.raw`(^|\.)(createHmac|createVerify|createSign|timingSafeEqual|compare_digest|ConstantTimeCompare|verifySignature|verify_signature|checkSignature)$`,
    String.raw`(^|\.)hmac\.(new|New|Equal|digest|HMAC)$`,
    String.raw`(^|\.)(ed25519|ecdsa|rsa)\.(Verify\w*|Sign\w*)$`,
    String.raw`^crypto\.(verify|sign)$|^crypto\.subtle\.(verify|sign)$`,
    // Password hashing and checking.
    String.raw`(^|\.)(bcrypt|bcryptjs|argon2|scrypt|pbkdf2|passlib|PasswordHasher\(\))\.\w+$`,
    String.raw`(^|\.)(hashpw|checkpw|pbkdf2_hmac|pbkdf2Sync|pbkdf2|scryptSync|scrypt|IDKey|GenerateFromPassword|CompareHashAndPassword|generate_password_hash|check_password_hash|make_password|check_password|set_password|hashPassword|hash_password|verifyPassword|verify_password|comparePassword)$`,
    // Sessions and cookies.
    String.raw`(^|\.)(res|resp|response|reply|ctx|c|w)\.(cookie|set_cookie|set_signed_cookie|setCookie|SetCookie|clearCookie|delete_cookie)$`,
    String.raw`(^|\.)cookies(\(\))?\.set$|^http\.SetCookie$|(^|\.)(NewCookieStore|NewFilesystemStore|login_user|logout_user|authenticate|regenerate)$`,
    String.raw`(^|\.)session\.(regenerate|destroy|save|Save|Values|set)$|^(express-session|session|cookieSession|expressSession)$`,
    String.raw`(^|\.)passport\.(authenticate|use|serializeUser|deserializeUser)$|(^|\.)(URLSafeTimedSerializer|TimestampSigner|Signer)$|(^|\.)signing\.(dumps|loads)$`,
  ].join("|"),
);

/**
 * A word (any case) that every callee `AUTH_CALL` matches contains: a callee is a piece of the
 * parsed text, so a file whose text has none of them has no authentication call to find.
 */
export const AUTH_CALL_WORDS =
  /jwt|jsonwebtoken|jose|jws|jwe|verify|sign|withclaims|serializer|hmac|timingsafeequal|compare_digest|constanttimecompare|bcrypt|argon2|scrypt|pbkdf2|passlib|passwordhasher|hashpw|checkpw|idkey|password|cookie|filesystemstore|login_user|logout_user|authenticate|regenerate|session|passport/i;

/** The same behaviour read from the added lines of files no grammar here parses (Ruby, Java, ...). */
const AUTH_WORD_UNPARSED =
  /\b(hmac|HMAC|Hmac)\b|\bOpenSSL::HMAC|\bset_cookie\b|\bSetCookie\b|\bcookies\.signed\b|\bpbkdf2|\bscrypt\b|\bsecure_compare\b|\bhas_secure_password\b|\bMessageDigest\.isEqual\b|\bJwts\.|\bBCrypt/;

/** Authentication calls that this patch adds, at their head lines. */
function authCalls(file: ChangedFile): Array<{ line: number; call: string }> {
  if (!LANGUAGES.languageOf(file)) {
    return parsePatch(file.patch)
      .filter((l) => l.kind === "add")
      .flatMap((l) => {
        const m = AUTH_WORD_UNPARSED.exec(l.text);
        return m ? [{ line: l.line, call: m[0] }] : [];
      });
  }
  // The tree is read only when the text names a call it could find.
  const text = headText(file).text;
  const auth = precheck(AUTH_CALL_WORDS.test(text));
  const crypto = precheck(mayCallCrypto(text));
  const syntax = auth || crypto ? syntaxOfPatch(file) : undefined;
  if (!syntax) return [];
  const out: Array<{ line: number; call: string }> = [];
  for (const call of auth ? callSites(syntax, AUTH_CALL) : []) {
    if (!syntax.isAdded(call.row)) continue;
    const line = syntax.lineAt(call.row);
    if (line !== undefined) out.push({ line, call: call.callee });
  }
  // A password hashed with a fast hash is password hashing too (and weak: SEC-05 says so).
  for (const c of crypto ? cryptoCalls(syntax) : []) {
    const line = syntax.lineAt(c.row);
    if (c.kind === "fast-hash-password" && line !== undefined) out.push({ line, call: c.call });
  }
  return out.sort((a, b) => a.line - b.line);
}

function pathWords(path: string): string[] {
  return path
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s/._-]+/)
    .filter((w) => w.length > 0);
}

/** The first changed line that matters, numbered in the head file (a removal: where it was). */
function firstChangedLine(file: ChangedFile, onlyAuthLines: boolean): { line?: number; hits: string[] } {
  // In a parsed language only code counts: a mention in a comment or a string is not a change of behaviour.
  const lang = LANGUAGES.reads(file) ? codeLanguage(file.filename) : undefined;
  // Lines are read one by one only when the patch has a word some alternative of AUTH_LINE needs.
  const text = file.patch === undefined ? undefined : lang ? withCommentsJoined(file.patch, lang) : file.patch;
  const mayHit = precheck(text !== undefined && AUTH_LINE_WORDS.test(text));
  if (!mayHit && onlyAuthLines) return { hits: [] };
  const lines = parsePatch(file.patch);
  let lastHead = 0;
  let first: number | undefined;
  const hits = new Set<string>();
  lines.forEach((l, i) => {
    if (l.kind !== "del") lastHead = l.line;
    if (l.kind === "context") return;
    const match = mayHit ? AUTH_LINE.exec(lang ? sanitizeCode(l.text, lang) : l.text) : null;
    if (match) hits.add(match[0].trim());
    if (first !== undefined || (onlyAuthLines && !match)) return;
    if (l.kind === "add") first = l.line;
    else first = lines.slice(i + 1).find((n) => n.kind !== "del")?.line ?? lastHead + 1;
  });
  return { ...(first !== undefined ? { line: Math.max(1, first) } : {}), hits: [...hits].slice(0, 4) };
}

/** The languages this detector reads by what the code does. */
const LANGUAGES = grammarReader(FIRST_GRAMMARS);

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
