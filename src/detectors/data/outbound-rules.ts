import type { SyntaxLanguage } from "../code/grammars.js";
import { type MentionOptions, mentionOptionsFor } from "./pii-vocabulary.js";

/**
 * How each language sends a request out, as data: the DATA-03 detector (pii-third-party.ts) reads
 * a changed file's lines with its language's table and never branches on a language's name. The
 * calls are patterns over a line's code (strings emptied, see `sanitizeCode`); the destination is
 * a URL literal in the call, one bound to a name the call passes (or, where `receiverNamesHost`,
 * to its receiver: Guzzle's `$client->post('/v1/x')` after `$client = new Client(['base_uri' =>
 * 'https://...'])`).
 *
 * @example outboundRulesFor("php").httpCall.test("curl_setopt($ch, CURLOPT_POSTFIELDS, $body)") // true
 */

/** One language's outbound calls. */
export interface OutboundRules {
  /** Outbound HTTP calls, global; a match ends with its `(`, or (Ruby) before arguments written without one. */
  httpCall: RegExp;
  /**
   * Whether the payload may follow the call in the same statement: a chain (`.json(&body)`,
   * `.bodyValue(payload)`) or a block (`client.post(url) { setBody(...) }`).
   */
  followsChain: boolean;
  /** Whether a name bound to a URL may be the call's receiver (`conn.post("/track")`). */
  receiverNamesHost: boolean;
  /**
   * Bindings of a name to a URL written on one line, beyond `name = "https://..."`: each match
   * has the groups `name` and `url` (`$ch = curl_init('https://...')`, `uri = URI("https://...")`).
   */
  urlBindings: readonly RegExp[];
  /** How the language's code names data (PHP's `->`, `$_POST`, Rails' `params`). */
  mentions: MentionOptions;
  /**
   * Whether a whole person record on the lines before the call counts: in typed languages those
   * lines are mostly the handler's signature (`void sync(User user)`, `user: &User`), which sends
   * nothing; their fields (`user.getEmail()`) still count.
   */
  recordsBefore: boolean;
}

/** The calls every language shares (and the only ones JavaScript, Python and Go are read with). */
const SHARED_CALLS = [
  String.raw`(?<![\w$])(?:fetch|got|ky|axios|superagent|needle|request|urlopen)`,
  String.raw`\b(?:axios|got|ky|superagent|needle|requests|httpx|aiohttp|http|https|session|client|urllib\s*\.\s*request|restTemplate|webClient|HttpClient|DefaultClient)` +
    String.raw`\s*\.\s*(?:post|put|patch|get|request|urlopen|Post|PostForm|Get|Do|NewRequest|NewRequestWithContext|send|postForEntity|exchange)`,
];

function callPattern(calls: readonly string[], after = String.raw`\s*\(`): RegExp {
  return new RegExp(`(?:${calls.map((c) => `(?:${c})`).join("|")})${after}`, "g");
}

/** `name = <anything but a string or comparison> "https://..."` on one line: a client or URI built from a URL. */
const BUILT_FROM_URL =
  /(?<![\w$.])@?(?<name>\$?[A-Za-z_]\w*)\s*(?::\s*[\w.<>?]+\s*)?=(?![=>])\s*(?:[^=;"'`]|=>|(?<q>["'])[^"'`]*?\k<q>)*?["'`](?<url>https?:\/\/[^"'`\s]*)/g;

/** A builder's or client's method that takes the destination or sends the body, on a chain. */
const CHAINED = String.raw`\.\s*(?:uri|url|baseUrl|post|put|patch)`;

const FIRST: OutboundRules = {
  httpCall: callPattern(SHARED_CALLS),
  followsChain: false,
  receiverNamesHost: false,
  urlBindings: [],
  mentions: {},
  recordsBefore: true,
};

/** What the six languages read after the first ones share. */
const TYPED = { followsChain: true, receiverNamesHost: true, recordsBefore: false } as const;

/** Every language's rules; the first languages read with the shared calls only. */
const BY_LANGUAGE: Readonly<Partial<Record<SyntaxLanguage, OutboundRules>>> = {
  java: {
    ...FIRST,
    // RestTemplate, WebClient (`.uri(...)`), java.net.http (`.uri(URI.create(...))`), OkHttp (`.url(...)`).
    httpCall: callPattern([
      ...SHARED_CALLS,
      String.raw`\b\w*[rR]estTemplate\s*\.\s*(?:postForObject|postForEntity|postForLocation|exchange|put|patchForObject)`,
      String.raw`\bWebClient\s*\.\s*create`,
      CHAINED,
    ]),
    ...TYPED,
    urlBindings: [BUILT_FROM_URL],
    mentions: mentionOptionsFor("java"),
  },
  kotlin: {
    ...FIRST,
    // Ktor's `client.post(url) { setBody(...) }`, OkHttp, Fuel.
    httpCall: callPattern([
      ...SHARED_CALLS,
      String.raw`\b\w*[cC]lient\s*\.\s*(?:post|put|patch|get|request|submitForm|preparePost)`,
      String.raw`\bFuel\s*\.\s*(?:post|put|patch|get)`,
      CHAINED,
    ]),
    ...TYPED,
    urlBindings: [BUILT_FROM_URL],
    mentions: mentionOptionsFor("kotlin"),
  },
  csharp: {
    ...FIRST,
    httpCall: callPattern([
      ...SHARED_CALLS,
      String.raw`\b(?:PostAsJsonAsync|PutAsJsonAsync|PatchAsJsonAsync|PostAsync|PutAsync|PatchAsync|SendAsync|GetAsync|GetStringAsync|GetFromJsonAsync)`,
      String.raw`\bnew\s+(?:HttpRequestMessage|RestRequest|RestClient)`,
    ]),
    ...TYPED,
    urlBindings: [BUILT_FROM_URL],
    mentions: mentionOptionsFor("csharp"),
  },
  php: {
    ...FIRST,
    // curl, WordPress, Guzzle (`$client->post`), Laravel's `Http::post` and `Http::withToken(...)->post`.
    httpCall: callPattern([
      ...SHARED_CALLS,
      String.raw`\b(?:curl_setopt|curl_setopt_array|curl_init|wp_remote_post|wp_remote_get|wp_remote_request|file_get_contents)`,
      String.raw`(?:->|::)\s*(?:post|put|patch|get|request|postAsync|requestAsync|asForm\(\)\s*->\s*post)`,
    ]),
    ...TYPED,
    urlBindings: [
      BUILT_FROM_URL,
      /curl_setopt\s*\(\s*(?<name>\$\w+)\s*,\s*CURLOPT_URL\s*,\s*["'](?<url>https?:\/\/[^"'\s]*)/g,
    ],
    mentions: mentionOptionsFor("php"),
  },
  ruby: {
    ...FIRST,
    // Net::HTTP, HTTParty, Faraday, RestClient, Excon, Typhoeus, http.rb; with or without parentheses.
    httpCall: callPattern(
      [
        String.raw`\b(?:Net\s*::\s*HTTP|HTTParty|Faraday|RestClient|Excon|Typhoeus|HTTP)\s*(?:\.|::)\s*(?:post|put|patch|get|post_form|request)`,
        String.raw`\b\w*(?:conn|connection|client|http)\s*\.\s*(?:post|put|patch|get|request)`,
      ],
      String.raw`(?:\s*\(|[ \t]+(?=[\w"':@\[{]))`,
    ),
    ...TYPED,
    urlBindings: [BUILT_FROM_URL],
    mentions: mentionOptionsFor("ruby"),
  },
  rust: {
    ...FIRST,
    // reqwest (`client.post(url).json(&body)`), ureq, surf.
    httpCall: callPattern([
      ...SHARED_CALLS,
      String.raw`\b(?:reqwest(?:\s*::\s*blocking)?|ureq|surf)\s*::\s*(?:get|post|put|patch)`,
      String.raw`\b\w*[cC]lient\s*\.\s*(?:post|put|patch|get|request)`,
      CHAINED,
    ]),
    ...TYPED,
    urlBindings: [BUILT_FROM_URL],
    mentions: mentionOptionsFor("rust"),
  },
};

/**
 * A language's outbound rules (the shared ones for a language without its own).
 *
 * @example outboundRulesFor("ruby").followsChain // true
 */
export function outboundRulesFor(lang: SyntaxLanguage | undefined): OutboundRules {
  return (lang && BY_LANGUAGE[lang]) || FIRST;
}
