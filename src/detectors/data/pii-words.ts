/**
 * Which identifiers name personal data or secrets (the data detectors' words): `dateOfBirth` is a
 * date of birth, `userId` is not personal, `nextPageToken` is no secret.
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

export interface Rule {
  kind: DataKind;
  /** The identifier's words, joined, must end with one of these. */
  ends: readonly string[];
  /** ...but not with one of these (network addresses, pagination tokens). */
  unless?: readonly string[];
}

/** A space-separated word list, so the vocabulary reads as lists rather than a column of strings. */
export function words(list: string): string[] {
  return list.split(/\s+/).filter((w) => w.length > 0);
}

export const RULES: readonly Rule[] = [
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
export const TRAILING_SAME = new Set(
  words(`value values raw plain plaintext str string text list lower lowercase normalized normalised trimmed
    clean cleaned input param`),
);

/** First words that turn a data word into a flag or a question about it (`isEmail`, `hasPhone`). */
export const LEADING_META = new Set(
  words(`is has should can must needs need validate valid check verify require requires allow show hide enable use
    send num count max min`),
);

/** Objects whose bare `name` / `address` is a person's. */
export const PERSON_SUBJECTS = new Set(
  words(`user users customer customers person people patient member employee contact profile applicant recipient
    buyer student guest subscriber holder cardholder signup`),
);

/** Objects whose bare `address` is a network or memory address. */
export const NETWORK_SUBJECTS = new Set(
  words("server socket net ip remote local host conn connection peer listener node wallet contract addr info"),
);

/** Objects whose `fullName` / `displayName` is a thing's, not a person's (`version.full_name`, `repo.full_name`). */
export const THING_SUBJECTS = new Set(
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

export function classify(identifier: string, parent?: string): DataKind | undefined {
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
