/** Question words mapped to what the code says for them. */
const SYNONYMS: Array<[RegExp, string]> = [
  [/^(expir\w*|exp|ttl|lifetime|timeout)$/i, "\\bexp\\b|expir|\\bttl\\b|maxAge"],
  [/^(sign\w*|verif\w*|hmac|tamper\w*)$/i, "signature|verify\\w*|hmac|timingSafeEqual"],
  [/^(log|logs|logged|logging|logger)$/i, "logger\\.|console\\.|\\blog\\."],
  [/^(tokens?|jwt)$/i, "token|jwt"],
  [/^(passwords?|hash\w*)$/i, "password|bcrypt|argon2|scrypt"],
  [/^(redact\w*|mask\w*)$/i, "redact|censor|mask"],
  [/^(sessions?)$/i, "session"],
];
const STOPWORDS = new Set(
  "does do did is are was were the a an and or but of to in on for with still this that these those it its by from at be been has have had not no any all new old code change changes changed check checks checking what which who how why when where can could should would will there their them they please whether safe".split(
    " ",
  ),
);

/** One key word of a question and the regular expression (source) the code would use for it. */
export interface QuestionTerm {
  word: string;
  source: string;
}

/**
 * The key words of a person's question (at most six), each with the synonyms the code is likely
 * to use (expiry → exp/expires/expiry).
 *
 * @example questionTerms("Does it still check expiry?")[0] // { word: "expiry", source: "\\bexp\\b|expir|\\bttl\\b|maxAge" }
 */
export function questionTerms(question: string): QuestionTerm[] {
  const terms: QuestionTerm[] = [];
  for (const word of question.toLowerCase().match(/[a-z][a-z0-9_]+/g) ?? []) {
    if (STOPWORDS.has(word) || word.length < 3) continue;
    const source = SYNONYMS.find(([re]) => re.test(word))?.[1] ?? word.replace(/[^a-z0-9_]/g, "");
    if (!terms.some((t) => t.source === source)) terms.push({ word, source });
    if (terms.length >= 6) break;
  }
  return terms;
}

/**
 * A case-insensitive grep pattern (`/…/i`) for the key words of a question, or undefined when the
 * question has no usable words.
 *
 * @example questionPattern("Does it still check expiry?") // "/\\bexp\\b|expir|\\bttl\\b|maxAge/i"
 */
export function questionPattern(question: string): string | undefined {
  const terms = questionTerms(question);
  return terms.length > 0 ? `/${terms.map((t) => t.source).join("|")}/i` : undefined;
}
