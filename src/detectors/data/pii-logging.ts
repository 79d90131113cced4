import { parsePatch } from "../../domain/patch.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import type { Detector } from "../detector.js";
import type { Finding } from "../../domain/finding.js";
import {
  type DataMention,
  describeMentions,
  findDataMentions,
  type MentionOptions,
  mayMentionData,
  mentionOptionsFor,
} from "./pii-vocabulary.js";
import type { SgNode } from "@ast-grep/napi";
import { isLoggingCallee, LOGGING_RULES, type LoggingRules } from "./logging-rules.js";
import { callArguments, codeLanguage, codeLines } from "../code-lines.js";
import { callSites } from "../code/call-sites.js";
import { codeRows } from "../code/code-text.js";
import { headText } from "../code/head-text.js";
import { oneLineArguments } from "../code/one-line-arguments.js";
import { grammarReader, type SyntaxLanguage, syntaxOfPatch, type PatchSyntax } from "../code/syntax-tree.js";
import { ALL_GRAMMARS } from "../code/grammars.js";
import { isDocPath, isTestPath, looksBinary } from "../security/file-kind.js";
import { precheck, prefilter } from "../precheck.js";

/** Line-based reading, for languages without a grammar here (Scala, Swift, C, C++, Dart...). */
const CALLEES = [
  String.raw`\bconsole\s*\.\s*(?:log|info|warn|error|debug|trace|dir)`,
  // logger.info, this.logger.warn, auditLog.error, log.Printf, logging.info, LOG.debug
  String.raw`(?<![\w$])(?:[\w$]*[lL]ogger|log|LOG|logging|[\w$]*Log)\s*\.\s*(?:info|warn|warning|error|debug|trace|fatal|critical|exception|log|verbose|silly|notice|Print|Printf|Println|Infof|Warnf|Errorf|Debugf|Fatalf|Info|Warn|Error|Debug)`,
  String.raw`\bSentry\s*\.\s*(?:captureMessage|captureException|captureEvent|setUser|setContext|setExtra|setExtras|setTag|setTags|addBreadcrumb)`,
  String.raw`(?<![\w$.])(?:captureMessage|captureException)`,
  String.raw`\bscope\s*\.\s*(?:setExtra|setExtras|setUser|setContext|setTag)`,
  String.raw`\bSystem\s*\.\s*(?:out|err)\s*\.\s*print(?:ln|f)?`,
  String.raw`\bfmt\s*\.\s*(?:Print|Println|Printf|Fprintf|Fprintln)`,
  String.raw`(?<![\w$.])(?:println|eprintln|info|warn|error|debug|trace)!`,
];
const LOG_CALL = new RegExp(`(?:${CALLEES.join("|")})\\s*\\(`, "g");

/** The one-line pre-check's rules: JavaScript's, shared by Python and Go. */
const FIRST_RULES = LOGGING_RULES.javascript;

/** The last names of the callees the shared reporters accept: `captureMessage` of `Sentry.captureMessage`. */
const REPORT_NAMES = [
  ...["captureMessage", "captureException", "captureEvent", "addBreadcrumb", "capture_message", "capture_exception"],
  ...["setUser", "setContext", "setExtra", "setExtras", "setTag", "setTags"],
  ...["set_user", "set_context", "set_extra", "set_tag", "CaptureMessage", "CaptureException"],
  ...["Print", "Println", "Printf", "Fprint", "Fprintf", "Fprintln"],
];

/** Every name a JavaScript, Python or Go logging call's callee can end with, as a whole word. */
const LOGGING_NAME = new RegExp(
  `(?<![\\w$])(?:${FIRST_RULES.methods.source.slice(1, -1)}|${REPORT_NAMES.join("|")}|print)(?![\\w$])`,
  "g",
);
/**
 * White space on the line after a callee's name, as the grammars skip it: every kind JavaScript
 * knows (tab, no-break space, form feed, byte-order mark, ideographic space...), not only spaces.
 */
const SPACE_ON_LINE = /[^\S\n\r]*/y;
/**
 * What may follow a name (and the space after it) that is not a call: another word (`new Error`),
 * or ASCII punctuation other than what can stand between a callee and its arguments (a comment,
 * type arguments, `?.`, a tagged template, a line continuation). Anything else (a line break, a
 * character of another script, the end of the text) is read as unclear.
 */
const NOT_A_CALL_AFTER_NAME = /^[\w$!"%&')*+,\-.:;=>[\]^{|}~]$/;

/**
 * False only when no logging call in the text (as the parser would read it) can carry personal
 * data, so the file need not be parsed for DATA-01. Every place a logging call's name is followed
 * by `(` has its argument list read on that line, strings skipped as the parser skips them; if it
 * holds none of the words a data mention needs, that call finds nothing. Anything this cannot
 * read exactly (arguments over several lines, a comment, a line break, type arguments or any
 * character but plain punctuation after the name) answers true, and the tree decides.
 *
 * @example mayLogData('logger.info("order loaded", { orderId: order.id });', "typescript") // false
 */
export function mayLogData(text: string, lang: SyntaxLanguage): boolean {
  const rules = LOGGING_RULES[lang];
  // Calls without parentheses (Ruby), lambdas (Kotlin), macros (Rust): any logging word and any data word.
  if (!rules.oneLinePrecheck) return rules.callees.test(text) && mayMentionData(text);
  for (const m of text.matchAll(LOGGING_NAME)) {
    SPACE_ON_LINE.lastIndex = (m.index ?? 0) + m[0].length;
    SPACE_ON_LINE.test(text);
    const at = SPACE_ON_LINE.lastIndex;
    const next = text[at];
    if (next !== "(") {
      if (next !== undefined && NOT_A_CALL_AFTER_NAME.test(next)) continue;
      return true;
    }
    const args = oneLineArguments(text, at, lang);
    if (args === undefined || mayMentionData(args)) return true;
  }
  return false;
}

/** Scripts and tools print to a terminal, not to server logs. */
function isScriptPath(path: string): boolean {
  return (
    /(^|\/)(scripts?|bin|tools|examples?|notebooks|docs)\//i.test(path) ||
    /(^|\/)(manage|setup|conftest)\.py$/.test(path)
  );
}

function finding(file: string, line: number, callee: string, mentions: readonly DataMention[]): Finding {
  return {
    specialty: "data",
    policy: "DATA-01",
    severity: "high",
    blocking: true,
    needs_more_context: false,
    file,
    line,
    message:
      `${callee} writes personal data or secrets to logs: ${describeMentions(mentions)}. ` +
      "Log an id (userId) instead, or mask the value before logging it.",
    source: "detector",
    detector: "pii-logging",
  };
}

/** Whether a printing command's output reaches a log (see `LoggingRules.output`). */
function writesToLog(node: SgNode, output: NonNullable<LoggingRules["output"]>): boolean {
  const parent = node.parent();
  if (!parent) return true;
  const kind = String(parent.kind());
  if (output.capturedBy.includes(kind)) return false;
  if (kind === output.pipeline) {
    const after = parent.namedChildren().filter((c) => c.range().start.index > node.range().start.index);
    if (after.length === 0) return true;
    return after.some((c) => output.pipedTo.test(c.field("name")?.text() ?? ""));
  }
  if (kind === output.redirected) {
    const redirects = parent.children().filter((c) => String(c.kind()) === output.redirect);
    return (
      redirects.length === 0 || redirects.some((r) => output.logTarget.test(r.text().replace(/^\d*[<>&|]+\s*/, "")))
    );
  }
  return true;
}

/** Logging calls found by the parser: only code counts, and each argument is read row by row. */
function fromSyntax(file: ChangedFile, syntax: PatchSyntax): Finding[] {
  const options: MentionOptions = mentionOptionsFor(syntax.lang);
  const rules = LOGGING_RULES[syntax.lang];
  const script = isScriptPath(file.filename);
  const findings: Finding[] = [];
  const seen = new Set<number>();
  for (const call of callSites(syntax, prefilter(rules.callees))) {
    if (!isLoggingCallee(rules, call, script)) continue;
    if (rules.output && !writesToLog(call.node, rules.output)) continue;
    const mentions: DataMention[] = [];
    let at: number | undefined;
    for (const { row, code } of codeRows(call.argumentList, syntax.lang)) {
      if (!syntax.isAdded(row)) continue;
      const found = findDataMentions(code, options);
      if (found.length > 0 && at === undefined) at = syntax.lineAt(row);
      mentions.push(...found);
    }
    if (at === undefined || seen.has(at)) continue;
    seen.add(at);
    findings.push(finding(file.filename, at, call.callee, mentions));
  }
  return findings;
}

/** Logging calls found line by line, for languages the parser does not read. */
function fromLines(file: ChangedFile, patch: string): Finding[] {
  const lang = codeLanguage(file.filename);
  if (!lang) return [];
  const findings: Finding[] = [];
  const lines = codeLines(parsePatch(patch), lang);
  lines.forEach((line, index) => {
    for (const call of line.code.matchAll(LOG_CALL)) {
      const openCol = (call.index ?? 0) + call[0].length - 1;
      const mentions: DataMention[] = [];
      let at: number | undefined;
      for (const arg of callArguments(lines, index, openCol)) {
        if (!arg.added) continue;
        const found = findDataMentions(arg.code);
        if (found.length > 0 && at === undefined) at = arg.line;
        mentions.push(...found);
      }
      if (at !== undefined)
        findings.push(finding(file.filename, at, call[0].replace(/\s+/g, "").replace(/\($/, ""), mentions));
    }
  });
  return findings;
}

/** The languages this detector reads by what the code does. */
const LANGUAGES = grammarReader(ALL_GRAMMARS);

/**
 * DATA-01: a logging, console or error-report call whose arguments, on added lines, carry personal
 * data or secrets: named fields (emails, phones, names, addresses, birth dates, government ids,
 * card numbers, passwords, tokens, keys, session ids, cookies, the authorization header), a whole
 * request or its body, params, query or headers (`console.log(req.body)`,
 * `logging.info("%s", request.headers)`, Go's `r.Header`), or a whole user object
 * (`logger.info(user)`, `log.Printf("%+v", user)`, zap/logrus/structlog fields holding one).
 * JavaScript, TypeScript, Python, Go, Java, Kotlin, C#, PHP, Ruby and Rust are parsed (tree-sitter),
 * so calls inside strings, docstrings and comments do not count; each language's logging calls are
 * a table (logging-rules.ts): SLF4J/Log4j/java.util.logging and `System.out`, Kotlin's logger
 * lambdas, `ILogger`/Serilog and `Console.WriteLine`, `error_log`/Monolog/Laravel `Log::` and
 * `var_dump`, `Rails.logger`/`puts`/`p`, Rust's `log`/`tracing` macros and `println!`. Other
 * languages are read line by line.
 * Ids are fine (`{ userId: user.id }`), so are masked or redacted values (`maskEmail(e)`,
 * `redact(user)`), test files and documentation. High, blocking.
 *
 * @example await piiLoggingDetector.detect(ctx) // [{ policy: "DATA-01", file: "src/users.ts", line: 12, ... }]
 */
export const piiLoggingDetector: Detector = {
  id: "pii-logging",
  policies: ["DATA-01"],
  covers: ["code"],
  reads: LANGUAGES.reads,
  async detect(ctx) {
    const findings: Finding[] = [];
    for (const file of ctx.pr.files) {
      if (!file.patch || isTestPath(file.filename) || isDocPath(file.filename) || looksBinary(file.patch)) continue;
      const lang = LANGUAGES.languageOf(file);
      if (!lang) findings.push(...fromLines(file, file.patch));
      else if (precheck(mayLogData(headText(file).text, lang)))
        findings.push(...fromSyntax(file, syntaxOfPatch(file) as PatchSyntax));
    }
    return findings;
  },
};
