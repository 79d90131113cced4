/**
 * The vocabulary the data-handling detectors (DATA-01..03) share: which identifiers name personal
 * data or secrets, and how to read code lines so that only code (not prose in string literals or
 * comments) is judged. Heuristics, tuned against the false-positive traps in the tests:
 * `{ userId }`, `emailSent`, `tokenCount`, `nextPageToken`, `server.address`, `maskEmail(x)`.
 *
 * @example classifyIdentifier("dateOfBirth") // "date of birth"
 */

import type { SyntaxLanguage } from "../code/grammars.js";

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

/**
 * Whole payloads, which carry whatever the user sent or whatever a record holds: a request, its
 * body, its query or route parameters, its headers, and a whole user (customer, account holder...)
 * object.
 */
export type WholeKind = "request" | "request body" | "request parameters" | "request headers" | "user record";

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
  {
    kind: "payment card",
    ends: words("cardnumber creditcard creditcardnumber ccnumber cvv cvc iban bankaccountnumber"),
  },
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

/** Objects whose `fullName` / `displayName` is a thing's, not a person's (`version.full_name`, `repo.full_name`). */
const THING_SUBJECTS = new Set(
  words(`version versions gem rubygem package pkg repo repository project module file dir directory branch tag team
    org organization workspace app application service job queue product item event plan model table column field
    class type task spec dependency crate library bucket release artifact image`),
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
    if (rule.kind === "name" && parentLast && THING_SUBJECTS.has(parentLast)) return undefined;
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

const REQUEST_OBJECTS = new Set(["req", "request", "ctx.request", "ctx.req", "this.request", "self.request"]);
/** Go handlers name their `*http.Request` `r`. */
const GO_REQUEST_OBJECTS = new Set(["r", "req", "request", "c.request", "ctx.request"]);
const WHOLE_PROPS: Record<string, WholeKind | "cookie"> = {
  body: "request body",
  rawbody: "request body",
  form: "request body",
  postform: "request body",
  multipartform: "request body",
  files: "request body",
  headers: "request headers",
  header: "request headers",
  cookies: "cookie",
  params: "request parameters",
  query: "request parameters",
  querystring: "request parameters",
  searchparams: "request parameters",
  args: "request parameters",
  values: "request parameters",
  get: "request parameters",
};

/** How a language names things that `findDataMentions` cannot tell from the code alone. */
export interface MentionOptions {
  /** Go: `r` is the handler's request (`r.Header`, `r.Form`, `r.URL.Query()`). */
  go?: boolean;
  /** PHP: members are read with `->`, `?->` and `::` (`$user->email`, `User::$email`). */
  arrows?: boolean;
  /**
   * Names that hold a whole request's data by themselves, lower case (PHP's `$_POST`, Rails'
   * `params`), read as such alone or converted (`params.inspect`, `params.to_unsafe_h`).
   */
  wholeNames?: Readonly<Record<string, WholeKind | "cookie">>;
  /** Calls on a request object that return its data, lower case (Laravel's `$request->all()`). */
  requestCalls?: Readonly<Record<string, WholeKind>>;
}

/** Calls that turn a whole payload into text or a map: still the whole payload. */
const CONVERSIONS = new Set(
  words("inspect to_h to_hash to_unsafe_h to_json to_s as_json permit all toString to_string tostring"),
);

/**
 * What each grammar needs beyond the shared vocabulary, as data: a language absent here reads
 * with the defaults.
 *
 * @example MENTIONS_BY_LANGUAGE.php?.arrows // true
 */
export const MENTIONS_BY_LANGUAGE: Readonly<Partial<Record<SyntaxLanguage, MentionOptions>>> = {
  go: { go: true },
  php: {
    arrows: true,
    wholeNames: {
      $_post: "request body",
      $_files: "request body",
      $_get: "request parameters",
      $_request: "request parameters",
      $_cookie: "cookie",
    },
    requestCalls: { all: "request body", input: "request body", post: "request body", query: "request parameters" },
  },
  ruby: { wholeNames: { params: "request parameters" }, requestCalls: { raw_post: "request body" } },
  java: { requestCalls: { getparametermap: "request parameters", getinputstream: "request body" } },
  kotlin: { requestCalls: { receivetext: "request body", receiveparameters: "request body" } },
};

/**
 * A language's mention options.
 *
 * @example mentionOptionsFor("go") // { go: true }
 */
export function mentionOptionsFor(lang: SyntaxLanguage | undefined): MentionOptions {
  return (lang && MENTIONS_BY_LANGUAGE[lang]) || {};
}

/**
 * A whole request or part of one: `req.body`, `req.query`, `req.params`, `request.headers`, Flask's
 * `request.json` / `request.form` / `request.args`, Django's `request.GET` / `request.POST`, Go's
 * `r.Header`, `r.Form`, `r.URL.Query()`, `await req.json()`, and a bare `req` / `request`.
 */
function wholeRequestKind(segments: string[], called: boolean, options: MentionOptions): DataKind | undefined {
  const last = (segments[segments.length - 1] ?? "").toLowerCase();
  if (!called && (last === "req" || last === "request")) {
    return "request";
  }
  const wholeName = options.wholeNames?.[(segments[0] ?? "").toLowerCase()];
  if (wholeName && segments.slice(1).every((s) => CONVERSIONS.has(s.toLowerCase()))) return wholeName;
  if (segments.length < 2) return undefined;
  const object = segments.slice(0, -1).join(".").toLowerCase();
  const objects = options.go ? GO_REQUEST_OBJECTS : REQUEST_OBJECTS;
  if (options.go && last === "query" && /(?:^|\.)(?:r|req|request)\.url$/.test(object)) return "request parameters";
  if (!objects.has(object) && !/request$/.test(object)) return undefined;
  const requestCall = called ? options.requestCalls?.[last] : undefined;
  if (requestCall) return requestCall;
  if (called && last !== "json" && last !== "cookies") return undefined;
  const whole = WHOLE_PROPS[last];
  if (whole) return whole;
  if (last === "json" || (object === "request" && (last === "data" || last === "post") && !called)) {
    return "request body";
  }
  return undefined;
}

/** The last word of an identifier that names a whole person record (`user`, `currentUser`, `customers`). */
const PERSON_RECORDS = new Set(
  words(`user users customer customers person people patient patients member members employee employees
    applicant applicants subscriber subscribers`),
);

/** `user`, `req.user`, `currentUser`: a whole person record rather than one of its fields. */
function isPersonRecord(segments: readonly string[]): boolean {
  const last = segments[segments.length - 1] ?? "";
  const parts = splitWords(last);
  const tail = parts[parts.length - 1] ?? "";
  return PERSON_RECORDS.has(tail) && !LEADING_META.has(parts[0] ?? "");
}

/** Callees that make data safe to log: `maskEmail(x)`, `redact(body)`, `hash(email)`. */
const SAFE_CALL =
  /(?<![\w$])[\w$.]*(?:mask|Mask|redact|Redact|hash|Hash|anonymi[sz]e|Anonymi[sz]e|pseudonymi[sz]e|scrub|Scrub|obfuscate|Obfuscate|sha256|digest|sanitize|Sanitize|sanitise|Sanitise|safe|Safe|public|Public)[\w$]*\s*\(/g;

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
const MASKED_VALUE = /\s*[:=]\s*(REDACTED|[\w$]*(?:masked|Masked|redacted|Redacted|hashed|Hashed))\b/y;
/** A key or keyword name (`{ user: ... }`, `user=...`, Go's `User: ...`), not a value. */
const KEY_AFTER = /\s*(?::(?!:)|=(?!=))/y;
const ACCESS_PATH = /(?<![\w$.#])[A-Za-z_$][\w$]*(?:\s*[!?&]?\.\s*#?[A-Za-z_$][\w$]*)*/g;
/** The same, with PHP's `->`, `?->` and `::` as member access too. */
const ARROW_PATH = /(?<![\w$.#>:])[A-Za-z_$][\w$]*(?:(?:\s*[!?&]?\.\s*#?|\s*\??->\s*|::)[A-Za-z_$][\w$]*)*/g;
const SEGMENT_BREAK = /\s*[!?&]?\.\s*#?/;
const ARROW_BREAK = /\s*[!?&]?\.\s*#?|\s*\??->\s*|::/;
/** A key whose value is an id read from the data (`api_key: api_key&.id`): it names the id. */
const ID_VALUE = /\s*[:=]\s*[\w$]+(?:\s*(?:[!?&]?\.|->)\s*[\w$]+)*\s*(?:[!?&]?\.|->)\s*(?:id|uuid|guid)\b(?!\s*\()/y;
/** A key's value when it is an access path: `full_name: version.full_name`. */
const PATH_VALUE = /\s*[:=]\s*([\w$]+(?:\s*(?:[!?&]?\.|->)\s*[\w$]+)+)(?!\s*\()/y;

/** A key named after the field of a thing it holds (`full_name: version.full_name`): the value decides, and it names no person. */
function keysThingField(key: string, text: string, end: number): boolean {
  PATH_VALUE.lastIndex = end;
  const value = PATH_VALUE.exec(text)?.[1];
  if (!value) return false;
  const parts = value.split(/\s*(?:[!?&]?\.|->)\s*/);
  const field = parts[parts.length - 1] ?? "";
  const parent = splitWords(parts[parts.length - 2] ?? "");
  return splitWords(field).join("") === splitWords(key).join("") && THING_SUBJECTS.has(parent[parent.length - 1] ?? "");
}

/** The last words of a last segment that name a property of the data, not the data: `api_key.id`, `key.owner_id`, `email.length`. */
const PROPERTY_OF_DATA = new Set(words("id ids uuid guid length size count"));

/**
 * Mentions of personal data, secrets and whole payloads in a line of code whose string literals
 * are already empty (`sanitizeCode`, or the parser's `codeRows`). Function names are skipped
 * (`sendEmail(x)`), except getters (`user.getEmail()`); object keys count (`{ email: e }`) unless
 * their value is masked. A whole request (`req`, `req.body`, `req.query`, `request.headers`) or a
 * whole person record (`user`, `req.user`, `currentUser`) counts as a value, not as a key
 * (`{ user: user.id }` names only an id).
 *
 * @example findDataMentions('{ userId, email: user.email }').map((m) => m.text) // ["email", "user.email"]
 */
export function findDataMentions(code: string, options: MentionOptions = {}): DataMention[] {
  const text = dropSafeCalls(code);
  const out: DataMention[] = [];
  for (const m of text.matchAll(options.arrows ? ARROW_PATH : ACCESS_PATH)) {
    const raw = m[0];
    const end = (m.index ?? 0) + raw.length;
    CALL_AFTER.lastIndex = end;
    const called = CALL_AFTER.test(text);
    const segments = raw.split(options.arrows ? ARROW_BREAK : SEGMENT_BREAK).filter((s) => s.length > 0);
    KEY_AFTER.lastIndex = end;
    const isKey = KEY_AFTER.test(text);
    const whole = isKey ? undefined : wholeRequestKind(segments, called, options);
    if (whole) {
      out.push({ kind: whole, text: segments.join(".") });
      continue;
    }
    MASKED_VALUE.lastIndex = end;
    if (MASKED_VALUE.test(text)) continue;
    ID_VALUE.lastIndex = end;
    if (isKey && (ID_VALUE.test(text) || keysThingField(segments[segments.length - 1] ?? "", text, end))) continue;
    if (
      segments.length > 1 &&
      !called &&
      PROPERTY_OF_DATA.has(splitWords(segments[segments.length - 1] ?? "").pop() ?? "")
    )
      continue;
    let named = false;
    for (let i = segments.length - 1; i >= 0 && !named; i--) {
      const segment = segments[i] ?? "";
      const isCallee = i === segments.length - 1 && called;
      if (isCallee && !/^get[A-Z_]/.test(segment)) continue;
      const name = isCallee ? segment.replace(/^get_?/, "") : segment;
      const kind = classifyIdentifier(name, i > 0 ? segments[i - 1] : undefined);
      if (kind) {
        out.push({ kind, text: segments.slice(0, i + 1).join(".") });
        named = true;
      }
    }
    if (!named && !isKey && !called && isPersonRecord(segments))
      out.push({ kind: "user record", text: segments.join(".") });
  }
  return out;
}

/**
 * Every word a mention needs, lower case: the data words, `name` and `address`, the whole-request
 * words and the person records. An identifier's letters and digits, lower-cased, hold the words
 * `classifyIdentifier` and the request and record checks look for.
 */
const MENTION_WORDS = new RegExp(
  [
    ...RULES.flatMap((r) => r.ends),
    "name",
    "address",
    "req",
    "json",
    "data",
    "post",
    ...Object.keys(WHOLE_PROPS),
    ...PERSON_RECORDS,
  ].join("|"),
);

/**
 * False only when `findDataMentions` can find nothing in any part of this code, however its
 * strings and comments are read: none of the words a mention needs appears in its letters and
 * digits. A cheap check before reading the code as `findDataMentions` does.
 *
 * @example mayMentionData('("order loaded", { orderId: order.id })') // false
 */
export function mayMentionData(code: string): boolean {
  return MENTION_WORDS.test(code.toLowerCase().replace(/[^a-z0-9]/g, ""));
}

/** The words a personal-data identifier needs, lower case: its kinds' data words, `name` and `address`. */
const PERSONAL_WORDS = new RegExp(
  [...RULES.filter((r) => isPersonalKind(r.kind)).flatMap((r) => r.ends), "name", "address"].join("|"),
);

/**
 * False only when no identifier in the text can name personal data (`classifyIdentifier` gives a
 * personal kind): none of their words appears in its letters and digits, lower-cased.
 *
 * @example mayNamePersonalData("total_cents INTEGER NOT NULL") // false
 */
export function mayNamePersonalData(text: string): boolean {
  return PERSONAL_WORDS.test(text.toLowerCase().replace(/[^a-z0-9]/g, ""));
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
