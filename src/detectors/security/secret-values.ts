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

/**
 * A value that looks generated rather than chosen: long, varied, not a slug of words.
 *
 * @example looksRandom("TRwzkRJnHOTckssAeyJbysWgP!Qc2T") // true
 */
export function looksRandom(v: string): boolean {
  if (v.length < 16 || /^[a-z]+([-_.][a-z0-9]+)+$/i.test(v) || /^[\w.-]+\/[\w./-]+$/.test(v)) return false;
  const mixed = /\d/.test(v) || (/[a-z]/.test(v) && /[A-Z]/.test(v));
  return /[A-Za-z]/.test(v) && mixed && shannonEntropy(v) >= 3.5;
}

/** Syntax that stands for a value given elsewhere: `${VAR}`, `{{ .Values.x }}`, `<token>`, `%VAR%`... */
const PLACEHOLDER_SYNTAX =
  /^(.)\1{3,}$|^@@.*@@$|^<|^#{2,}|^`|\$\{|\$\(|^\$[A-Za-z_{]|\{\{|\}\}|^<[^>]*>$|<[A-Za-z][\w .-]*>|^%[A-Za-z_]+%$|%\(?[\w]*\)?[sd]\b|#\{|^@[\w.-]+@$|^__[\w-]+__$|^\[[\w -]+\]$|^\{[\w.-]*\}$|\{\d+\}|^\$\w+$|process\.env|os\.environ|getenv|System\.getenv|GetEnvironmentVariable|ENV\[/;

/** Words that say a value is not a real one. */
const PLACEHOLDER_WORDS =
  /change[-_ ]?(me|this|it)|^(foo|bar|baz)\b|replace[-_ ]?(me|with|this)|(^|[^a-z])your([-_ .<]|$)|^some[-_ ]|xxx|_here\b|-here\b|here$|example|sample|dummy|fake|placeholder|redacted|\btodo\b|\btbd\b|fixme|xxxx|\*{3,}|\.{3}|\u2026|^x+$|insert[-_ ]|enter[-_ ]|not[-_ ]?set|secret[-_]?here|^(null|nil|none|undefined|true|false|yes|no|on|off|n\/a|na|tbd)$/i;

/** A secret kept in a store, named by reference. */
const SECRET_STORE =
  /^(vault:|arn:aws:(secretsmanager|ssm|kms):|@Microsoft\.KeyVault|secretsmanager:|ssm:|sm:\/\/|op:\/\/|ref\+|gcp(sm)?:\/\/|azure-?key-?vault|keyvault:|secret:\/\/|projects\/[^/]+\/secrets\/|\{\{\s*resolve:|env:|file:|ENC\[|sops:|awskms:)/i;

/** A value encrypted where it stands: Maven's `{...}`, jasypt's `ENC(...)`. */
const ENCRYPTED = /^\{[A-Za-z0-9+/=]{16,}\}$|^ENC\(.*\)$/;

/** Words that, put together, make a name rather than a secret: `keysecret`, `secretpassword`, `yourpassword`. */
const ONLY_SECRET_WORDS = /password|passwd|pass|pwd|secret|token|key|api|auth|my|your|[-_.]/g;

/** Values people write where a real secret would go. */
const DUMMIES = new Set(
  (
    "password passwd pass pwd secret secrets test testing tests tester dummy fake mock foo bar baz foobar qux " +
    "default value string text token key apikey api_key sample demo blank empty hidden masked private required " +
    "optional unset unknown auto random generated generate testpassword testpass testsecret testtoken secretkey secret_key"
  ).split(" "),
);

/**
 * A value typed as a run of keys, not generated: `1234567890`, `abcdefghij` inside its longest
 * piece (`AKIA1234567890ABCDE`, `ghp_1234567890abcdef...`).
 *
 * @example isSequence("ghp_1234567890abcdef1234567890abcdef1234") // true
 */
export function isSequence(value: string): boolean {
  // The longest piece between separators is the random part: a Slack token's numeric ids are not.
  const v = value
    .split(/[-_.:/]/)
    .reduce((a, b) => (b.length > a.length ? b : a), "")
    .toLowerCase();
  return v.includes("1234567890") || v.includes("0123456789") || v.includes("abcdefghij") || v.includes("qwertyuiop");
}

/** The key paths of a user name beside a password: `username`, `DB_USER`, `spring.security.user.name`, `uid`. */
export const USER_KEY = /(^|[._-])(user([._-]?(name|id))?|uid|login)$/i;

/**
 * AWS's documented example keys, the "EXAMPLE" every vendor's sample key carries, and Microsoft's
 * documented SQL Server sample password (`yourStrong(!)Password`, `YourStrong@Passw0rd`).
 */
const VENDOR_EXAMPLE =
  /EXAMPLE|^AKIAIOSFODNN7|^wJalrXUtnFEMI\/K7MDENG|yourStrong(\(!\)|@)Passw(or|0)d|YourStrongPassw0rd/i;

/** What a value next to a secret's name is, when it is not a secret: the rule that decided. */
export type NotASecret =
  | "empty"
  | "short"
  | "placeholder"
  | "secret-store"
  | "encrypted"
  | "vendor-example"
  | "dummy"
  | "same-as-user"
  | "names-a-secret"
  | "reference"
  | "prose"
  | "not-a-credential";

/**
 * Why a literal written under a secret's name is not a secret, or undefined when it is one:
 * placeholders (`${VAR}`, `{{ .Values.x }}`, `<your-key>`, `changeme`), references to a secret
 * store, encrypted values, vendors' documented examples, obvious dummies, a password equal to its
 * user name or to a word of its own key, file paths and URLs, prose.
 *
 * @example notASecret("${DB_PASSWORD}", "password", { key: "password" }) // "placeholder"
 * @example notASecret("Pr0d-Passw0rd!", "password", { key: "password" }) // undefined
 */
export function notASecret(
  value: string,
  kind: SecretKeyKind,
  context: { key: string; users?: readonly string[] },
): NotASecret | undefined {
  const v = value.trim();
  if (v === "" || v === '""' || v === "''") return "empty";
  if (VENDOR_EXAMPLE.test(v)) return "vendor-example";
  if (PLACEHOLDER_SYNTAX.test(v)) return "placeholder";
  if (SECRET_STORE.test(v)) return "secret-store";
  if (ENCRYPTED.test(v)) return "encrypted";
  if (PLACEHOLDER_WORDS.test(v)) return "placeholder";
  const lower = v.toLowerCase();
  if (DUMMIES.has(lower) || isSequence(lower) || lower.replace(ONLY_SECRET_WORDS, "") === "") return "dummy";
  if (context.users?.some((u) => u.toLowerCase() === lower)) return "same-as-user";
  if (keyWords(context.key).includes(lower)) return "same-as-user";
  // `DB_PASSWORD`, `YOUR_API_KEY`, `TU_CONTRASE\u00d1A`, `mongodb-root-password`, `spring.mail.password`:
  // the name of a secret, not one (`UberSecretPassword`, one word, is a password).
  if (/^\p{Lu}[\p{Lu}\d]*(_[\p{Lu}\d]+)+$/u.test(v)) return "names-a-secret";
  // `NOPASSWD`, `Variables.oracle.admin.password`: a keyword or a property's name holding a secret word.
  if ((/^[A-Z]+$/.test(v) || /^\w+(\.\w+){2,}$/.test(v)) && MAY_NAME_SECRET.test(v)) return "names-a-secret";
  // Words of a natural language where the value goes ("fill in your key" written in Chinese).
  if (/[\u0080-\uffff]/.test(v) && /\p{L}{2}/u.test(v.replace(/[A-Za-z]/g, ""))) return "prose";
  if (/^(\.{0,2}\/|~\/|[A-Za-z]:\\|classpath:|[a-z][a-z0-9+.-]*:\/\/)/i.test(v)) return "reference";
  // A connection string: its password, if any, is judged inside it (`credentialsInValue`).
  if (CONNECTION_PART.test(v) && v.includes(";")) return "reference";
  if (
    /\.(pem|key|crt|cer|p12|pfx|jks|json|txt|ya?ml|env|keystore|gpg|asc|der|sh|ps1|bat|cmd|py|rb|js|sql|log|xml|properties|conf|cfg|ini)$/i.test(
      v,
    )
  ) {
    return "reference";
  }
  if (/\s/.test(v)) return "prose";
  if (v.length < 4) return "short";
  if (kind === "key" && !looksRandom(v)) return "not-a-credential";
  if (kind === "token") {
    // A token or key is long and not a plain word: `abc`, `bearer`, `header` are not tokens.
    if (v.length < 8 || /^[a-z]+$/i.test(v) || /^\d+[smhdw]?$/.test(v) || shannonEntropy(v) < 2.5)
      return "not-a-credential";
  }
  return undefined;
}

/** A credential found inside a value (a connection string, a URL, an auth header). */
export interface ValueCredential {
  /** The secret itself (the password, the header's credential). */
  value: string;
  rule:
    | "connection-string"
    | "url-credentials"
    | "authorization-header"
    | "piped-password"
    | "password-argument"
    | "command-option"
    | "env-assignment"
    | "provider-format";
  label: string;
}

const CONNECTION_PART =
  /(?:server|data source|host|user id|uid|database|initial catalog|accountname|endpoint|defaultendpointsprotocol|dsn|driver)\s*=/i;
const CONNECTION_SECRET =
  /(?:^|[;"'\s{(,])\s*(password|pwd|accountkey|sharedaccesskey|shared_access_key|sharedsecretvalue)\s*=\s*(?:'([^']*)'|"([^"]*)"|([^;"'\s<>,)]*))/gi;
const CONNECTION_USER = /(?:user id|uid|user|username)\s*=\s*(?:'([^']*)'|"([^"]*)"|([^;"'\s]*))/i;
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]{1,20}):\/\/([^\s:/@'"`<>{}()[\]]+):([^\s/@'"`<>]+)@[^\s'"`<>]/gi;
/**
 * Calls whose argument is a password, as data: the pattern, and the groups holding the user (when
 * the call takes one) and the password. `getConnection(url, "app", "pw")`, `smtp.login(user, "pw")`,
 * `passwordEncoder.encode("admin123")`, `auth=("me", "pw")`, `new NetworkCredential("me", "pw")`.
 */
const PASSWORD_ARGUMENTS: ReadonlyArray<{ pattern: RegExp; user?: number; password: number; call: string }> = [
  {
    call: "getConnection",
    pattern: /\bgetConnection\(\s*[^,()]+,\s*"([^"]*)"\s*,\s*"([^"]+)"\s*\)/g,
    user: 1,
    password: 2,
  },
  {
    call: "login",
    pattern: /\blogin\(\s*(?:"([^"]*)"|'([^']*)'|[\w.]+)\s*,\s*(?:"([^"]+)"|'([^']+)')\s*\)/g,
    user: 1,
    password: 3,
  },
  {
    call: "auth=",
    pattern: /\bauth\s*=\s*\(\s*(?:"([^"]*)"|'([^']*)')\s*,\s*(?:"([^"]+)"|'([^']+)')\s*\)/g,
    user: 1,
    password: 3,
  },
  {
    call: "NetworkCredential",
    pattern: /\b(?:NetworkCredential|PasswordAuthentication)\(\s*"([^"]*)"\s*,\s*"([^"]+)"/g,
    user: 1,
    password: 2,
  },
  {
    call: "setPassword",
    pattern: /\.(?:setPassword|withPassword|password)\(\s*(?:"([^"]+)"|'([^']+)')\s*\)/g,
    password: 1,
  },
  {
    call: "a password hash",
    pattern:
      /(?:\b\w*(?:[Ee]ncoder|[Hh]asher)\s*\.\s*(?:encode|hash)|\bbcrypt\.hash(?:Sync)?|\bhashpw|\bmake_password|\bHash::make|\bpassword_hash|\bgenerate_password_hash)\(\s*b?(?:"([^"]+)"|'([^']+)')/g,
    password: 1,
  },
];

/**
 * Passwords passed to calls (`PASSWORD_ARGUMENTS`), in a text that may hold several lines: a call's
 * arguments may be written over more than one (`getConnection(url,\n "app", "pw")`). Each with
 * the index where its match starts.
 *
 * @example passwordArguments('getConnection(url,\n  "app", "java1234")')[0]?.value // "java1234"
 */
export function passwordArguments(text: string): Array<ValueCredential & { index: number }> {
  const out: Array<ValueCredential & { index: number }> = [];
  for (const { pattern, user, password, call } of PASSWORD_ARGUMENTS) {
    for (const m of text.matchAll(pattern)) {
      // A group and the next one are the same value in double or single quotes.
      const value = m[password] ?? m[password + 1] ?? "";
      const users = user === undefined ? [] : [m[user] ?? m[user + 1] ?? ""];
      if (value === "" || notASecret(value, "password", { key: "password", users }) !== undefined) continue;
      out.push({ value, rule: "password-argument", label: `password passed to ${call}`, index: m.index });
    }
  }
  return out;
}

/** `DB_PASSWORD=x` inside a line: a command's `--env`/`-e`, an `env:` string, `export A=x && export B=y`. */
const ENV_ASSIGNMENT = /(?:^|[\s'"(;&|])(?:export\s+)?([A-Z][A-Z0-9_]*)=("[^"]*"|'[^']*'|[^\s'";&|()[\]{}]+)/g;

/** `echo 'root:pw' | chpasswd`: a user's password set from a literal. */
const CHPASSWD = /\becho\s+(?:-e\s+)?["']?([\w.-]+):([^'"\s|]+)["']?\s*\|\s*(?:sudo\s+)?chpasswd/g;

/** `Geocode.setApiKey("...")`, `client.setAccessToken("...")`: a key passed to its setter. */
const KEY_SETTER = /\.set(?:Api|Access|Auth|Secret|Client)?(?:Key|Token|Secret)\(\s*["']([^"']{8,})["']/g;

/** A Google API key, whatever it is assigned to. */
const GOOGLE_API_KEY = /\bAIza[0-9A-Za-z_-]{35}\b/g;

/** Go's MySQL DSN, `user:password@tcp(host)/db`: user info without a scheme. */
const GO_DSN = /(?:^|["'`\s])([\w.-]+):([^\s@"'`/:]+)@(?:tcp|unix)\(/g;

/** `-Dkeystore.password=x`, `--db-password=x`: an option on a command line, named like a key. */
const COMMAND_OPTION = /(?:^|\s)(?:-D|--)([A-Za-z][\w.-]*)=("[^"]*"|'[^']*'|[^\s"']+)/g;

/** `echo "p4ss" | docker login -u me --password-stdin`: a literal piped into a login. */
const PIPED_PASSWORD = /\becho\s+(?:-n\s+)?(?:"([^"$`]+)"|'([^']+)'|([^\s|$`'"]+))\s*\|\s*[^|]*--password-stdin/g;
const AUTH_HEADER = /\bAuthorization["']?\s*[:=,]\s*["']?\s*(Basic|Bearer)\s+([A-Za-z0-9._~+/-]{8,}=*)/gi;

/** What a rule of `credentialsInValue` needs besides a secret word: a URL, a header, a call, a pipe, a key's shape. */
const VALUE_CUE =
  /:\/\/|authorization|\becho\b|getconnection|login\(|auth\s*=|credential|encoder|hasher|bcrypt|hashpw|make_password|hash::make|password_hash|chpasswd|AIza|@(tcp|unix)\(/i;

/**
 * False only when no rule of `credentialsInValue` can find anything in a line: it names no secret
 * (`MAY_NAME_SECRET`: connection-string passwords, options, assignments and setters all need one)
 * and has none of the other rules' cues.
 *
 * @example mayHoldValueCredential("const total = order.total * rate;") // false
 */
export function mayHoldValueCredential(line: string): boolean {
  return MAY_NAME_SECRET.test(line) || VALUE_CUE.test(line);
}

/**
 * Credentials written inside a value or a line of any file, code included: a connection string's
 * `Password=`/`Pwd=`/`AccountKey=`, a URL's `user:password@`, an `Authorization: Basic/Bearer`
 * literal. Placeholders, dummies and a password equal to its user are not credentials.
 *
 * @example credentialsInValue("Server=db;User Id=app;Password=Pr0d!pw;")[0]?.rule // "connection-string"
 */
export function credentialsInValue(
  text: string,
  opts: {
    /** User names beside the value, for "a password equal to its user is a default". */
    users?: readonly string[];
    /**
     * Whether `KEY=value` assignments inside the line are read (commands, `env:` strings). False
     * for a configuration file's own lines, which its reader pairs with their context instead.
     */
    assignments?: boolean;
  } = {},
): ValueCredential[] {
  const out: ValueCredential[] = [];
  if (CONNECTION_PART.test(text)) {
    const userMatch = CONNECTION_USER.exec(text);
    const users = userMatch ? [userMatch[1] ?? userMatch[2] ?? userMatch[3] ?? ""] : [];
    for (const m of text.matchAll(CONNECTION_SECRET)) {
      const name = (m[1] ?? "").toLowerCase();
      const value = m[2] ?? m[3] ?? m[4] ?? "";
      const kind = name === "password" || name === "pwd" ? "password" : "token";
      if (notASecret(value, kind, { key: name, users }) !== undefined) continue;
      out.push({
        value,
        rule: "connection-string",
        label: `${name === "pwd" ? "password" : name} in a connection string`,
      });
    }
  }
  for (const m of text.matchAll(URL_CREDENTIALS)) {
    const user = decodeURIComponentSafe(m[2] ?? "");
    const value = m[3] ?? "";
    if (notASecret(decodeURIComponentSafe(value), "password", { key: "password", users: [user] }) !== undefined)
      continue;
    out.push({ value, rule: "url-credentials", label: `password in a ${m[1] ?? ""}:// URL` });
  }
  const optionUsers = [...text.matchAll(COMMAND_OPTION)]
    .filter((m) => USER_KEY.test(m[1] ?? ""))
    .map((m) => (m[2] ?? "").replace(/^["']|["']$/g, ""));
  for (const m of text.matchAll(COMMAND_OPTION)) {
    const name = m[1] ?? "";
    const value = (m[2] ?? "").replace(/^["']|["']$/g, "");
    // `docker run --secret=db_pwd`, `podman --secret=...`: the option takes a secret's name.
    const kind = name === "secret" ? undefined : secretKeyKind(name);
    if (!kind || notASecret(value, kind, { key: name, users: optionUsers }) !== undefined) continue;
    out.push({
      value,
      rule: "command-option",
      label: `${kind === "password" ? "password" : "secret"} in option ${name}`,
    });
  }
  out.push(...passwordArguments(text));
  const envUsers = [
    ...(opts.users ?? []),
    ...[...text.matchAll(ENV_ASSIGNMENT)]
      .filter((m) => USER_KEY.test(m[1] ?? ""))
      .map((m) => (m[2] ?? "").replace(/^["']|["']$/g, "")),
    // `psql -U app`, `mysql -u root`, `--username=app`: the user a command logs in as.
    ...[...text.matchAll(/(?:^|\s)(?:-[Uu]\s*|--user(?:name)?[= ])["']?([\w.@-]+)/g)].map((m) => m[1] ?? ""),
  ];
  for (const m of opts.assignments === false ? [] : text.matchAll(ENV_ASSIGNMENT)) {
    // `X=sys.argv[2]`, `X=get_password()`: an expression, not a literal.
    if (/^[[(]/.test(text.slice(m.index + m[0].length))) continue;
    const name = m[1] ?? "";
    const value = (m[2] ?? "").replace(/^["']|["']$/g, "");
    const kind = secretKeyKind(name);
    if (!kind || notASecret(value, kind, { key: name, users: envUsers }) !== undefined) continue;
    if (kind !== "password" && notASecret(value, "token", { key: name }) !== undefined) continue;
    out.push({ value, rule: "env-assignment", label: `${kind === "password" ? "password" : "secret"} in ${name}` });
  }
  for (const m of text.matchAll(CHPASSWD)) {
    const value = m[2] ?? "";
    if (notASecret(value, "password", { key: "password", users: [m[1] ?? ""] }) !== undefined) continue;
    out.push({ value, rule: "piped-password", label: "password set with chpasswd" });
  }
  for (const m of text.matchAll(KEY_SETTER)) {
    const value = m[1] ?? "";
    if (notASecret(value, "token", { key: "token" }) !== undefined) continue;
    out.push({ value, rule: "password-argument", label: "key passed to its setter" });
  }
  for (const m of text.matchAll(GOOGLE_API_KEY)) {
    if (!isSequence(m[0])) out.push({ value: m[0], rule: "provider-format", label: "Google API key" });
  }
  for (const m of text.matchAll(GO_DSN)) {
    const value = m[2] ?? "";
    if (notASecret(value, "password", { key: "password", users: [m[1] ?? ""] }) !== undefined) continue;
    out.push({ value, rule: "url-credentials", label: "password in a Go DSN" });
  }
  for (const m of text.matchAll(PIPED_PASSWORD)) {
    const value = m[1] ?? m[2] ?? m[3] ?? "";
    if (notASecret(value, "password", { key: "password" }) !== undefined) continue;
    out.push({ value, rule: "piped-password", label: "password piped into a login (--password-stdin)" });
  }
  for (const m of text.matchAll(AUTH_HEADER)) {
    const scheme = m[1] ?? "";
    const value = m[2] ?? "";
    if (scheme.toLowerCase() === "basic") {
      const decoded = Buffer.from(value, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon < 0 || !/^[\x20-\x7e]+$/.test(decoded)) continue;
      const password = decoded.slice(colon + 1);
      if (notASecret(password, "password", { key: "password", users: [decoded.slice(0, colon)] }) !== undefined)
        continue;
    } else if (notASecret(value, "token", { key: "token" }) !== undefined || value.length < 16) continue;
    out.push({ value, rule: "authorization-header", label: `${scheme} credential in an Authorization header` });
  }
  return out;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Shannon entropy in bits per character.
 *
 * @example shannonEntropy("aaaa") // 0
 */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
