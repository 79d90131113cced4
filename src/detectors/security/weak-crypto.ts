import type { Detector } from "../detector.js";
import { lineRuleDetector, type LineRule } from "./line-rules.js";

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
    test: (line) => /\b(aes|des|bf|blowfish)-\d*-?ecb\b|\bMODE_ECB\b|\/ECB\/|\bmode\s*:\s*CryptoJS\.mode\.ECB|\bECB\b\s*\(/i.test(line),
    message: "ECB cipher mode: identical plaintext blocks give identical ciphertext. Use an AEAD mode (AES-GCM) with a random IV.",
  },
  {
    id: "fixed-iv-or-salt",
    test: (line) =>
      /(?:\b(?:\w+_)?(?:iv|IV|nonce|NONCE|salt|SALT)|\b[a-z]\w*(?:Iv|IV|Nonce|Salt))\s*[:=]\s*(Buffer\.(from|alloc)\s*\(\s*(["'`]|\d)|b?["'`][^"'`$]{4,}["'`]|bytes\(|\[\s*0x)/.test(line) ||
      /createCipheriv\s*\([^,]+,[^,]+,\s*(["'`]|Buffer\.(from|alloc)\s*\(\s*(["'`]|\d))/.test(line),
    message: "Hard-coded IV, nonce or salt: it must be random per encryption/hash (crypto.randomBytes, os.urandom) and stored alongside the result.",
  },
  {
    id: "insecure-random",
    test: (line, _language, before) => {
      if (!/\bMath\.random\s*\(|\brandom\.(random|randint|choice|choices|getrandbits|sample)\s*\(/.test(line)) return false;
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

/**
 * SEC-05: weak cryptography in added lines (MD5/SHA-1, ECB, fixed IV/salt, Math.random for
 * secrets, TLS verification off). Severity medium, not blocking.
 *
 * @example await weakCryptoDetector.detect(ctx) // [{ policy: "SEC-05", blocking: false, ... }]
 */
export const weakCryptoDetector: Detector = lineRuleDetector({
  id: "weak-crypto",
  policy: "SEC-05",
  severity: "medium",
  blocking: false,
  rules: RULES,
});
