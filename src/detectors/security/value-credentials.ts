import { MAY_NAME_SECRET, secretKeyKind, USER_KEY } from "./secret-names.js";
import { CONNECTION_PART, isSequence, notASecret } from "./secret-values.js";

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
