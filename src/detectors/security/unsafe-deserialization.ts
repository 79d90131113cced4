import type { SgNode } from "@ast-grep/napi";
import { callSites, type CallSite } from "../code/call-sites.js";
import type { SyntaxLanguage } from "../code/grammars.js";
import { headText } from "../code/head-text.js";
import { syntaxOfPatch, type PatchSyntax } from "../code/syntax-tree.js";
import type { Detector } from "../detector.js";
import { precheck, prefilter } from "../precheck.js";
import { StringBuilderReader, kindOf } from "./built-string.js";
import { calleeNames, matchesCall } from "./call-rule.js";
import { DESERIALIZATION_RULES, type DeserializationRules, type DeserializationSink } from "./deserialization-rules.js";
import { OutsideReader } from "./request-sources.js";
import { codeLineDetector } from "./line-detector.js";

/** One unsafe deserialization or dynamic-code site. */
interface Site {
  row: number;
  message: string;
}

const NAMES = new Map<SyntaxLanguage, RegExp>();

/** The last names of every sink of a language, as the call-index filter and the file pre-check. */
function namesOf(lang: SyntaxLanguage): RegExp | undefined {
  const rules = DESERIALIZATION_RULES[lang];
  if (rules.sinks.length === 0) return undefined;
  let names = NAMES.get(lang);
  if (!names) {
    names = calleeNames(rules.sinks);
    NAMES.set(lang, names);
  }
  return names;
}

/**
 * False only when the text names no sink of the language's table: no call, property or method
 * it lists, so no parse is needed.
 *
 * @example mayDeserialize("data = json.loads(body)", "python") // false
 */
export function mayDeserialize(text: string, lang: SyntaxLanguage): boolean {
  const rules = DESERIALIZATION_RULES[lang];
  const words = [
    ...rules.sinks.flatMap((s) => s.methods),
    ...rules.properties.map((p) => p.property.source.replace(/^\(\^\|\\\.\)|\$$/g, "")),
    ...rules.receiverSinks.map((r) => r.method.source.replace(/^\^|\$$/g, "")),
  ];
  return words.length > 0 && new RegExp(words.join("|")).test(text);
}

/**
 * SEC-02: unsafe deserialization and dynamic code in added code, in every language the rules
 * table knows: pickle/marshal/full YAML loaders of outside data in Python, Java serialization,
 * XMLDecoder, XStream and SnakeYAML's default constructor, Jackson default typing, the
 * BinaryFormatter family and Json.NET `TypeNameHandling`, PHP `unserialize`, Ruby `Marshal.load`,
 * `YAML.load` of outside data and `YAML.unsafe_load`, `send`/`constantize`/`instance_eval` of
 * params, node-serialize, script engines and templates compiled from outside data. Outside data is
 * followed through names within the file (`request-sources.ts`). Severity high, blocking.
 *
 * @example await unsafeDeserializationDetector.detect(ctx) // [{ policy: "SEC-02", line: 9, ... }]
 */
export const unsafeDeserializationDetector: Detector = codeLineDetector(
  { id: "unsafe-deserialization", policy: "SEC-02", severity: "high", blocking: true },
  (file, lang) => {
    const found = new Map<number, string>();
    const text = lang ? headText(file).text : "";
    const syntax = lang && precheck(mayDeserialize(text, lang)) ? syntaxOfPatch(file) : undefined;
    for (const site of syntax ? unsafeSites(syntax, text) : []) {
      const line = syntax?.lineAt(site.row);
      if (line !== undefined && !found.has(line)) found.set(line, site.message);
    }
    return found;
  },
);

/** Every added sink of the file's language that its rules call unsafe. */
function unsafeSites(syntax: PatchSyntax, text: string): Site[] {
  const rules = DESERIALIZATION_RULES[syntax.lang];
  const reader = StringBuilderReader.of(syntax);
  const outside = new OutsideReader(syntax.lang, reader, text);
  const out: Site[] = [];
  const names = namesOf(syntax.lang);
  if (names) {
    for (const call of callSites(syntax, prefilter(names))) {
      if (!syntax.isAdded(call.row)) continue;
      const sink = rules.sinks.find((s) => matchesCall(s, call) && isUnsafe(s, call, text, outside));
      if (sink) out.push({ row: call.row, message: sink.message });
    }
  }
  out.push(...unsafeProperties(syntax, rules, reader), ...unsafeReceivers(syntax, rules, outside));
  return out;
}

function isUnsafe(sink: DeserializationSink, call: CallSite, text: string, outside: OutsideReader): boolean {
  const callText = call.node.text();
  if (sink.reportedElsewhere?.test(callText)) return false;
  if (sink.safeCall?.test(callText) || sink.safeFile?.test(text)) return false;
  if (sink.callRequires && !sink.callRequires.test(callText)) return false;
  if (sink.fileRequires && !sink.fileRequires.test(text)) return false;
  if (sink.exposure === "always") return true;
  const data = call.args.filter((a) => !OPTION_KINDS.has(kindOf(a)))[sink.arg ?? 0];
  return data !== undefined && outside.fromOutside(data);
}

/** Keyword arguments and trailing options (`Loader=...`, Ruby `mode: :object`) carry no data. */
const OPTION_KINDS = new Set(["keyword_argument", "pair"]);

/** Properties set to an unsafe value: `TypeNameHandling = TypeNameHandling.All`. */
function unsafeProperties(syntax: PatchSyntax, rules: DeserializationRules, reader: StringBuilderReader): Site[] {
  if (rules.properties.length === 0) return [];
  const out: Site[] = [];
  for (const [name, values] of reader.assignedNames()) {
    const property = rules.properties.find((p) => p.property.test(name));
    if (!property) continue;
    for (const { row, value } of values) {
      if (syntax.isAdded(row) && property.value.test(value.text())) out.push({ row, message: property.message });
    }
  }
  return out;
}

/** Methods called on outside data without arguments: `params[:type].constantize`. */
function unsafeReceivers(syntax: PatchSyntax, rules: DeserializationRules, outside: OutsideReader): Site[] {
  const out: Site[] = [];
  for (const sink of rules.receiverSinks) {
    const found = syntax.root.findAll({
      rule: { kind: sink.callKind, has: { field: "method", regex: sink.method.source } },
    });
    for (const call of found) {
      const row = call.range().start.line;
      const receiver: SgNode | null = call.field("receiver");
      if (syntax.isAdded(row) && receiver && outside.fromOutside(receiver)) out.push({ row, message: sink.message });
    }
  }
  return out;
}
