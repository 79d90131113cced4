import { headText } from "../code/head-text.js";
import { grammarReader, syntaxOfPatch } from "../code/syntax-tree.js";
import { FIRST_GRAMMARS } from "../code/grammars.js";
import type { Detector } from "../detector.js";
import { cryptoCalls, type CryptoCall, mayCallCrypto } from "./crypto-calls.js";
import { CODE_LANGUAGES, codeLineDetector } from "./line-detector.js";
import { matchLineRules, type LineRule } from "./line-rules.js";
import { precheck } from "../precheck.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import type { SyntaxLanguage } from "../code/grammars.js";
import { NO_PROPERTIES, type PropertyValues, weakAlgorithms } from "./algorithm-value.js";
import { CRYPTO_RULES } from "./crypto-rules.js";
import { propertiesOfReview } from "./properties-files.js";
import { isInnocentName } from "./random-flow.js";

/** Names that say a random value must be unguessable. */
const SECRET_PURPOSE_WORD = /token|secret|passw|nonce|otp|salt|session|invite|reset|verif|code|key|uuid|guid|csrf|api/i;
/** Case matters here: `userId`, `user_id`, `id`, `ID`, but not `valid` or `paid`. */
const ID_WORD = /\b(id|ID)\b|[a-z0-9]Id\b|_(id|ID)\b/;
const SECRET_PURPOSE = { test: (text: string) => SECRET_PURPOSE_WORD.test(text) || ID_WORD.test(text) };

const RULES: readonly LineRule[] = [
  {
    id: "weak-hash",
    test: (line) =>
      (/createHash\s*\(\s*["'`](md5|md4|sha1|sha-1|ripemd160)["'`]/i.test(line) ||
        /\bhashlib\.(md5|sha1|new\s*\(\s*["'](md5|sha1)["'])/i.test(line) ||
        /MessageDigest\.getInstance\s*\(\s*"(MD5|SHA-?1)"/i.test(line) ||
        /\b(CryptoJS\.(MD5|SHA1)|DigestUtils\.(md5|sha1)\w*|md5|sha1)\s*\(/.test(line) ||
        /from\s+["']crypto-js\/(md5|sha1)["']|require\(\s*["'](md5|sha1|crypto-js\/md5)["']\s*\)/.test(line)) &&
      !/usedforsecurity\s*=\s*False/.test(line),
    message:
      "MD5/SHA-1 used: both are broken for security (collisions, fast brute force). For integrity or " +
      "tokens use SHA-256 or better; for passwords use bcrypt, scrypt or argon2. Fine only for non-security checksums.",
  },
  {
    id: "ecb-mode",
    test: (line) =>
      /\b(aes|des|bf|blowfish)-\d*-?ecb\b|\bMODE_ECB\b|\/ECB\/|\bmode\s*:\s*CryptoJS\.mode\.ECB|\bECB\b\s*\(/i.test(
        line,
      ),
    message:
      "ECB cipher mode: identical plaintext blocks give identical ciphertext. Use an AEAD mode (AES-GCM) with a random IV.",
  },
  {
    id: "fixed-iv-or-salt",
    test: (line) =>
      /(?:\b(?:\w+_)?(?:iv|IV|nonce|NONCE|salt|SALT)|\b[a-z]\w*(?:Iv|IV|Nonce|Salt))\s*[:=]\s*(Buffer\.(from|alloc)\s*\(\s*(["'`]|\d)|b?["'`][^"'`$]{4,}["'`]|bytes\(|\[\s*0x)/.test(
        line,
      ) || /createCipheriv\s*\([^,]+,[^,]+,\s*(["'`]|Buffer\.(from|alloc)\s*\(\s*(["'`]|\d))/.test(line),
    message:
      "Hard-coded IV, nonce or salt: it must be random per encryption/hash (crypto.randomBytes, os.urandom) and stored alongside the result.",
  },
  {
    id: "insecure-random",
    test: (line, _language, before) => {
      if (!/\bMath\.random\s*\(|\brandom\.(random|randint|choice|choices|getrandbits|sample)\s*\(/.test(line))
        return false;
      // A value named for a delay, a sample, a colour or a test is not a secret (`const testId = ...`).
      const named = /^\s*(?:(?:export\s+)?(?:const|let|var)\s+)?([\w$.]+)\s*(?::[^=]+)?=[^=]/.exec(line)?.[1];
      if (named !== undefined && isInnocentName(named)) return false;
      if (SECRET_PURPOSE.test(line.replace(/\bMath\.random\b|\brandom\.\w+/g, ""))) return true;
      // `return Math.random()...` inside a function whose name says what the value is for.
      const enclosing = /(?:function|def|const|let|var)\s+(\w+)[^\n]*$/.exec(before)?.[1];
      return /^\s*return\b/.test(line) && enclosing !== undefined && SECRET_PURPOSE.test(enclosing);
    },
    message:
      "Math.random / random used for a token, code, id or secret: it is predictable. Use crypto.randomBytes, " +
      "crypto.randomUUID or Python's secrets module.",
  },
  {
    // A cookie's transport flags turned off: set in code, a cookie is sent over plain HTTP
    // (Secure) or read by any script on the page (HttpOnly). Which cookie carries a session is
    // SEC-03's question when the session's own configuration says so; this is the flag itself.
    id: "cookie-flag-off",
    test: (line, _language, before) => {
      if (/\.set(Secure|HttpOnly)\s*\(\s*false\s*\)/.test(line)) return true;
      if (/\b(SESSION|CSRF)_COOKIE_(SECURE|HTTPONLY)\s*=\s*False\b/.test(line)) return true;
      if (!/\b(secure|httpOnly|httponly|Secure|HttpOnly)\s*[:=]\s*(false|False)\b/.test(line)) return false;
      // `secure: false` names a cookie's flag only near a cookie (`res.cookie(..., {`, `http.Cookie{`).
      return /cookie/i.test(`${before.split("\n").slice(-4).join("\n")}\n${line}`);
    },
    message:
      "A cookie's Secure or HttpOnly flag is turned off: the cookie is sent over plain HTTP, or any script on " +
      "the page can read it. Leave both on for anything that identifies a user (sessions, remember-me, CSRF tokens).",
  },
  {
    id: "tls-verification-off",
    test: (line) =>
      /rejectUnauthorized\s*:\s*false|\bverify\s*=\s*False|NODE_TLS_REJECT_UNAUTHORIZED|InsecureSkipVerify\s*:\s*true|_create_unverified_context|\bCERT_NONE\b|strictSSL\s*:\s*false|check_hostname\s*=\s*False/.test(
        line,
      ),
    message:
      "TLS certificate verification disabled: any machine in the path can read and change the traffic. " +
      "Trust the right CA (ca / REQUESTS_CA_BUNDLE) instead of turning verification off.",
  },
];

/** The line rules every language is read with, whatever reads its calls: a cookie's flags are written alike. */
const EVERY_LANGUAGE_RULES = RULES.filter((r) => r.id === "cookie-flag-off");

const TREE_MESSAGE: Record<CryptoCall["kind"], (c: CryptoCall) => string> = {
  "predictable-random": (c) =>
    `${c.call.replace(/^new(?=[A-Z])/, "new ")} (a predictable generator, not a cryptographic random source) produces ${c.purpose ?? "a secret value"}: anyone who sees a few outputs can ` +
    "predict the next. Use a cryptographic generator: SecureRandom (Java, Kotlin, Ruby), RandomNumberGenerator (.NET), " +
    "crypto.randomBytes / crypto.randomUUID (Node), Python's secrets module, Go's crypto/rand, PHP's random_bytes.",
  "fast-hash-password": (c) =>
    `A password is hashed with a fast hash (${c.call}): it is brute-forced at billions of guesses a second. ` +
    "Use a password hash (bcrypt, scrypt, Argon2 or PBKDF2) with a per-user salt.",
  "weak-hash": (c) =>
    `${c.call}${c.purpose ? ` is given ${c.purpose}` : ""}: MD5/SHA-1 are broken for security (collisions, fast brute force). For integrity or tokens use ` +
    "SHA-256 or better; for passwords bcrypt, scrypt or argon2. Fine only for non-security checksums.",
  "weak-cipher": (c) =>
    `${c.call}${c.purpose ? ` is given ${c.purpose}` : ""}: a broken cipher or mode (DES, 3DES, RC4, RC2, Blowfish, or ECB, which gives identical ciphertext ` +
    "for identical blocks). Use an AEAD mode such as AES-GCM with a random IV.",
  "fixed-iv": (c) =>
    `${c.call}: a constant IV, nonce or salt. It must be random per encryption or hash (SecureRandom, ` +
    "RandomNumberGenerator, random_bytes, SecureRandom.random_bytes, OsRng) and stored beside the result.",
  "tls-off": (c) =>
    `TLS certificate or host name verification turned off (${c.call}): any machine in the path can read and ` +
    "change the traffic. Trust the right CA or pin the certificate instead of accepting every one.",
};

/**
 * The languages whose added lines are read by the line rules too (as before the rules table),
 * with every language no grammar here parses: the others are judged by their calls alone. The
 * eight read last (shell to Lua) keep the line rules they had before they were parsed, beside
 * their few call rules.
 */
const LINE_RULE_LANGUAGES = grammarReader([
  ...FIRST_GRAMMARS,
  ...(["bash", "scala", "swift", "c", "cpp", "dart", "elixir", "lua"] as const),
]);

const SPEC = { id: "weak-crypto", policy: "SEC-05", severity: "medium", blocking: false } as const;

function findingsOf(
  file: ChangedFile & { patch: string },
  lang: SyntaxLanguage | undefined,
  properties: PropertyValues,
): Map<number, string> {
  const found = new Map<number, string>();
  const byLines = LINE_RULE_LANGUAGES.reads(file) || !CODE_LANGUAGES.reads(file);
  for (const m of matchLineRules(file, byLines ? RULES : EVERY_LANGUAGE_RULES)) found.set(m.line, m.rule.message);
  const text = headText(file).text;
  const syntax = lang && precheck(mayCallCrypto(text, lang)) ? syntaxOfPatch(file) : undefined;
  if (!syntax) return found;
  const byValue = weakAlgorithms(syntax, CRYPTO_RULES[syntax.lang], properties, text).map(
    (w): CryptoCall => ({ kind: w.kind, row: w.row, call: w.call, purpose: w.value }),
  );
  for (const c of [...cryptoCalls(syntax), ...byValue]) {
    const line = syntax.lineAt(c.row);
    if (line !== undefined && !found.has(line)) found.set(line, TREE_MESSAGE[c.kind](c));
  }
  return found;
}

/**
 * SEC-05: weak cryptography in added lines (MD5/SHA-1, ECB, fixed IV/salt, predictable randomness
 * for secrets, fast hashes of passwords, TLS verification off). In JavaScript/TypeScript, Python
 * and Go the line rules are read with the syntax tree: `Math.random`, Python's `random` and Go's
 * `math/rand` when the value is named as a token, id, secret or password (directly, or by the
 * enclosing function), MD5/SHA-1/SHA-2 applied to a password, and Go's `crypto/md5` and
 * `crypto/sha1`. Java, Kotlin, C#, PHP, Ruby and Rust are judged by their calls, values and
 * verifier bodies alone, by the rules of `crypto-rules.ts` (`Cipher.getInstance("AES/ECB/…")`,
 * `curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, false)`, an empty `checkServerTrusted`, …); a file in
 * a language no grammar reads gets the line rules. In every grammar, a predictable random value is
 * also followed to a cookie or a security name (`random-flow.ts`), and an algorithm's name is read
 * by value (`algorithm-value.ts`), a properties file the code names read from the head snapshot
 * first (`properties-files.ts`). Severity medium, not blocking (the policy's contract).
 *
 * @example await weakCryptoDetector.detect(ctx) // [{ policy: "SEC-05", blocking: false, ... }]
 */
export const weakCryptoDetector: Detector = {
  ...codeLineDetector(SPEC, (file, lang) => findingsOf(file, lang, NO_PROPERTIES)),
  async detect(ctx) {
    // Algorithm names read from a properties file: the files the code names, from the head snapshot.
    const properties = await propertiesOfReview(ctx);
    return codeLineDetector(SPEC, (file, lang) => findingsOf(file, lang, properties)).detect(ctx);
  },
};
