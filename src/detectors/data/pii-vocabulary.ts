/**
 * The vocabulary the data-handling detectors (DATA-01..03) share: which identifiers name personal
 * data or secrets, and how to read code lines so that only code (not prose in string literals or
 * comments) is judged. Heuristics, tuned against the false-positive traps in the tests:
 * `{ userId }`, `emailSent`, `tokenCount`, `nextPageToken`, `server.address`, `maskEmail(x)`.
 *
 * @example classifyIdentifier("dateOfBirth") // "date of birth"
 */

import type { SyntaxLanguage } from "../code/grammars.js";
import {
  classifyIdentifier,
  type DataKind,
  isPersonalKind,
  LEADING_META,
  RULES,
  splitWords,
  THING_SUBJECTS,
  type WholeKind,
  words,
} from "./pii-words.js";

export {
  classifyIdentifier,
  type DataKind,
  isPersonalKind,
  type PersonalKind,
  type SecretKind,
  splitWords,
  type WholeKind,
} from "./pii-words.js";

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
