import { parsePatch } from "../../domain/patch.js";
import type { Detector } from "../detector.js";
import type { Finding } from "../../domain/finding.js";
import { type DataMention, describeMentions, findDataMentions } from "./pii-vocabulary.js";
import { callArguments, codeLanguage, codeLines } from "../code-lines.js";
import { isDocPath, isTestPath, looksBinary } from "../security/file-kind.js";

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
const PY_PRINT = /(?<![\w$.])print\s*\(/g;

/** Python scripts and tools print to a terminal, not to server logs. */
function isScriptPath(path: string): boolean {
  return /(^|\/)(scripts?|bin|tools|examples?|notebooks|docs)\//i.test(path) || /(^|\/)(manage|setup|conftest)\.py$/.test(path);
}

/**
 * DATA-01: a logging, console or error-report call (console.*, logger.*, log.*, logging.*, Python
 * `print` in server code, Sentry capture/set calls) whose arguments, on added lines, mention
 * personal data or secrets: emails, phones, names (`firstName`, `user.name`), addresses, birth
 * dates, government ids, card numbers, passwords, tokens, keys, session ids, cookies, the
 * authorization header, or whole request bodies/headers. High, blocking.
 * Ids are fine (`{ userId }`), so are masked values (`maskEmail(e)`), words inside string
 * literals ("password reset sent"), test files (fake data in fixtures) and documentation.
 *
 * @example await piiLoggingDetector.detect(ctx) // [{ policy: "DATA-01", file: "src/users.ts", line: 12, ... }]
 */
export const piiLoggingDetector: Detector = {
  id: "pii-logging",
  policies: ["DATA-01"],
  async detect(ctx) {
    const findings: Finding[] = [];
    for (const file of ctx.pr.files) {
      const lang = codeLanguage(file.filename);
      if (!lang || !file.patch || isTestPath(file.filename) || isDocPath(file.filename)) continue;
      if (looksBinary(file.patch)) continue;
      const lines = codeLines(parsePatch(file.patch), lang);
      const callRe = lang === "python" && !isScriptPath(file.filename) ? [LOG_CALL, PY_PRINT] : [LOG_CALL];
      lines.forEach((line, index) => {
        for (const re of callRe) {
          for (const call of line.code.matchAll(re)) {
            const openCol = (call.index ?? 0) + call[0].length - 1;
            const args = callArguments(lines, index, openCol);
            const mentions: DataMention[] = [];
            let at: number | undefined;
            for (const arg of args) {
              if (!arg.added) continue;
              const found = findDataMentions(arg.code);
              if (found.length > 0 && at === undefined) at = arg.line;
              mentions.push(...found);
            }
            if (at === undefined) continue;
            const callee = call[0].replace(/\s+/g, "").replace(/\($/, "");
            findings.push({
              specialty: "data",
              policy: "DATA-01",
              severity: "high",
              blocking: true,
              needs_more_context: false,
              file: file.filename,
              line: at,
              message:
                `${callee} writes personal data or secrets to logs: ${describeMentions(mentions)}. ` +
                "Log an id (userId) instead, or mask the value before logging it.",
              source: "detector",
              detector: "pii-logging",
            });
          }
        }
      });
    }
    return findings;
  },
};
