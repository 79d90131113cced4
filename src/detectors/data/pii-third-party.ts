import { grammarReader, syntaxLanguageOf } from "../code/syntax-tree.js";
import { ALL_GRAMMARS } from "../code/grammars.js";
import { type OutboundRules, outboundRulesFor } from "./outbound-rules.js";
import { escapeRegExp } from "../../domain/reg-exp.js";
import { addedLines, parsePatch } from "../../domain/patch.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import type { Detector } from "../detector.js";
import type { Finding } from "../../domain/finding.js";
import { type DataMention, describeMentions, findDataMentions, isPersonalKind } from "./pii-vocabulary.js";
import {
  callArguments,
  type CallArguments,
  type CodeLanguage,
  type CodeLine,
  codeLanguage,
  codeLines,
  withCommentsJoined,
} from "../code-lines.js";
import { isDocPath, isTestPath, looksBinary } from "../security/file-kind.js";
import { precheck } from "../precheck.js";
import { manifestEcosystem } from "../../ecosystems/index.js";

/** Analytics and CRM SDK calls that need no import in the browser (globals), by vendor. */
const SDK_CALLS: ReadonlyArray<{ vendor: string; re: RegExp }> = [
  {
    vendor: "Segment",
    re: /\b(?:analytics|segment|rudderanalytics)\s*\.\s*(?:track|identify|page|group|alias|screen)\s*\(/g,
  },
  {
    vendor: "Mixpanel",
    re: /\bmixpanel(?:\s*\.\s*people)?\s*\.\s*(?:track|identify|alias|register|set|set_once)\s*\(/gi,
  },
  {
    vendor: "Amplitude",
    re: /\bamplitude(?:\s*\.\s*getInstance\s*\(\s*\))?\s*\.\s*(?:track|logEvent|identify|setUserId|setUserProperties)\s*\(/gi,
  },
  { vendor: "PostHog", re: /\bposthog(?:\s*\.\s*people)?\s*\.\s*(?:capture|identify|alias|group|set)\s*\(/gi },
  { vendor: "Heap", re: /\bheap\s*\.\s*(?:track|identify|addUserProperties)\s*\(/g },
  { vendor: "Intercom", re: /(?<![\w$.])Intercom\s*\(|\bintercom(?:\s*\.\s*\w+)+\s*\(/g },
  { vendor: "Google Analytics", re: /(?<![\w$.])gtag\s*\(|\bdataLayer\s*\.\s*push\s*\(/g },
  { vendor: "Meta Pixel", re: /(?<![\w$.])fbq\s*\(/g },
  { vendor: "FullStory", re: /\b(?:FullStory|FS)\s*\.\s*(?:identify|setUserVars|event)\s*\(/g },
  { vendor: "LogRocket", re: /\bLogRocket\s*\.\s*(?:identify|track)\s*\(/g },
  { vendor: "Customer.io", re: /\b(?:_?cio|customerio)\s*\.\s*(?:identify|track)\s*\(/g },
  { vendor: "HubSpot", re: /\bhubspot\w*(?:\s*\.\s*\w+)+\s*\(/gi },
  // Go SDKs queue messages built as struct literals: client.Enqueue(analytics.Identify{...}).
  {
    vendor: "Segment",
    re: /\.\s*Enqueue\s*\((?=\s*&?\s*analytics\s*\.\s*(?:Identify|Track|Page|Group|Alias|Screen)\b)/g,
  },
  { vendor: "PostHog", re: /\.\s*Enqueue\s*\((?=\s*&?\s*posthog\s*\.\s*(?:Capture|Identify|Alias|GroupIdentify)\b)/g },
  {
    vendor: "Sentry",
    re: /\bsentry_sdk\s*\.\s*set_user\s*\(|\bSentry\s*\.\s*setUser\s*\(|\bscope\s*\.\s*SetUser\s*\(/g,
  },
];

/** Analytics/CRM SDK packages (npm and PyPI) and who receives what they send. */
const SDK_PACKAGES: Readonly<Record<string, string>> = {
  "@segment/analytics-node": "Segment",
  "@segment/analytics-next": "Segment",
  "analytics-node": "Segment",
  "analytics-python": "Segment",
  "segment-analytics-python": "Segment",
  mixpanel: "Mixpanel",
  "mixpanel-browser": "Mixpanel",
  "posthog-node": "PostHog",
  "posthog-js": "PostHog",
  posthog: "PostHog",
  "@amplitude/analytics-node": "Amplitude",
  "@amplitude/analytics-browser": "Amplitude",
  "amplitude-js": "Amplitude",
  "amplitude-analytics": "Amplitude",
  amplitude: "Amplitude",
  "@rudderstack/rudder-sdk-node": "RudderStack",
  "@rudderstack/analytics-js": "RudderStack",
  "intercom-client": "Intercom",
  "@intercom/messenger-js-sdk": "Intercom",
  "customerio-node": "Customer.io",
  customerio: "Customer.io",
  "@hubspot/api-client": "HubSpot",
  "hubspot-api-client": "HubSpot",
  logrocket: "LogRocket",
  "@fullstory/browser": "FullStory",
};

/** The SDKs below are npm and PyPI packages: their manifests are the ones read for them. */
const isSdkManifest = (path: string): boolean => ["npm", "pypi"].includes(manifestEcosystem(path) ?? "");

/** Per SDK package: how a manifest line names it, and how code imports it. */
const SDK_PATTERNS = Object.entries(SDK_PACKAGES).map(([pkg, vendor]) => {
  const p = escapeRegExp(pkg);
  const module = p.replace(/-/g, "_");
  return {
    pkg,
    vendor,
    manifest: new RegExp(`(^|["'\\s])${p}(["'\\s=<>~!\\[;]|$)`),
    js: new RegExp(
      `import\\s+(.+?)\\s+from\\s+["']${p}["']|(?:const|let|var)\\s+(.+?)\\s*=\\s*require\\(\\s*["']${p}["']`,
    ),
    py: new RegExp(`^\\s*(?:from\\s+${module}\\s+import\\s+(.+)|import\\s+(${module})\\b)`),
  };
});

/** Analytics SDK packages the PR adds to a dependency manifest. */
function addedSdkDependencies(files: readonly ChangedFile[]): string[] {
  const found = new Set<string>();
  for (const file of files) {
    if (!isSdkManifest(file.filename)) continue;
    for (const { text } of addedLines(file.patch)) {
      for (const sdk of SDK_PATTERNS) if (sdk.manifest.test(text)) found.add(sdk.pkg);
    }
  }
  return [...found];
}

/** Names an added import (or require) of an analytics SDK binds, and clients built from them. */
function sdkBindings(lines: readonly CodeLine[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const { raw, added } of lines) {
    if (!added) continue;
    if (!precheck(/\b(import|require)\b/.test(raw))) continue;
    for (const sdk of SDK_PATTERNS) {
      const m = sdk.js.exec(raw) ?? sdk.py.exec(raw);
      const bound = m?.[1] ?? m?.[2];
      if (!bound) continue;
      for (const part of bound.split(/[{},]/)) {
        const name = /(?:\bas\s+)?([A-Za-z_$][\w$]*)\s*$/.exec(part.replace(/^\s*\*\s*/, "").trim())?.[1];
        if (name) names.set(name, sdk.vendor);
      }
    }
  }
  if (names.size === 0) return names;
  const imported = [...names.keys()].map(escapeRegExp).join("|");
  const client = new RegExp(
    `(?<![\\w$.])([A-Za-z_$][\\w$]*)\\s*=\\s*(?:await\\s+)?(?:new\\s+)?(${imported})(?:\\s*\\.\\s*\\w+)*\\s*\\(`,
  );
  for (const { code, added } of lines) {
    const m = added ? client.exec(code) : null;
    if (m?.[1] && m[2]) names.set(m[1], names.get(m[2]) ?? "an analytics SDK");
  }
  return names;
}

/** Hosts that stay inside the organisation: loopback, private ranges, single-label and internal zones. */
export function isInternalHost(host: string, owner?: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost" || h === "::1" || h === "0.0.0.0" || !h.includes(".")) return true;
  if (/^(127|10)\.|^192\.168\.|^169\.254\.|^172\.(1[6-9]|2\d|3[01])\./.test(h)) return true;
  if (/\.(localhost|local|internal|intranet|lan|corp|home\.arpa|svc|cluster\.local|test|example|invalid)$/.test(h)) {
    return true;
  }
  const org = owner?.toLowerCase();
  return !!org && org.length >= 3 && h.split(".").includes(org);
}

const URL_LITERAL = /(["'`])(https?:\/\/[^"'`\s]*)/;
const HOST = /^https?:\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^/:?#$]+)/;
/** `name = "https://..."`, `name: string = '...'`, Go's `name := "..."`, a key `name: "..."`. */
const URL_ASSIGNMENT =
  /(?<![\w$])([A-Za-z_$][\w$]*)\s*(?::\s*[\w.]+\s*)?(?::=|=|:)\s*[fFrR]?(["'`])(https?:\/\/[^"'`\s]*)/g;
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

function hostOf(url: string): string | undefined {
  return HOST.exec(url)?.[1];
}

/** Every name the diff assigns a URL literal to (or, by the language's bindings, a client or URI built from one), and its host: read once per file. */
function urlAssignments(lines: readonly CodeLine[], rules: OutboundRules): Map<string, string> {
  const out = new Map<string, string>();
  const bind = (name: string | undefined, url: string | undefined) => {
    const host = url ? hostOf(url) : undefined;
    if (name && host && !out.has(name)) out.set(name, host);
  };
  for (const l of lines) {
    if (!precheck(l.raw.includes("http"))) continue;
    for (const m of l.raw.matchAll(URL_ASSIGNMENT)) bind(m[1], m[3]);
    for (const re of rules.urlBindings) for (const m of l.raw.matchAll(re)) bind(m.groups?.name, m.groups?.url);
  }
  return out;
}

/**
 * The host a call sends to: a URL literal in its arguments, or one assigned to a name it passes
 * (or, where the language's rules say so, to its receiver).
 */
function destination(
  args: readonly CodeLine[],
  urls: ReadonlyMap<string, string>,
  receiver?: string,
): string | undefined {
  for (const a of args) {
    const url = URL_LITERAL.exec(a.raw)?.[2];
    if (url) return hostOf(url);
  }
  if (urls.size === 0) return undefined;
  for (const ident of receiver?.match(IDENTIFIER) ?? []) {
    const host = urls.get(ident);
    if (host) return host;
  }
  for (const a of args) {
    for (const ident of a.code.match(IDENTIFIER) ?? []) {
      const host = urls.get(ident);
      if (host) return host;
    }
  }
  return undefined;
}

/** An outbound call found on a line: who receives it and where its `(` is. */
interface OutboundCall {
  callee: string;
  openCol: number;
  /** The host, or the SDK vendor; undefined until resolved for HTTP calls. */
  recipient?: string;
  http: boolean;
  /** Where the callee starts on its line. */
  start: number;
  /** False for a call written without parentheses (Ruby): its arguments run to the end of the line. */
  parenthesized: boolean;
}

/** Calls on a name an SDK import bound: `mp.track(`, `client.capture(`. */
function boundCallPattern(bindings: ReadonlyMap<string, string>): RegExp | undefined {
  if (bindings.size === 0) return undefined;
  const names = [...bindings.keys()].map(escapeRegExp).join("|");
  return new RegExp(`(?<![\\w$.])(${names})(?:\\s*\\.\\s*\\w+)+\\s*\\(`, "g");
}

/**
 * The call patterns worth running line by line in a file: a pattern that matches nowhere in the
 * file's code (its lines joined) matches none of its lines.
 */
function callPatternsIn(
  lines: readonly CodeLine[],
  rules: OutboundRules,
): { http: RegExp | undefined; sdks: typeof SDK_CALLS } {
  const code = lines.map((l) => l.code).join("\n");
  // `search` ignores and keeps a global pattern's lastIndex.
  return {
    http: precheck(code.search(rules.httpCall) >= 0) ? rules.httpCall : undefined,
    sdks: SDK_CALLS.filter(({ re }) => precheck(code.search(re) >= 0)),
  };
}

function callsOn(
  code: string,
  bindings: ReadonlyMap<string, string>,
  bound: RegExp | undefined,
  patterns: ReturnType<typeof callPatternsIn>,
): OutboundCall[] {
  const calls: OutboundCall[] = [];
  const at = (m: RegExpMatchArray) => {
    const parenthesized = m[0].endsWith("(");
    return {
      callee: m[0].replace(/\s+/g, "").replace(/\($/, ""),
      openCol: (m.index ?? 0) + m[0].length - (parenthesized ? 1 : 0),
      start: m.index ?? 0,
      parenthesized,
    };
  };
  if (patterns.http) for (const m of code.matchAll(patterns.http)) calls.push({ ...at(m), http: true });
  for (const { vendor, re } of patterns.sdks) {
    for (const m of code.matchAll(re)) calls.push({ ...at(m), recipient: vendor, http: false });
  }
  if (bound) {
    for (const m of code.matchAll(bound)) {
      if (calls.some((c) => c.openCol === (m.index ?? 0) + m[0].length - 1)) continue;
      calls.push({ ...at(m), recipient: bindings.get(m[1] ?? ""), http: false });
    }
  }
  return calls;
}

/**
 * The arguments of a call written without parentheses (Ruby's `HTTParty.post url, body: ...`):
 * the rest of its line, and the next lines while a line ends with a comma, an open bracket or `\`.
 */
function bareArguments(lines: readonly CodeLine[], index: number, from: number): CallArguments {
  const out: CallArguments = [];
  for (let i = index; i < lines.length && i < index + 10; i++) {
    const line = lines[i];
    if (!line || (i > index && !line.follows)) break;
    out.push(i === index ? { ...line, code: line.code.slice(from) } : line);
    if (!/[,([{\\]\s*$/.test(line.code)) break;
  }
  return out;
}

/**
 * The lines after a call that belong to its statement: a chain (`.json(&body)`, `.bodyValue(x)`,
 * a line starting with `.` or `->`) or a block the call opens (`client.post(url) { setBody(x) }`),
 * at most `max` lines.
 */
function statementTail(
  lines: readonly CodeLine[],
  first: number,
  last: number,
  max = 10,
): Array<{ line: CodeLine; index: number }> {
  let depth = 0;
  const balance = (code: string) => {
    for (const c of code) depth += c === "{" ? 1 : c === "}" ? -1 : 0;
  };
  for (let i = first; i <= last; i++) balance(lines[i]?.code ?? "");
  const out: Array<{ line: CodeLine; index: number }> = [];
  for (let i = last + 1; i < lines.length && i <= last + max; i++) {
    const line = lines[i];
    if (!line?.follows) break;
    if (depth <= 0 && !/^\s*(?:\??\.|->)/.test(line.code)) break;
    out.push({ line, index: i });
    balance(line.code);
  }
  return out;
}

/** The access path a call's pattern starts inside of, to its callee: `$client->post` of `->post(`. */
const PATH_BEFORE = /(?:[$@]?\w+\s*(?:\??\.|\??->|::)\s*)*(?:[$@]?\w+)?$/;

/** The callee of a call as written on its line, with the receiver its pattern may have left out. */
function receiverOf(code: string, call: OutboundCall): string {
  const before = PATH_BEFORE.exec(code.slice(0, call.start))?.[0] ?? "";
  return `${before}${code.slice(call.start, call.openCol)}`.trim();
}

/** Up to `count` lines right before `index` in the same hunk, nearest last. */
function linesBefore(lines: readonly CodeLine[], index: number, count: number): CodeLine[] {
  const out: CodeLine[] = [];
  for (let i = index; i > 0 && out.length < count; i--) {
    const here = lines[i];
    const prev = lines[i - 1];
    if (!here?.follows || !prev) break;
    out.unshift(prev);
  }
  return out;
}

/**
 * The start of a word (any case) that every SDK call pattern's receiver and every SDK package
 * name begins with, and the case-sensitive `FS` of FullStory's: each pattern wants a word
 * boundary (or more) before its receiver, and a package name is written after a quote or `@`.
 */
const SDK_WORDS =
  /\b(?:analytics|segment|rudder|mixpanel|amplitude|posthog|heap|intercom|gtag|datalayer|fbq|fullstory|logrocket|_?cio|customerio|hubspot|enqueue|sentry|scope)/i;

/**
 * False only when no call in the patch can be reported: an HTTP call needs a URL literal (its
 * own, or one assigned to a name it passes), so `http`; an SDK call or an SDK import needs its
 * vendor's word (in the code as `sanitizeCode` reads it in `lang`, see `withCommentsJoined`).
 *
 * @example maySendToThirdParty('@@ -0,0 +1 @@\n+const r = await fetch(`${RATES_URL}/v2`);', "js") // false
 */
export function maySendToThirdParty(patch: string, lang: CodeLanguage): boolean {
  if (patch.includes("http")) return true;
  const text = withCommentsJoined(patch, lang);
  return SDK_WORDS.test(text) || /\bFS/.test(text);
}

/** The languages this detector reads by what the code does. */
const LANGUAGES = grammarReader(ALL_GRAMMARS);

/**
 * DATA-03: personal data sent to a third party. An added outbound call (fetch, axios, got,
 * http.request, requests/httpx, webhooks) to a literal non-internal host, or an analytics/CRM SDK
 * call (Segment-style `analytics.track`, Mixpanel, Amplitude, PostHog, Intercom, ...), whose
 * payload on added lines of the call or the few lines before it names personal data (or forwards
 * a whole request body). Secrets are not counted here (an API key header is normal); they belong
 * to DATA-01/SEC-01. High, blocking. The message names the host or vendor, and any analytics SDK
 * the PR adds as a dependency. Calls whose host is not a literal in the diff are not flagged.
 *
 * @example await piiThirdPartyDetector.detect(ctx) // [{ policy: "DATA-03", message: "fetch sends ... to api.example-analytics.io ..." }]
 */
export const piiThirdPartyDetector: Detector = {
  id: "pii-third-party",
  policies: ["DATA-03"],
  covers: ["code"],
  reads: LANGUAGES.reads,
  async detect(ctx) {
    const findings: Finding[] = [];
    const owner = ctx.pr.repo.split("/")[0];
    const newSdks = addedSdkDependencies(ctx.pr.files);
    for (const file of ctx.pr.files) {
      const lang = codeLanguage(file.filename);
      if (!lang || !file.patch || isTestPath(file.filename) || isDocPath(file.filename)) continue;
      if (looksBinary(file.patch) || !precheck(maySendToThirdParty(file.patch, lang))) continue;
      const rules = outboundRulesFor(syntaxLanguageOf(file.filename));
      const lines = codeLines(parsePatch(file.patch), lang);
      const bindings = sdkBindings(lines);
      const bound = boundCallPattern(bindings);
      const urls = urlAssignments(lines, rules);
      const patterns = callPatternsIn(lines, rules);
      // Each line's mentions, computed once: call windows overlap.
      const mentionsAt: Array<DataMention[] | undefined> = [];
      const mentionsOf = (l: CodeLine, i: number) => (mentionsAt[i] ??= findDataMentions(l.code, rules.mentions));
      const reported = new Set<string>();
      lines.forEach((line, index) => {
        for (const call of callsOn(line.code, bindings, bound, patterns)) {
          const args = call.parenthesized
            ? callArguments(lines, index, call.openCol)
            : bareArguments(lines, index, call.openCol);
          const tail = rules.followsChain ? statementTail(lines, index, index + args.length - 1) : [];
          if (!args.some((a) => a.added) && !tail.some((t) => t.line.added)) continue;
          const receiver = rules.receiverNamesHost ? receiverOf(line.code, call) : undefined;
          const recipient = call.http ? destination(args, urls, receiver) : call.recipient;
          if (!recipient || (call.http && isInternalHost(recipient, owner))) continue;
          const before = linesBefore(lines, index, 6)
            .flatMap((l, k, all) => (l.added ? mentionsOf(l, index - all.length + k) : []))
            .filter((m) => rules.recordsBefore || m.kind !== "user record");
          const inCall = args.flatMap((a, k) =>
            !a.added ? [] : k === 0 ? findDataMentions(a.code, rules.mentions) : mentionsOf(a, index + k),
          );
          const after = tail.flatMap((t) => (t.line.added ? mentionsOf(t.line, t.index) : []));
          const mentions = [...before, ...inCall, ...after].filter(
            (m) => isPersonalKind(m.kind) || m.kind === "request body" || m.kind === "user record",
          );
          if (mentions.length === 0) continue;
          // A chain names its host once but may match twice (`.uri(URI.create(url))`): one finding a line.
          const key = `${line.line}\u0000${recipient}`;
          if (rules.followsChain && reported.has(key)) continue;
          reported.add(key);
          const deps = newSdks.length > 0 ? `; the PR also adds ${newSdks.join(", ")}` : "";
          findings.push({
            specialty: "data",
            policy: "DATA-03",
            severity: "high",
            blocking: true,
            needs_more_context: false,
            file: file.filename,
            line: line.added ? line.line : (args.find((a) => a.added)?.line ?? line.line),
            message:
              `${receiver ?? call.callee} sends personal data (${describeMentions(mentions)}) to ${recipient}, ` +
              `a third party${deps}. A new recipient of user data needs a data-processing review; ` +
              "send an id or aggregate instead, or record the processor and its agreement.",
            source: "detector",
            detector: "pii-third-party",
          });
        }
      });
    }
    return findings;
  },
};
