import { keyWords, MAY_NAME_SECRET, type SecretKeyKind } from "./secret-names.js";

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

/**
 * AWS's documented example keys, the "EXAMPLE" every vendor's sample key carries, and Microsoft's
 * documented SQL Server sample password (`yourStrong(!)Password`, `YourStrong@Passw0rd`).
 */
const VENDOR_EXAMPLE = /EXAMPLE|yourStrong(\(!\)|@)Passw(or|0)d|YourStrongPassw0rd/i;

/** The parts a connection string has besides its password: `Server=`, `Host=`, `User Id=`, `Data Source=`... */
export const CONNECTION_PART =
  /(?:server|data source|host|user id|uid|database|initial catalog|accountname|endpoint|defaultendpointsprotocol|dsn|driver)\s*=/i;

/**
 * A vendor's documented example key or password, in docs and samples by design.
 *
 * @example isVendorExample("AKIAIOSFODNN7EXAMPLE") // true
 */
export function isVendorExample(value: string): boolean {
  return VENDOR_EXAMPLE.test(value);
}

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
