import { sanitizeCode } from "../code-lines.js";

/**
 * The vocabulary the data-handling detectors (DATA-01..03) share: which identifiers name personal
 * data or secrets, and how to read code lines so that only code (not prose in string literals or
 * comments) is judged. Heuristics, tuned against the false-positive traps in the tests:
 * `{ userId }`, `emailSent`, `tokenCount`, `nextPageToken`, `server.address`, `maskEmail(x)`.
 *
 * @example classifyIdentifier("dateOfBirth") // "date of birth"
 */


/** Personal data about a person (GDPR-style personal data). */
export type PersonalKind =
  | "email"
  | "phone"
  | "name"
  | "address"
  | "date of birth"
  | "government id"
  | "payment card"
  | "sensitive trait";

/** Secrets and credentials that must never reach a log. */
export type SecretKind = "password" | "token" | "secret" | "session id" | "cookie" | "authorization";

/** Whole request payloads, which carry whatever the user sent. */
export type WholeKind = "request body" | "request headers";

export type DataKind = PersonalKind | SecretKind | WholeKind;

const PERSONAL: ReadonlySet<DataKind> = new Set<DataKind>([
  "email",
  "phone",
  "name",
  "address",
  "date of birth",
  "government id",
  "payment card",
  "sensitive trait",
]);

/** True for personal data (not secrets, not whole payloads). */
export function isPersonalKind(kind: DataKind): kind is PersonalKind {
  return PERSONAL.has(kind);
}

interface Rule {
  kind: DataKind;
  /** The identifier's words, joined, must end with one of these. */
  ends: readonly string[];
  /** ...but not with one of these (network addresses, pagination tokens). */
  unless?: readonly string[];
}

/** A space-separated word list, so the vocabulary reads as lists rather than a column of strings. */
function words(list: string): string[] {
  return list.split(/\s+/).filter((w) => w.length > 0);
}

const RULES: readonly Rule[] = [
  { kind: "email", ends: words("email emails emailaddress emailaddresses emailaddr") },
  { kind: "phone", ends: words("phone phones phonenumber phonenumbers phoneno telephone mobilenumber msisdn") },
  { kind: "date of birth", ends: words("dob dateofbirth birthdate birthday birthdt") },
  {
    kind: "government id",
    ends: words(`ssn socialsecuritynumber socialsecurityno nationalid nationalidnumber nationalinsurancenumber
      passport passportnumber passportno driverlicense driverslicense driverlicence driverslicence`),
  },
  { kind: "payment card", ends: words("cardnumber creditcard creditcardnumber ccnumber cvv cvc iban bankaccountnumber") },
  {
    kind: "name",
    ends: words("firstname lastname fullname surname forename givenname familyname middlename legalname maidenname"),
  },
  {
    kind: "address",
    ends: words(`homeaddress streetaddress postaladdress mailingaddress billingaddress shippingaddress
      deliveryaddress residentialaddress useraddress customeraddress contactaddress addressline streetname
      postcode zipcode`),
  },
  {
    kind: "sensitive trait",
    ends: words(`gender ethnicity religion sexualorientation nationality diagnosis medicalcondition medicalhistory
      healthcondition disability`),
  },
  { kind: "password", ends: words("password passwords passwd passphrase pwd") },
  { kind: "session id", ends: words("sessionid sessionkey sessiontoken sessioncookie") },
  {
    kind: "token",
    ends: words("token jwt bearer otp totp mfacode otpcode"),
    unless: words(`pagetoken nexttoken continuationtoken cancellationtoken canceltoken synctoken resumetoken
      cursortoken lexertoken parsertoken designtoken`),
  },
  {
    kind: "secret",
    ends: words("secret secrets secretkey apikey apikeys privatekey accesskey signingkey credentials credential creds"),
  },
  { kind: "cookie", ends: words("cookie cookies") },
  { kind: "authorization", ends: words("authorization authheader authorizationheader") },
];

/** Words after the data word that still mean the data itself (`emailRaw`, `phone2`). */
const TRAILING_SAME = new Set(
  words(`value values raw plain plaintext str string text list lower lowercase normalized normalised trimmed
    clean cleaned input param`),
);

/** First words that turn a data word into a flag or a question about it (`isEmail`, `hasPhone`). */
const LEADING_META = new Set(
  words(`is has should can must needs need validate valid check verify require requires allow show hide enable use
    send num count max min`),
);

/** Objects whose bare `name` / `address` is a person's. */
const PERSON_SUBJECTS = new Set(
  words(`user users customer customers person people patient member employee contact profile applicant recipient
    buyer student guest subscriber holder cardholder signup`),
);

/** Objects whose bare `address` is a network or memory address. */
const NETWORK_SUBJECTS = new Set(
  words("server socket net ip remote local host conn connection peer listener node wallet contract addr info"),
);

/**
 * Splits an identifier into lower-case words: camelCase, PascalCase, snake_case, kebab-case, digits.
 *
 * @example splitWords("userEmail_2") // ["user", "email", "2"]
 */
export function splitWords(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])(\d)/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/**
 * What kind of personal data or secret an identifier names, if any. `parent` is the object it is
 * read from (`user` in `user.name`), which decides the ambiguous bare words `name` and `address`.
 *
 * @example classifyIdentifier("name", "currentUser") // "name"
 */
export function classifyIdentifier(identifier: string, parent?: string): DataKind | undefined {
  const key = `${identifier}\u0000${parent ?? ""}`;
  if (CLASSIFIED.has(key)) return CLASSIFIED.get(key);
  const kind = classify(identifier, parent);
  if (CLASSIFIED.size >= MEMO_LIMIT) CLASSIFIED.clear();
  CLASSIFIED.set(key, kind);
  return kind;
}

/** Identifiers repeat across a diff (user, id, logger); remembering them keeps big PRs fast. */
const CLASSIFIED = new Map<string, DataKind | undefined>();
const MEMO_LIMIT = 10_000;

function classify(identifier: string, parent?: string): DataKind | undefined {
  const words = splitWords(identifier);
  while (words.length > 1) {
    const last = words[words.length - 1] ?? "";
    if (TRAILING_SAME.has(last) || /^\d+$/.test(last)) words.pop();
    else break;
  }
  if (words.length === 0 || LEADING_META.has(words[0] ?? "")) return undefined;
  const joined = words.join("");
  const parentWords = parent ? splitWords(parent) : [];
  const parentLast = parentWords[parentWords.length - 1];
  if (joined === "name" || joined === "address") {
    if (parentLast && PERSON_SUBJECTS.has(parentLast)) return joined === "name" ? "name" : "address";
    if (joined === "address" && !parentWords.some((w) => NETWORK_SUBJECTS.has(w))) return "address";
    return undefined;
  }
  for (const rule of RULES) {
    if (!rule.ends.some((e) => joined.endsWith(e))) continue;
    if (rule.unless?.some((u) => joined.endsWith(u))) continue;
    return rule.kind;
  }
  return undefined;
}

/** One mention of personal data or a secret in code. */
export interface DataMention {
  kind: DataKind;
  /** The expression as written, e.g. "user.email" or "req.body". */
  text: string;
}

const REQUEST_OBJECTS = new Set(["req", "request", "ctx.request", "ctx.req", "this.request"]);
const WHOLE_PROPS: Record<string, WholeKind | "cookie"> = {
  body: "request body",
  rawbody: "request body",
  form: "request body",
  headers: "request headers",
  cookies: "cookie",
};

/** `req.body`, `request.headers`, Flask's `request.json` / `request.form` / `request.data`, `await req.json()`. */
function wholeRequestKind(segments: string[], called: boolean): DataKind | undefined {
  if (segments.length < 2) return undefined;
  const object = segments.slice(0, -1).join(".").toLowerCase();
  const prop = (segments[segments.length - 1] ?? "").toLowerCase();
  if (!REQUEST_OBJECTS.has(object) && !/request$/.test(object)) return undefined;
  const whole = WHOLE_PROPS[prop];
  if (whole) return whole;
  if (prop === "json" || (object === "request" && (prop === "data" || prop === "post") && !called)) {
    return "request body";
  }
  return undefined;
}

/** Callees that make data safe to log: `maskEmail(x)`, `redact(body)`, `hash(email)`. */
const SAFE_CALL =
  /(?<![\w$])[\w$.]*(?:mask|Mask|redact|Redact|hash|Hash|anonymi[sz]e|Anonymi[sz]e|pseudonymi[sz]e|scrub|Scrub|obfuscate|Obfuscate|sha256|digest)[\w$]*\s*\(/g;

/** Replaces each masking call (with its balanced arguments) by the word REDACTED. */
function dropSafeCalls(code: string): string {
  let out = code;
  for (let guard = 0; guard < 20; guard++) {
    SAFE_CALL.lastIndex = 0;
    const m = SAFE_CALL.exec(out);
    if (!m) break;
    let depth = 0;
    let end = out.length;
    for (let i = m.index + m[0].length - 1; i < out.length; i++) {
      if (out[i] === "(") depth++;
      else if (out[i] === ")" && --depth === 0) {
        end = i + 1;
        break;
      }
    }
    out = `${out.slice(0, m.index)} REDACTED ${out.slice(end)}`;
  }
  return out;
}

const CALL_AFTER = /\s*\(/y;
const MASKED_VALUE = /\s*:\s*(REDACTED|[\w$]*(?:masked|Masked|redacted|Redacted|hashed|Hashed))\b/y;
const ACCESS_PATH = /(?<![\w$.#])[A-Za-z_$][\w$]*(?:\s*[!?]?\.\s*#?[A-Za-z_$][\w$]*)*/g;

/**
 * Mentions of personal data, secrets and whole request payloads in a line of code that went
 * through `sanitizeCode` (so string literals are already empty). Function names are skipped
 * (`sendEmail(x)`), except getters (`user.getEmail()`); object keys count (`{ email: e }`) unless
 * their value is masked.
 *
 * @example findDataMentions('{ userId, email: user.email }').map((m) => m.text) // ["email", "user.email"]
 */
export function findDataMentions(code: string): DataMention[] {
  const text = dropSafeCalls(code);
  const out: DataMention[] = [];
  for (const m of text.matchAll(ACCESS_PATH)) {
    const raw = m[0];
    const end = (m.index ?? 0) + raw.length;
    CALL_AFTER.lastIndex = end;
    const called = CALL_AFTER.test(text);
    const segments = raw.split(/\s*[!?]?\.\s*#?/).filter((s) => s.length > 0);
    const whole = wholeRequestKind(segments, called);
    if (whole) {
      out.push({ kind: whole, text: segments.join(".") });
      continue;
    }
    MASKED_VALUE.lastIndex = end;
    if (MASKED_VALUE.test(text)) continue;
    for (let i = segments.length - 1; i >= 0; i--) {
      const segment = segments[i] ?? "";
      const isCallee = i === segments.length - 1 && called;
      if (isCallee && !/^get[A-Z_]/.test(segment)) continue;
      const name = isCallee ? segment.replace(/^get_?/, "") : segment;
      const kind = classifyIdentifier(name, i > 0 ? segments[i - 1] : undefined);
      if (kind) {
        out.push({ kind, text: segments.slice(0, i + 1).join(".") });
        break;
      }
    }
  }
  return out;
}

/**
 * Names mentioned in a set of mentions, deduplicated, for a finding's message.
 *
 * @example describeMentions([{ kind: "email", text: "user.email" }]) // "user.email (email)"
 */
export function describeMentions(mentions: readonly DataMention[], max = 4): string {
  const seen = new Map<string, DataKind>();
  for (const m of mentions) if (!seen.has(m.text)) seen.set(m.text, m.kind);
  const parts = [...seen].slice(0, max).map(([text, kind]) => `${text} (${kind})`);
  return seen.size > max ? `${parts.join(", ")} and ${seen.size - max} more` : parts.join(", ");
}
