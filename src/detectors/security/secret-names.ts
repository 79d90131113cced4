/**
 * Whether a key names a secret, and which kind: its words (`spring.datasource.password`,
 * `DB_PASSWORD`, `ClientSecret`, `api-key`) hold a secret word, and its last word does not say it
 * holds something else (`password_min_length`, `secretName`, `token_url`).
 */
export type SecretKeyKind = "password" | "token" | "key";

/** Words that end a key naming something other than the secret itself. */
const NOT_THE_SECRET = new Set(
  (
    "url uri urls path paths file files dir name names type header headers field length len ttl expiry expires " +
    "expiration in prefix suffix id ids count limit policy policies label placeholder pattern regex endpoint env " +
    "var min max mode format version kind error message text hint encoder encoding hash hashed algorithm alg " +
    "size strength timeout lifetime duration age enabled enable required provider store storage location source " +
    "ref reference class service manager generator validator description title prompt template rotation retries " +
    "attempts days hours minutes seconds secs ms sec user username login email key_id keyid arn ref_name secret_name " +
    "field_name param parameter parameters index length_min length_max salt rounds cost iterations check checks scheme " +
    "tag namespace sender recipient from empty set unset exists present missing " +
    "reset confirm confirmation confirmed changed policy_id mask masked visible show hide enabled_flag valid validity " +
    "period interval refresh_interval scope scopes audience issuer method methods flow grant grants type_id mount " +
    "volume volumes selector ref_key key_ref command cmd script callback redirect lookup resolver"
  ).split(" "),
);

/** Whole words of a key that make it a secret's name. */
const SECRET_WORDS = new Set(
  (
    "password passwords passwd passwort pwd pass passphrase secret secrets token tokens apikey apitoken authtoken " +
    "accesstoken credential credentials privatekey secretkey accesskey authkey sas pat"
  ).split(" "),
);

/** Two-word names of secrets: `api key`, `client secret`, `account key`. */
const SECRET_PAIRS = new Set(
  (
    "api_key access_key private_key secret_key account_key auth_key signing_key encryption_key master_key " +
    "shared_key sas_token app_key consumer_key subscription_key storage_key admin_key " +
    "service_key webhook_key license_key session_key cookie_key hmac_key jwt_key api_hash app_hash api_secret"
  ).split(" "),
);

/**
 * Every secret word and pair `secretKeyKind` knows, for the test that `MAY_NAME_SECRET` covers them.
 *
 * @example SECRET_VOCABULARY.includes("api_hash") // true
 */
export const SECRET_VOCABULARY: readonly string[] = [...SECRET_WORDS, ...SECRET_PAIRS];

/**
 * A piece every key `secretKeyKind` accepts has (its secret words and pairs all hold one): a text
 * without any names no secret, so a closer reading of it can find no secret assignment.
 *
 * @example MAY_NAME_SECRET.test("const total = 1;") // false
 */
export const MAY_NAME_SECRET = /pass|pwd|secret|token|key|credential|connection|sas|pat|hash/i;

/**
 * The words of a key: `spring.datasource.password` → password's path words, `ClientSecret` →
 * ["client", "secret"], `DB_PASSWORD` → ["db", "password"].
 *
 * @example keyWords("apiKey") // ["api", "key"]
 */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

/**
 * The kind of secret a key names, or undefined when it names none.
 *
 * @example secretKeyKind("spring.datasource.password") // "password"
 * @example secretKeyKind("password.min.length") // undefined
 */
export function secretKeyKind(key: string): SecretKeyKind | undefined {
  const words = keyWords(key);
  const last = words[words.length - 1];
  // `existingSecret`, `envFromSecret`: the name of a secret kept elsewhere.
  if (words.includes("existing") || words.includes("from")) return undefined;
  // `isAdminPasswordEmpty`, `usePassword`: a flag about a secret.
  if (/^(is|has|should|use|enable|disable|allow|require|show|hide)$/.test(words[0] ?? "")) return undefined;
  if (last === undefined) return undefined;
  // Vault's AppRole `secret_id` is the credential itself, though an id names something elsewhere.
  if (last === "id" && words[words.length - 2] === "secret") return "token";
  // A pair naming a secret wins over a last word that alone would name something else (`api_hash`).
  if (words.length >= 2 && SECRET_PAIRS.has(`${words[words.length - 2]}_${last}`)) return "token";
  if (NOT_THE_SECRET.has(last)) return undefined;
  // `GRAYLOG_SHA256_PASSWORD`, `password_hash`: a digest of a password, not the password.
  if (words.some((w) => /^(hash|hashed|digest|sha\d*|md5|bcrypt|argon2|pbkdf2)$/.test(w))) return undefined;
  if (words.length >= 2 && NOT_THE_SECRET.has(`${words[words.length - 2]}_${last}`)) return undefined;
  let kind: SecretKeyKind | undefined;
  words.forEach((w, i) => {
    const pair = i > 0 ? `${words[i - 1]}_${w}` : "";
    const word = SECRET_WORDS.has(w) || /^\w*(password|passwd|secret|apikey)$/.test(w) || /^\w+pwd$/.test(w);
    if (word || SECRET_PAIRS.has(pair)) {
      kind = /^(password|passwords|passwd|passwort|pwd|pass|passphrase)$|password|passwd|pwd$/.test(w)
        ? "password"
        : (kind ?? "token");
    }
  });
  // `CTF_KEY`, `signingKeys`: a key of some kind, a secret when its value looks random.
  if (
    kind === undefined &&
    (last === "key" || last === "keys") &&
    !NOT_A_SECRET_KEY.has(words[words.length - 2] ?? "")
  ) {
    return "key";
  }
  return kind;
}

/** Words before `key` that make it no secret: `public_key`, `cache_key`, `sort_key`. */
const NOT_A_SECRET_KEY = new Set(
  "public pub cache partition sort primary foreign idempotency lookup map dict object bucket row column field group react i18n translation message label ssh_public".split(
    " ",
  ),
);

/** The key paths of a user name beside a password: `username`, `DB_USER`, `spring.security.user.name`, `uid`. */
export const USER_KEY = /(^|[._-])(user([._-]?(name|id))?|uid|login)$/i;
