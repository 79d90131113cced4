import type { SyntaxLanguage } from "../code/grammars.js";
import type { CallRule, ValueRule } from "./call-rules.js";

/**
 * SEC-03's rules per grammar, as data: the calls, values, attributes and statements that verify a
 * token or password, issue a session or cookie, or guard (or stop guarding) a route, and which
 * removed lines drop a guard or, the other way round, drop an exemption (hardening, not a change
 * to review). `auth-change.ts` applies them.
 *
 * @example AUTH_RULES.ruby.calls.some((r) => r.callee?.test("skip_before_action")) // true
 */
export interface AuthRules {
  /** A word (any case) every call, value, attribute and statement rule needs in the file's text. */
  words: RegExp;
  calls: readonly CallRule[];
  /** Names given a value that changes a check (`ValidateLifetime = false`, `validation.validate_exp = false`). */
  values: readonly ValueRule[];
  /** Node kinds that give a name a value, read for `values`. */
  valueKinds: readonly string[];
  /** A word every target of `values` has: a file without one needs no search of its values. */
  valueWords?: RegExp;
  /** Attribute or annotation names that, added, open or exempt a route (`[AllowAnonymous]`). */
  attributes?: RegExp;
  /** A word every name of `attributes` has. */
  attributeWords?: RegExp;
  /** Attribute or annotation node kinds. */
  attributeKinds: readonly string[];
  /** Statement-level code (strings and comments dropped) that is a call without parentheses (Ruby's `has_secure_password`). */
  statements?: RegExp;
  /** A removed line that drops a guard (`@PreAuthorize`, `[Authorize]`, `before_action :authenticate_user!`). */
  removedGuards?: RegExp;
  /** A removed line that drops an exemption (`skip_forgery_protection`, `.csrf().disable()`): hardening. */
  hardening?: RegExp;
  /**
   * A list of exempted routes written one entry per line (Laravel's `protected $except = [` in its
   * CSRF middleware, up to `];`): an entry removed is hardening, an entry added opens a route.
   */
  exemptionList?: { open: RegExp; close: RegExp; what: string; fileText: RegExp };
}

/**
 * Calls (callee as written, whitespace removed) that verify a signature, HMAC or token, issue a
 * session or cookie, or hash and check passwords, in JavaScript/TypeScript, Python and Go.
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

const FIRST: AuthRules = {
  words: AUTH_CALL_WORDS,
  calls: [{ callee: AUTH_CALL }],
  values: [],
  valueKinds: [],
  attributeKinds: [],
};

/** Spring Security, jjwt, auth0 java-jwt, Spring's password encoders, servlet sessions, Ktor: Java and Kotlin. */
const JVM_CALLS: readonly CallRule[] = [
  // CSRF and route rules of Spring Security, in the chained, lambda and Kotlin DSL forms.
  { callee: /(^|\.)(csrf|cors)\(\)\.disable$/ },
  { method: /^csrf$/, anyArgument: /disable/ },
  { method: /^(permitAll|anonymous|authenticated|hasRole|hasAnyRole|hasAuthority|hasAnyAuthority|denyAll)$/ },
  {
    method:
      /^(authorizeRequests|authorizeHttpRequests|securityMatcher|oauth2ResourceServer|oauth2Login|httpBasic|formLogin|sessionManagement|securityFilterChain)$/,
  },
  { method: /^authorize$/, anyArgument: /\b(permitAll|authenticated|hasRole|hasAuthority|denyAll)\b/ },
  // Tokens: jjwt (verified by parseClaimsJws/parseSignedClaims, not by parse/parseClaimsJwt), auth0 java-jwt.
  { callee: /^Jwts\./ },
  {
    method:
      /^(parseClaimsJws|parseClaimsJwt|parseSignedClaims|parseUnsecuredClaims|setSigningKey|verifyWith|signWith)$/,
  },
  { callee: /^(JWT|Algorithm)\.\w+/ },
  // Passwords, HMACs, constant-time comparison.
  { callee: /(^|\.)BCrypt\.(hashpw|checkpw|gensalt)$/ },
  { method: /^(matches|encode|upgradeEncoding)$/, receiver: /[Pp]assword[Ee]ncoder|[Ee]ncoder$/ },
  {
    callee:
      /(^|\.)(BCryptPasswordEncoder|Argon2PasswordEncoder|Pbkdf2PasswordEncoder|SCryptPasswordEncoder|DelegatingPasswordEncoder|NoOpPasswordEncoder\.getInstance|PasswordEncoderFactories\.\w+|UsernamePasswordAuthenticationToken)$/,
  },
  { callee: /(^|\.)(Mac\.getInstance|MessageDigest\.isEqual)$/ },
  { method: /^equals$/, anyArgument: /signature|hmac|digest|[Hh]ash\b|[Pp]assword/ },
  // Sessions, cookies, the security context.
  { method: /^(getSession|changeSessionId|addCookie|setMaxInactiveInterval|setHttpOnly|setSecure)$/ },
  { method: /^invalidate$/, receiver: /[Ss]ession/ },
  { callee: /^((javax|jakarta)\.servlet\.http\.)?Cookie$|^ResponseCookie\.from$/ },
  { callee: /^SecurityContextHolder\./ },
  { method: /^authenticate$/ },
  // Ktor.
  { method: /^install$/, anyArgument: /^(Authentication|Sessions|CSRF)\b/ },
  { method: /^(verifier|principal|sessions)$/ },
];

const JVM: Omit<AuthRules, "valueKinds" | "attributeKinds"> = {
  words:
    /csrf|cors|permit|anonymous|authenticat|authori|role|denyall|security|oauth|httpbasic|formlogin|session|jwt|signingkey|verify|signwith|algorithm|bcrypt|encoder|mac\.|isequal|equals|cookie|install|principal/i,
  calls: JVM_CALLS,
  values: [],
  attributes: /^(PermitAll|AnonymousAllowed)$/,
  attributeWords: /PermitAll|AnonymousAllowed/,
  removedGuards: /^\s*@(PreAuthorize|PostAuthorize|Secured|RolesAllowed)\b/,
  hardening: /\bcsrf\(\)\s*\.\s*disable\(\)|\bcsrf\s*[({][^\n]*\bdisable\b|\.permitAll\(\)|@PermitAll\b/,
};

/** The rules, by grammar. */
export const AUTH_RULES: Readonly<Record<SyntaxLanguage, AuthRules>> = {
  javascript: FIRST,
  typescript: FIRST,
  tsx: FIRST,
  python: FIRST,
  go: FIRST,
  java: { ...JVM, valueKinds: [], attributeKinds: ["annotation", "marker_annotation"] },
  kotlin: { ...JVM, valueKinds: [], attributeKinds: ["annotation"] },
  csharp: {
    words:
      /jwt|authenticat|authori|cookie|signin|signout|password|token|fixedtime|anonymous|antiforgery|hmac|bcrypt|rfc2898|securitykey|signing|validat/i,
    calls: [
      {
        method:
          /^(AddJwtBearer|AddAuthentication|AddCookie|AddOpenIdConnect|AddIdentity\w*|AddAuthorization|UseAuthentication|UseAuthorization|AddAntiforgery|SignInAsync|SignOutAsync|PasswordSignInAsync|CheckPasswordSignInAsync|CheckPasswordAsync|HashPassword|VerifyHashedPassword|ValidateToken|ReadJwtToken|ReadToken|WriteToken|CreateToken|FixedTimeEquals|AllowAnonymous|RequireAuthorization|DisableAntiforgery)$/,
      },
      {
        callee:
          /(^|\.)(HMACSHA256|HMACSHA384|HMACSHA512|HMACSHA1|JwtSecurityTokenHandler|JsonWebTokenHandler|TokenValidationParameters|SymmetricSecurityKey|SigningCredentials|Rfc2898DeriveBytes(\.Pbkdf2)?|PasswordHasher(<.*>)?|CookieOptions)$/,
      },
      { callee: /(^|\.)BCrypt\.(HashPassword|Verify|EnhancedHashPassword|EnhancedVerify)$/ },
      { callee: /(^|\.)Cookies\.(Append|Delete)$/ },
    ],
    values: [
      {
        target:
          /^(ValidateIssuerSigningKey|RequireSignedTokens|ValidateLifetime|ValidateIssuer|ValidateAudience|RequireExpirationTime|RequireAudience|RequireHttpsMetadata|HttpOnly)$/,
        value: /^false$/,
      },
      { target: /^(SignatureValidator|IssuerSigningKeyValidator|LifetimeValidator|AudienceValidator)$/, value: /./ },
    ],
    valueKinds: ["assignment_expression"],
    valueWords: /Validate|Require|Validator|HttpOnly/,
    attributes: /^(AllowAnonymous|IgnoreAntiforgeryToken)$/,
    attributeWords: /AllowAnonymous|IgnoreAntiforgeryToken/,
    attributeKinds: ["attribute"],
    removedGuards: /[[,]\s*(Authorize|ValidateAntiForgeryToken|AutoValidateAntiforgeryToken)\b/,
    hardening: /[[,]\s*(AllowAnonymous|IgnoreAntiforgeryToken)\b|\.AllowAnonymous\(\)|\.DisableAntiforgery\(\)/,
  },
  php: {
    words: /password|hash|cookie|session|jwt|auth|login|logout|middleware|csrf|attempt|token/i,
    calls: [
      {
        callee:
          /^(password_hash|password_verify|password_needs_rehash|hash_equals|hash_hmac|session_start|session_regenerate_id|session_destroy|session_set_cookie_params)$/,
      },
      // A cookie is auth when it may carry a session or a token: a name that says so, or one not written out.
      {
        callee: /^setcookie$/,
        args: [{ index: 0, matches: /sess|sid|auth|token|jwt|remember|login|user|csrf|xsrf|ident|^[^'"]/i }],
      },
      { callee: /(^|\.)JWT\.(decode|encode)$/ },
      { callee: /^(Auth|Hash|Sanctum|Passport|Gate|Cookie)\./ },
      { method: /^(withoutMiddleware|attempt|loginUsingId|validateCsrfTokens|createToken|logout)$/ },
      { method: /^middleware$/, anyArgument: /auth|can:|verified|guest/ },
    ],
    values: [],
    valueKinds: [],
    attributeKinds: [],
    removedGuards: /->middleware\(\s*\[?\s*['"](auth|can:|verified)/,
    hardening: /->withoutMiddleware\(/,
    // Other middlewares keep an `$except` too (EncryptCookies, TrimStrings): only the CSRF one's exempts routes.
    exemptionList: {
      open: /\$except\s*=\s*\[/,
      close: /\];/,
      what: "an entry of $except (CSRF exemptions)",
      fileText: /\b(VerifyCsrfToken|ValidateCsrfToken)\b/,
    },
  },
  ruby: {
    words:
      /skip_|before_action|forgery|secure_password|secure_token|reset_session|sign_in|sign_out|authenticat|jwt|bcrypt|secure_compare|hmac|cookies|session|devise|valid_password/i,
    calls: [
      {
        callee: /^(skip_before_action|skip_around_action|before_action|prepend_before_action)$/,
        anyArgument:
          /authenticat|authoriz|require_(login|user|admin|signin)|verify_authenticity_token|logged_in|current_user|check_permission/,
      },
      {
        callee:
          /^(protect_from_forgery|skip_forgery_protection|has_secure_password|has_secure_token|reset_session|sign_in|sign_out|bypass_sign_in|authenticate_or_request_with_http_token|authenticate_with_http_token|authenticate_with_http_basic|http_basic_authenticate_with|devise)$/,
      },
      { method: /^(authenticate|authenticate!|authenticate_by|valid_password\?)$/ },
      { callee: /^JWT\.(decode|encode)$|^BCrypt\.Password\.(create|new)$|^OpenSSL\.HMAC\.\w+$/ },
      { method: /^secure_compare$/ },
    ],
    values: [],
    valueKinds: [],
    attributeKinds: [],
    statements:
      /^\s*(skip_forgery_protection|has_secure_password|reset_session|protect_from_forgery)\b|\bcookies\.(signed|encrypted)\b|\bsession\[\s*:\w+\s*\]\s*=[^=]/,
    removedGuards:
      /^\s*(before_action\s+:(authenticat\w*!?|authoriz\w*!?|require_\w+)|protect_from_forgery\s+with:\s*:exception)/,
    hardening:
      /^\s*(skip_before_action\s+:(authenticat\w*!?|authoriz\w*!?|verify_authenticity_token|require_\w+)|skip_forgery_protection|protect_from_forgery\s+with:\s*:null_session)/,
  },
  rust: {
    words:
      /jsonwebtoken|decodingkey|encodingkey|validation|decode|password|bcrypt|argon2|hmac|verify|constant_time|ct_eq|cookie|session|identity/i,
    calls: [
      {
        callee: /(^|\.)(decode|encode|decode_header|dangerous_insecure_decode|insecure_decode)(\.<.*>)?$/,
        fileText: /jsonwebtoken|DecodingKey|EncodingKey/,
      },
      { callee: /(^|\.)(DecodingKey|EncodingKey|Validation)\.\w+$/ },
      { method: /^(insecure_disable_signature_validation|set_audience|set_issuer|set_required_spec_claims)$/ },
      { method: /^(hash_password|verify_password|verify_slice|verify_truncated_left|constant_time_eq|ct_eq)$/ },
      { callee: /(^|\.)Hmac(\.<.*>)?\.new_from_slice$/ },
      {
        callee:
          /^bcrypt\.(hash|verify|hash_with_result|hash_with_salt)$|^(ring\.)?hmac\.(sign|verify)$|(^|\.)Argon2\.(default|new)$/,
      },
      { callee: /(^|\.)(Cookie\.(build|new)|Identity\.login|session\.(insert|renew|purge))$/ },
    ],
    values: [{ target: /^(validate_exp|validate_nbf|validate_aud)$/, value: /^false$/ }],
    valueKinds: ["assignment_expression", "field_initializer"],
    valueWords: /validate_/,
    attributeKinds: [],
    hardening: /insecure_disable_signature_validation\(\)|\bvalidate_exp\s*=\s*false|dangerous_insecure_decode/,
  },
  bash: FIRST,
  scala: { ...JVM, valueKinds: [], attributeKinds: ["annotation"] },
  swift: FIRST,
  c: FIRST,
  cpp: FIRST,
  dart: FIRST,
  elixir: FIRST,
  lua: FIRST,
};
