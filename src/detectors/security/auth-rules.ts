import type { SyntaxLanguage } from "../code/grammars.js";
import type { CallRule, ValueRule } from "./call-rules.js";

/**
 * SEC-03's rules per grammar, as data: the calls, values, attributes and statements that make an
 * authentication or authorization decision (verify a token, a signature or a password, log a user
 * in, configure session validation, open or exempt a route), the guards whose removal or change is
 * a check weakened and whose addition is hardening, and the removed lines that drop an exemption
 * (hardening too). Using a cookie or a session (reading a theme cookie, setting a remember-me or
 * reset cookie, storing a value in a session) is no decision and is named by no rule here.
 * `auth-change.ts` applies them.
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
  /**
   * A line (as written, strings kept) that declares a guard on a route or method (`@PreAuthorize`,
   * `[Authorize]`, `before_action :authenticate_user!`, Express middleware in a route's arguments):
   * removed or changed, a check is dropped or weakened; only added, it is hardening.
   */
  guards?: RegExp;
  /**
   * A line of code (strings and comments dropped) that branches on who the caller is (a role, a
   * permission, an authenticated flag): a guard too, read the same way as `guards`.
   */
  conditions: RegExp;
  /** A word (any case) every match of `conditions` has, read before it. */
  conditionWords: RegExp;
  /** Code (strings and comments dropped) that turns a check of `conditions` off: `|| true`, `or True`. */
  weakened: RegExp;
  /** Code (strings and comments dropped) that compares a password: `user.password == candidate`. */
  passwordCompare: RegExp;
  /** A line (strings kept) that takes a submitted password from the request: a login or a credential check. */
  passwordRead: RegExp;
  /** A removed line that drops an exemption (`skip_forgery_protection`, `.csrf().disable()`): hardening. */
  hardening?: RegExp;
  /**
   * A list of exempted routes written one entry per line (Laravel's `protected $except = [` in its
   * CSRF middleware, up to `];`): an entry removed is hardening, an entry added opens a route.
   */
  exemptionList?: { open: RegExp; close: RegExp; what: string; fileText: RegExp };
}

/**
 * Calls (callee as written, whitespace removed) that verify a signature, HMAC or token, log a user
 * in, configure sessions, or hash and check passwords, in JavaScript/TypeScript, Python and Go.
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
    // Logging a user in, and how sessions are signed and renewed (setting or reading a cookie, or a
    // value in a session, is a use of them, not a decision: no rule here).
    String.raw`(^|\.)(NewCookieStore|NewFilesystemStore|login_user|logout_user|authenticate|regenerate)$`,
    String.raw`(^|\.)session\.(regenerate|destroy)$|^(express-session|session|cookieSession|expressSession)$`,
    String.raw`(^|\.)passport\.(authenticate|use|serializeUser|deserializeUser)$|(^|\.)(URLSafeTimedSerializer|TimestampSigner|Signer)$|(^|\.)signing\.(dumps|loads)$`,
  ].join("|"),
);

/**
 * A word (any case) that every callee `AUTH_CALL` matches contains: a callee is a piece of the
 * parsed text, so a file whose text has none of them has no authentication call to find.
 */
export const AUTH_CALL_WORDS =
  /jwt|jsonwebtoken|jose|jws|jwe|verify|sign|withclaims|serializer|hmac|timingsafeequal|compare_digest|constanttimecompare|bcrypt|argon2|scrypt|pbkdf2|passlib|passwordhasher|hashpw|checkpw|idkey|password|cookiestore|filesystemstore|login_user|logout_user|authenticate|regenerate|session|passport/i;

/**
 * A check of who the caller is: a branch (`if`/`elif`/`unless`/`guard`) on a role, a permission, an
 * admin or authenticated flag (`if (!req.user.isAdmin)`, `unless current_user.admin?`, `if not
 * request.user.is_authenticated:`), or a call that checks a permission, a role, an access scope or a
 * CSRF token (`requirePermission(ctx, "update", "plans")`, `canAccess("approve", "purchases")`,
 * `h.validateCSRF(ctx, req)`).
 */
const CONDITION = new RegExp(
  [
    String.raw`\b(if|elif|elsif|unless|guard)\b[^\n]*(\b\w*(role|roles|admin|permission|permissions|authori[sz]ed|authenticated|loggedin|logged_in|is_staff|superuser|authority|authorities|privileges?)\b|\bhas_perms?\b|\bcan\?)`,
    String.raw`\b(has|check|require|ensure|verify|validate|authori[sz]e|can)_?\w*(permission|perm|role|access|scope|admin|owner|csrf|xsrf)\w*\s*\(`,
    String.raw`\bcan_?(access|edit|view|manage|delete|update|create|read|write|approve|perform)\w*\s*\(`,
  ].join("|"),
  "i",
);

/** A word (any case) every alternative of `CONDITION` needs: a text without one has no check to find. */
export const CONDITION_WORDS =
  /role|admin|perm|authori|authenticated|loggedin|logged_in|is_staff|superuser|privilege|can\?|access|scope|owner|csrf|xsrf|can_?(edit|view|manage|delete|update|create|read|write|approve|perform)/i;

/** A check turned off in place: `|| true`, `or True`, `&& false`, `if (true)`. */
const WEAKENED =
  /\|\|\s*(true|1)\b|\bor\s+True\b|&&\s*false\b|\band\s+False\b|\bif\s*\(?\s*(true|True|1)\s*\)?\s*[:{]?\s*$/;

/** A password compared as a value (`==`, `!=`, `equals`): a credential check, and a plain-text one. */
const PASSWORD_COMPARE =
  /\b\w*(password|passwd|pwd)\w*\s*(===?|!==?)\s*(?!\s*(null|None|nil|undefined|""|''|\d)\b)[\w.$(]|(===?|!==?)\s*[\w.$>:()[\]-]*\b\w*(password|passwd|pwd)\w*\b|\b\w*(password|passwd)\w*\s*\.\s*equals\w*\s*\(|\.equals\w*\s*\(\s*[\w.()]*(password|passwd)/i;

/** A submitted password read from the request (a form field, a body, a parameter named `password`). */
const PASSWORD_READ =
  /\b(FormValue|PostFormValue|getParameter|input|param)\s*\(\s*["']password\b|\b(form|Form|args|POST|values|body|params|query|json)\s*(\.get\s*\(\s*|\[\s*:?|\.)["']?password\b/;

/** What every language shares: branches on roles, checks turned off, passwords compared or read. */
const SHARED = {
  conditions: CONDITION,
  conditionWords: CONDITION_WORDS,
  weakened: WEAKENED,
  passwordCompare: PASSWORD_COMPARE,
  passwordRead: PASSWORD_READ,
} as const;

const FIRST: AuthRules = {
  ...SHARED,
  words: AUTH_CALL_WORDS,
  calls: [{ callee: AUTH_CALL }],
  values: [],
  valueKinds: [],
  attributeKinds: [],
};

/** Express/Koa/Fastify/Nest: an auth middleware among a route's handlers, or a Nest guard. */
const JS_GUARDS =
  /\.(use|get|post|put|patch|delete|del|all|route|register)\s*\([^\n]*\b(requireAuth\w*|ensureAuth\w*|ensureLoggedIn|isAuthenticated|isLoggedIn|requireLogin|requireUser|requireAdmin|requireRole|requirePermission\w*|checkPermission\w*|authorize\w*|authenticate\w*|verifyToken|verifyJwt|jwtAuth|authMiddleware|auth|csrfProtection|csrf|csurf)\b|@(UseGuards|Roles|Authorized)\s*\(/;

/** Spring Security, jjwt, auth0 java-jwt, Spring's password encoders, servlet sessions, Ktor: Java and Kotlin. */
const JVM_CALLS: readonly CallRule[] = [
  // CSRF and route rules of Spring Security, in the chained, lambda and Kotlin DSL forms (a rule
  // that requires a role or a login is a guard: see `guards`).
  { callee: /(^|\.)(csrf|cors)\(\)\.disable$/ },
  { method: /^csrf$/, anyArgument: /disable/ },
  { method: /^(permitAll|anonymous)$/ },
  {
    method:
      /^(authorizeRequests|authorizeHttpRequests|securityMatcher|oauth2ResourceServer|oauth2Login|httpBasic|formLogin|sessionManagement|securityFilterChain)$/,
  },
  { method: /^authorize$/, anyArgument: /\b(permitAll|anonymous)\b/ },
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
  // Session validation and the security context (a session read, a cookie made or added, its flags
  // set, is a use: a cookie sent without `Secure` is transport security, not an auth decision).
  { method: /^(changeSessionId|setMaxInactiveInterval)$/ },
  { method: /^invalidate$/, receiver: /[Ss]ession/ },
  { callee: /^SecurityContextHolder\.(getContext\(\)\.setAuthentication|clearContext|setContext)$/ },
  { method: /^setAuthentication$/, receiver: /SecurityContextHolder/ },
  { method: /^authenticate$/ },
  // Ktor.
  { method: /^install$/, anyArgument: /^(Authentication|Sessions|CSRF)\b/ },
  { method: /^(verifier|principal|sessions)$/ },
];

const JVM: Omit<AuthRules, "valueKinds" | "attributeKinds"> = {
  ...SHARED,
  words:
    /csrf|cors|permit|anonymous|authenticat|authori|security|oauth|httpbasic|formlogin|session|jwt|signingkey|verify|signwith|algorithm|bcrypt|encoder|mac\.|isequal|equals|install|principal/i,
  calls: JVM_CALLS,
  values: [],
  attributes: /^(PermitAll|AnonymousAllowed)$/,
  attributeWords: /PermitAll|AnonymousAllowed/,
  guards:
    /^\s*@(PreAuthorize|PostAuthorize|Secured|RolesAllowed|DenyAll)\b|\.(hasRole|hasAnyRole|hasAuthority|hasAnyAuthority|authenticated|fullyAuthenticated|denyAll|access)\s*\(/,
  hardening: /\bcsrf\(\)\s*\.\s*disable\(\)|\bcsrf\s*[({][^\n]*\bdisable\b|\.permitAll\(\)|@PermitAll\b/,
};

/** The rules, by grammar. */
export const AUTH_RULES: Readonly<Record<SyntaxLanguage, AuthRules>> = {
  javascript: { ...FIRST, guards: JS_GUARDS },
  typescript: { ...FIRST, guards: JS_GUARDS },
  tsx: { ...FIRST, guards: JS_GUARDS },
  python: {
    ...FIRST,
    // Django, Flask-Login, Flask-JWT, DRF and FastAPI's dependencies.
    guards:
      /^\s*@(\w+\.)*(login_required|permission_required|user_passes_test|staff_member_required|superuser_required|requires_auth|auth_required|jwt_required|fresh_jwt_required|admin_required|roles_required|roles_accepted|permission_classes|authentication_classes)\b|\b(permission_classes|authentication_classes)\s*=|@method_decorator\(\s*(login_required|permission_required)|\bDepends\(\s*(get_current_\w*user|current_user|require_\w+|verify_\w+|auth\w*)\b/,
    // The exemption dropped, and its import with it.
    hardening:
      /^\s*@(\w+\.)*csrf_exempt\b|@method_decorator\(\s*csrf_exempt|^\s*from\s+[\w.]+\s+import\s+csrf_exempt\s*$/,
  },
  go: {
    ...FIRST,
    // A middleware named for auth on a router, a route or a group (net/http, chi, gin, echo, gorilla).
    guards:
      /\.(Use|Handle|HandleFunc|Get|Post|Put|Patch|Delete|Group|With|Route)\s*\([^\n]*\b(\w*Auth\w*|\w*auth\w*|RequireLogin|RequireAdmin|RequireRole\w*|Authenticated|CSRF|csrf\.Protect)\b/,
  },
  java: { ...JVM, valueKinds: [], attributeKinds: ["annotation", "marker_annotation"] },
  kotlin: { ...JVM, valueKinds: [], attributeKinds: ["annotation"] },
  csharp: {
    ...SHARED,
    words:
      /jwt|authenticat|authori|cookie|signin|signout|password|token|fixedtime|anonymous|antiforgery|hmac|bcrypt|rfc2898|securitykey|signing|validat/i,
    calls: [
      {
        method:
          /^(AddJwtBearer|AddAuthentication|AddCookie|AddOpenIdConnect|AddIdentity\w*|AddAuthorization|UseAuthentication|UseAuthorization|AddAntiforgery|SignInAsync|SignOutAsync|PasswordSignInAsync|CheckPasswordSignInAsync|CheckPasswordAsync|HashPassword|VerifyHashedPassword|ValidateToken|ReadJwtToken|ReadToken|WriteToken|CreateToken|FixedTimeEquals|AllowAnonymous|DisableAntiforgery)$/,
      },
      {
        callee:
          /(^|\.)(HMACSHA256|HMACSHA384|HMACSHA512|HMACSHA1|JwtSecurityTokenHandler|JsonWebTokenHandler|TokenValidationParameters|SymmetricSecurityKey|SigningCredentials|Rfc2898DeriveBytes(\.Pbkdf2)?|PasswordHasher(<.*>)?)$/,
      },
      { callee: /(^|\.)BCrypt\.(HashPassword|Verify|EnhancedHashPassword|EnhancedVerify)$/ },
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
    guards: /[[,]\s*(Authorize|ValidateAntiForgeryToken|AutoValidateAntiforgeryToken)\b|\.RequireAuthorization\(/,
    hardening: /[[,]\s*(AllowAnonymous|IgnoreAntiforgeryToken)\b|\.AllowAnonymous\(\)|\.DisableAntiforgery\(\)/,
  },
  php: {
    ...SHARED,
    words: /password|hash|session|jwt|auth|login|logout|middleware|csrf|attempt|token/i,
    calls: [
      // Session validation (renewed, destroyed, its cookie's flags); starting one or setting a cookie is a use.
      {
        callee:
          /^(password_hash|password_verify|password_needs_rehash|hash_equals|hash_hmac|session_regenerate_id|session_destroy|session_set_cookie_params)$/,
      },
      { callee: /(^|\.)JWT\.(decode|encode)$/ },
      { callee: /^(Auth|Hash|Sanctum|Passport)\./ },
      { callee: /^Gate\.(define|before|after|policy|allowIf|denyIf)$/ },
      { method: /^(withoutMiddleware|attempt|loginUsingId|validateCsrfTokens|createToken|logout)$/ },
      { method: /^middleware$/, anyArgument: /guest/ },
    ],
    values: [],
    valueKinds: [],
    attributeKinds: [],
    guards:
      /->middleware\(\s*\[?\s*['"](auth|can:|verified)|\$this->authorize\(|\bGate::(authorize|allows|denies)\(|->can\(/,
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
    ...SHARED,
    words:
      /skip_|before_action|forgery|secure_password|secure_token|reset_session|sign_in|sign_out|authenticat|jwt|bcrypt|secure_compare|hmac|session|devise|valid_password/i,
    calls: [
      {
        callee: /^(skip_before_action|skip_around_action)$/,
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
    statements: /^\s*(skip_forgery_protection|has_secure_password|reset_session|protect_from_forgery)\b/,
    guards:
      /^\s*((prepend_)?before_action\s+:(authenticat\w*!?|authoriz\w*!?|require_\w+|verify_authenticity_token|check_permission\w*|logged_in\w*)|protect_from_forgery\s+with:\s*:exception|authorize!?\s|load_and_authorize_resource\b)/,
    hardening:
      /^\s*(skip_before_action\s+:(authenticat\w*!?|authoriz\w*!?|verify_authenticity_token|require_\w+)|skip_forgery_protection|protect_from_forgery\s+with:\s*:null_session)/,
  },
  rust: {
    ...SHARED,
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
      { callee: /(^|\.)(Identity\.login|session\.(renew|purge))$/ },
    ],
    values: [{ target: /^(validate_exp|validate_nbf|validate_aud)$/, value: /^false$/ }],
    valueKinds: ["assignment_expression", "field_initializer"],
    valueWords: /validate_/,
    attributeKinds: [],
    // actix/axum/tower: an auth middleware wrapped around a scope or a router, or a guard attribute.
    guards:
      /\.(wrap|route_layer|layer|guard)\s*\([^\n]*\b\w*[Aa]uth\w*|#\[(protect|has_role|has_permissions|has_any_role)\b/,
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
