/**
 * The words a SEC-03 clearance is read with: which calls verify a token, signature or password
 * (and which only decode one), and what a check that rejects looks like, per language family.
 * Data only; `line-check.ts` applies it.
 *
 * @example CALLS.js.find((r) => r.callee.test("jwt.verify"))?.shows // "verification"
 */

/** What a call shows about a token, signature or password. */
export type CallShows = "verification" | "decode-only";

/** A condition on a call's arguments, read from the syntax tree. */
export type ArgumentTest =
  /** A keyword argument of this name is given (Python). */
  | { keyword: string }
  /** The argument at this 0-based position is given and is not `nil`/`None`/`null`. */
  | { argument: number };

/** A keyword argument, options entry or positional argument that turns verification off. */
export interface VerificationOff {
  /** `verify=False`: the keyword itself. */
  keyword?: string;
  /** Ruby's `JWT.decode(token, key, false)`: the positional argument at this 0-based index. */
  argument?: number;
  /** `options={"verify_signature": False}`: a key of the dictionary given as this keyword. */
  optionsKey?: { keyword: string; key: string };
  /** The value that turns it off, as written. */
  value: string;
}

/** One entry of the vocabulary: a callee (as written, whitespace removed) and what its call shows. */
export interface CallRule {
  callee: RegExp;
  shows: CallShows;
  /** Every test must hold for the call to verify; when one fails it only decodes. */
  requires?: ArgumentTest[];
  /** Arguments that turn verification off: the call then only decodes. */
  off?: VerificationOff[];
  /**
   * True for a library's own call: code that makes one (or decodes a token) is code whose clearance
   * must show a verification, not only a check that rejects. A project's helper (`verifySignature`)
   * shows a verification when cited, but does not make the file token code by itself.
   */
  library: boolean;
}

/** The language families the recogniser reads with a grammar. */
export type CheckLanguage = "js" | "python" | "go" | "java" | "kotlin" | "csharp" | "php" | "ruby" | "rust";

/** Project helpers that verify, in any language: `verifySignature(`, `verify_token(`, `comparePassword(`. */
const HELPER: CallRule = {
  callee:
    /(^|\.)(verify|check|compare|validate)_?(token|jwt|signature|sig|session|password|hmac|mac|webhook|cookie|credentials?|id_?token|access_?token)\w*$/i,
  shows: "verification",
  library: false,
};

/** jjwt, auth0 java-jwt, jBCrypt, Spring's password encoders, the JDK: Java and Kotlin. */
const JVM: CallRule[] = [
  // jjwt verifies a signed token in parseClaimsJws/parseSignedClaims (no key, no token); parseClaimsJwt reads an unsigned one.
  {
    callee: /(^|\.)(parseClaimsJws|parseSignedClaims|parseSignedContent|parseEncryptedClaims)$/,
    shows: "verification",
    library: true,
  },
  { callee: /(^|\.)(parseClaimsJwt|parseUnsecuredClaims|parseUnsecuredContent)$/, shows: "decode-only", library: true },
  { callee: /(^|\.)Jwts\.parser(Builder)?\(\).*\.parse$/, shows: "decode-only", library: true },
  // auth0: JWT.require(alg)...build().verify(token) verifies, JWT.decode(token) does not.
  { callee: /^(com\.auth0\.jwt\.)?JWT\.require\(.*\)\.verify$/, shows: "verification", library: true },
  { callee: /^(com\.auth0\.jwt\.)?JWT\.decode$/, shows: "decode-only", library: true },
  {
    callee: /(^|\.)(BCrypt\.checkpw|MessageDigest\.isEqual)$|(^|\.)\w*([Pp]assword)?[Ee]ncoder\w*\.matches$/,
    shows: "verification",
    library: true,
  },
  { callee: /^Base64\.get(Url|Mime)?Decoder\(\)\.decode$/, shows: "decode-only", library: true },
  HELPER,
  // A JWTVerifier, a Signature, Google's IdTokenVerifier.
  { callee: /\.verify$/, shows: "verification", library: false },
];

/**
 * The call vocabulary, tried in order (the first rule whose callee matches decides).
 */
export const CALLS: Record<CheckLanguage, CallRule[]> = {
  js: [
    // jsonwebtoken, jose, Google/Firebase: verification.
    { callee: /(^|\.)(jwt|jsonwebtoken|jws)\.verify$/, shows: "verification", library: true },
    {
      callee:
        /(^|\.)(jwtVerify|compactVerify|flattenedVerify|generalVerify|jwtDecrypt|verifyIdToken|verifyAccessToken|verifySessionCookie)$/,
      shows: "verification",
      library: true,
    },
    // Constant-time comparison, password checks, signatures.
    {
      callee: /(^|\.)(timingSafeEqual|tsscmp|safeCompare|secureCompare|timingSafeCompare|constantTimeEqual)$/,
      shows: "verification",
      library: true,
    },
    { callee: /(^|\.)(bcrypt|bcryptjs)\.(compare|compareSync)$/, shows: "verification", library: true },
    { callee: /(^|\.)(argon2|crypto|subtle)\.verify$/, shows: "verification", library: true },
    // Decoding only: jsonwebtoken's decode, jwt-decode, jose's decoders, base64.
    { callee: /(^|\.)(jwt|jsonwebtoken)\.decode$/, shows: "decode-only", library: true },
    {
      callee: /(^|\.)(jwtDecode|jwt_decode|decodeJwt|decodeProtectedHeader|atob|base64url\.decode)$/,
      shows: "decode-only",
      library: true,
    },
    { callee: /(^|\.)\w*(jwt|token)\w*\.decode$/i, shows: "decode-only", library: true },
    HELPER,
    // Any other `.verify(` method: a verifier, a hasher, a key.
    { callee: /\.verify$/, shows: "verification", library: false },
  ],
  python: [
    { callee: /(^|\.)(hmac|secrets)\.compare_digest$|^compare_digest$/, shows: "verification", library: true },
    {
      callee: /(^|\.)(bcrypt\.checkpw|checkpw|check_password_hash|check_password|verify_oauth2_token|verify_id_token)$/,
      shows: "verification",
      library: true,
    },
    // PyJWT and python-jose verify in decode when given the algorithms, unless told not to.
    {
      callee: /(^|\.)(jwt|jose\.jwt)\.decode$/,
      shows: "verification",
      requires: [{ keyword: "algorithms" }],
      off: [
        { keyword: "verify", value: "False" },
        { optionsKey: { keyword: "options", key: "verify_signature" }, value: "False" },
      ],
      library: true,
    },
    {
      callee: /(^|\.)jwt\.(get_unverified_header|get_unverified_claims)$|(^|\.)base64\.(b64decode|urlsafe_b64decode)$/,
      shows: "decode-only",
      library: true,
    },
    HELPER,
    // passlib's CryptContext, argon2's PasswordHasher, nacl's VerifyKey.
    { callee: /\.verify$/, shows: "verification", library: false },
  ],
  go: [
    {
      callee:
        /(^|\.)(subtle\.ConstantTimeCompare|hmac\.Equal|bcrypt\.CompareHashAndPassword|ed25519\.Verify|ecdsa\.Verify\w*|rsa\.Verify\w*)$/,
      shows: "verification",
      library: true,
    },
    // golang-jwt verifies in Parse when given a key function.
    { callee: /(^|\.)ParseUnverified$/, shows: "decode-only", library: true },
    {
      callee: /(^|\.)(jwt|\w*[Pp]arser(\(.*\))?)\.Parse$/,
      shows: "verification",
      requires: [{ argument: 1 }],
      library: true,
    },
    {
      callee: /(^|\.)(jwt|\w*[Pp]arser(\(.*\))?)\.ParseWithClaims$/,
      shows: "verification",
      requires: [{ argument: 2 }],
      library: true,
    },
    { callee: /(^|\.)base64\.\w+\.DecodeString$/, shows: "decode-only", library: true },
    HELPER,
    // go-oidc's verifier.Verify, jws.Verify.
    { callee: /\.Verify$/, shows: "verification", library: false },
  ],
  java: JVM,
  kotlin: JVM,
  csharp: [
    {
      callee:
        /(^|\.)(ValidateToken|ValidateTokenAsync|FixedTimeEquals|VerifyHashedPassword|CheckPasswordAsync|CheckPasswordSignInAsync|PasswordSignInAsync|VerifyData|VerifyHash)$/,
      shows: "verification",
      library: true,
    },
    { callee: /(^|\.)BCrypt\.(Verify|EnhancedVerify)$/, shows: "verification", library: true },
    // Reading a JWT is not validating it.
    {
      callee: /(^|\.)(ReadJwtToken|ReadToken)$|(^|\.)(Convert\.FromBase64String|Base64UrlEncoder\.Decode)$/,
      shows: "decode-only",
      library: true,
    },
    HELPER,
    { callee: /\.Verify$/, shows: "verification", library: false },
  ],
  php: [
    {
      callee: /^(password_verify|hash_equals|openssl_verify|sodium_crypto_sign_verify_detached)$/,
      shows: "verification",
      library: true,
    },
    // firebase/php-jwt verifies in decode when given a key.
    { callee: /(^|\.)JWT\.decode$/, shows: "verification", requires: [{ argument: 1 }], library: true },
    { callee: /^(Hash\.check|Auth\.attempt|Auth\.validate)$/, shows: "verification", library: true },
    { callee: /(^|\.)JWT\.(jsonDecode|urlsafeB64Decode)$|^base64_decode$/, shows: "decode-only", library: true },
    HELPER,
    { callee: /\.verify$/, shows: "verification", library: false },
  ],
  ruby: [
    { callee: /(^|\.)(secure_compare|fixed_length_secure_compare)$/, shows: "verification", library: true },
    // ruby-jwt verifies in decode given a key, unless its third argument is false.
    {
      callee: /^JWT\.decode$/,
      shows: "verification",
      requires: [{ argument: 1 }],
      off: [{ argument: 2, value: "false" }],
      library: true,
    },
    {
      callee: /(^|\.)(authenticate|authenticate_by|valid_password\?|is_password\?|valid_authenticity_token\?)$/,
      shows: "verification",
      library: true,
    },
    { callee: /^Base64\.(decode64|urlsafe_decode64|strict_decode64)$/, shows: "decode-only", library: true },
    HELPER,
    // ActiveSupport::MessageVerifier#verify.
    { callee: /\.verify$/, shows: "verification", library: false },
  ],
  rust: [
    {
      callee: /(^|\.)(dangerous_insecure_decode|insecure_decode|decode_header)(\.<.*>)?$/,
      shows: "decode-only",
      library: true,
    },
    // jsonwebtoken verifies in decode given a key and a Validation.
    {
      callee: /(^|\.)decode(\.<.*>)?$/,
      shows: "verification",
      requires: [{ argument: 1 }, { argument: 2 }],
      library: true,
    },
    {
      callee:
        /(^|\.)(bcrypt\.verify|verify_password|constant_time_eq|ct_eq|verify_slice|verify_truncated_left)$|^(ring\.)?hmac\.verify$/,
      shows: "verification",
      library: true,
    },
    HELPER,
    { callee: /\.verify$/, shows: "verification", library: false },
  ],
};

/** A line that opens a condition, per family. */
const BRACED_IF = /^\s*(\}\s*)?(else\s+)?if\s*\(/;
export const CONDITION: Record<CheckLanguage, RegExp> = {
  js: BRACED_IF,
  python: /^\s*(el)?if\b/,
  go: /^\s*(\}\s*)?(else\s+)?if\b/,
  java: BRACED_IF,
  kotlin: BRACED_IF,
  csharp: BRACED_IF,
  php: /^\s*(\}\s*)?(else\s*)?if\s*\(/,
  ruby: /^\s*(if|unless|elsif)\b|\s(if|unless)\s/,
  rust: /^\s*(\}\s*)?(else\s+)?if\b/,
};

/** Java and Kotlin: an exception, a null/false answer, a 401/403 response. */
const JVM_REJECTION =
  /\bthrow\b|\breturn(@\w+)?\s+(null|false)\b|ResponseEntity\.status\(\s*(HttpStatus\.)?(UNAUTHORIZED|FORBIDDEN|40[13])|\bsendError\(\s*(HttpServletResponse\.SC_(UNAUTHORIZED|FORBIDDEN)|40[13])|\bsetStatus\(\s*40[13]\b|HttpStatusCode\.(Unauthorized|Forbidden)/;

/** A statement that refuses: the request, the session or the caller is turned away. */
export const REJECTION: Record<CheckLanguage, RegExp> = {
  js: /\bthrow\b|\breturn\s+(null|false|undefined)\b|\breturn\s*\{\s*ok\s*:\s*false\b|\.(status|sendStatus|code|writeHead)\(\s*40[13]\b|\bnext\(\s*(new\b|err|createError)/,
  python:
    /\braise\b|\babort\(\s*40[13]\b|\breturn\s+(None|False)\b|\bHttpResponse(Forbidden|NotAllowed)\b|\bstatus_code\s*=\s*40[13]\b/,
  go: /\breturn\b[^\n]*\b(err\w*|Err\w+|errors\.New|fmt\.Errorf)\b|\breturn\s+(nil|false)\s*$|\bhttp\.Error\(|\bWriteHeader\(\s*(40[13]|http\.Status(Unauthorized|Forbidden))|\.Abort\w*\(/m,
  java: JVM_REJECTION,
  kotlin: JVM_REJECTION,
  csharp:
    /\bthrow\b|\breturn\s+(null|false)\b|\breturn\s+(Unauthorized|Forbid|Challenge)\(|\bStatusCode\(\s*40[13]\b|StatusCodes\.Status40[13]|Results\.(Unauthorized|Forbid)\(/,
  php: /\bthrow\b|\breturn\s+(null|false)\b|\babort\(\s*40[13]\b|\bhttp_response_code\(\s*40[13]\b|\bexit\b|\bdie\b/,
  ruby: /\braise\b|\bhead\s*\(?\s*:(unauthorized|forbidden)|status:\s*:(unauthorized|forbidden)|status:\s*40[13]\b|\bredirect_to\b|\breturn\s+(nil|false)\b|\bhalt\s*\(?\s*40[13]\b/,
  rust: /\breturn\s+(Err|None|false)\b|\bErr\s*\(|StatusCode::(UNAUTHORIZED|FORBIDDEN)|HttpResponse::(Unauthorized|Forbidden)\(|\bbail!\(/,
};

/** What a rejecting condition is about, for it to be an authentication or authorization check. */
export const AUTH_SUBJECT =
  /user|role|admin|perm|scope|auth|token|session|expir|\bexp\b|valid|verif|signature|\bsig\b|claim|\bsub\b|allow|grant|csrf|principal|identity|owner|tenant|login|passw|credential|\bcan\w*\(|\bhas\w*\(/i;

/** A refusal that names itself: 401 or 403. */
export const AUTH_STATUS = /\b40[13]\b|Unauthori[sz]ed|Forbidden|PermissionDenied/;

/** Code that takes a credential from a request: its clearance must show a verification. */
export const TOKEN_SOURCE = /\bauthorization\b|\bbearer\b|x[-_]api[-_]key/i;

/**
 * Languages read without a grammar (Scala, Swift, Elixir, ...): verifications found by word in the
 * line's code.
 */
export const UNPARSED_VERIFICATION =
  /\bsecure_compare\b|\bMessageDigest\.isEqual\b|\bhash_equals\s*\(|\bpassword_verify\s*\(|\bFixedTimeEquals\b|\.verify\w*\s*\(|\bverifyWith\s*\(|\bBCrypt\.(checkpw|Verify)\b/;
