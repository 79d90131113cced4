import type { ChangedFile, PullRequest } from "../../domain/pull-request.js";
import { clearanceNeed, lineCheck, showsNeededCheck } from "../auth-checks/line-check.js";
import type { Concern, Evidence, InvestigationRequest } from "../../domain/investigation.js";
import type { StrategyAnswer } from "../strategy.js";
import { definitionName, functionBody } from "./code-scan.js";
import { isRedacted, LOG_CALL, redactionKeys, scanSensitiveLogging, type SensitiveLog } from "./logging-scan.js";
import { checksMadeIn, removedChecks } from "./removed-checks.js";
import type { RunState } from "./run-state.js";
import { rankQuestionHits } from "./question-hits.js";
import { questionTerms } from "./question-terms.js";
import { excerpt, stripStrings, type SourceLine } from "./tool-text.js";

const AUTH_PATH = /auth|session|login|token|passw/i;
const KIND_TEXT = { expiry: "expiry", signature: "the signature", condition: "the condition" } as const;

function cite(l: SourceLine): string {
  return `${l.file}:${l.line} \`${excerpt(l.text)}\``;
}

function evidenceOf(l: SourceLine): Evidence {
  return { file: l.file, line: l.line, excerpt: excerpt(l.text) };
}

/** Keys whose redaction shows that a token, password or secret would not reach the log. */
const SECRET_KEYS = /token|passw|secret|authorization|cookie|session|api_?key|credential/i;

/**
 * Turns what a deterministic run read into its answer: sentences, evidence lines and concerns.
 * The rules clear a machine question only with positive evidence for both of its halves, each
 * cited: every check the change removed is still made (or it removed none and the changed code
 * still makes its checks), and the logging setup redacts secrets (or the code logs nothing).
 * Not finding a problem is not that evidence: without it the answer is inconclusive, and a person
 * decides. A new file (nothing to compare against) is never cleared by rules alone; a logging
 * setup that redacts nothing is a concern.
 *
 * @example buildAnswer(state, request, pr).concerns // [] when all is well
 */
export function buildAnswer(state: RunState, request: InvestigationRequest, pr: PullRequest): StrategyAnswer {
  const answers: string[] = [];
  const evidence: Evidence[] = [];
  const concerns: Concern[] = [];
  const seen = new Set<string>();
  const addEvidence = (l: SourceLine): void => {
    const key = `${l.file}:${l.line}`;
    if (!seen.has(key)) {
      seen.add(key);
      evidence.push(evidenceOf(l));
    }
  };
  const read = state.targets.filter((t) => state.files.has(t));
  const questionHits =
    request.origin === "human"
      ? rankQuestionHits(state.questionHits, questionTerms(request.question), state.targets)
      : [];
  if (read.length === 0 && questionHits.length === 0) {
    const why = [...state.unreadable.entries()].map(([f, e]) => `${f}: ${e}`).join("; ");
    return {
      conclusive: false,
      answers: [],
      evidence: [],
      concerns: [],
      reason:
        state.targets.length === 0
          ? "the pull request has no changed code to examine"
          : `could not read the changed code (${why})`,
    };
  }
  const logPolicy =
    request.findings.some((f) => f.policy === "SEC-03") || read.some((t) => AUTH_PATH.test(t)) ? "SEC-03" : "DATA-01";

  // The logging setup: which keys it redacts. One that redacts no secret is a concern, not an answer.
  const redacted = new Set<string>();
  let redactsSecrets = false;
  for (const file of state.loggingFiles) {
    const lines = state.files.get(file);
    if (!lines) continue;
    const keys = redactionKeys(lines.map((l) => l.text).join("\n"));
    for (const k of keys) redacted.add(k);
    const where = lines.find((l) => /redact|censor|mask/i.test(l.text));
    const secretKeys = [...keys].filter((k) => SECRET_KEYS.test(k));
    if (where && secretKeys.length > 0) {
      answers.push(`The logging setup redacts ${[...keys].join(", ")}: ${cite(where)}.`);
      addEvidence(where);
      redactsSecrets = true;
    } else {
      const at = where ?? lines.find((l) => l.text.trim() !== "") ?? lines[0];
      if (at) {
        concerns.push({
          policy: logPolicy,
          message: `The logging setup in ${file} redacts no token, password or secret, so any such value the code logs is written as is.`,
          evidence: evidenceOf(at),
        });
      }
    }
  }

  // Helpers the changed code calls, with the body of each.
  const helperBodies = new Map<string, SourceLine[]>();
  for (const [name, def] of state.helpers) {
    const lines = state.files.get(def.file);
    if (lines) helperBodies.set(name, functionBody(lines, def.line));
  }
  const allHelperLines = [...helperBodies.values()].flat();

  const unproven: string[] = [];
  let logCalls = 0;
  for (const target of read) {
    const head = state.files.get(target) ?? [];
    const changed = pr.files.find((f) => f.filename === target);
    const patch = changed?.patch;
    if (changed?.status === "added") {
      unproven.push(
        `${target} is a new file: there is no earlier version to compare it with, so rules alone cannot clear it`,
      );
      // What the new file itself shows: the line that verifies, cited so a model's clearance can be weighed.
      const shown = checkLinesIn(head, changed);
      if (shown.length > 0) {
        answers.push(`${target} is new; it makes the check: ${shown.map(cite).join("; ")}.`);
        shown.forEach(addEvidence);
      }
    }

    const removed = removedChecks(target, patch, [...head, ...allHelperLines]);
    if (removed.length === 0 && changed?.status !== "added") {
      const made = checksMadeIn([...head, ...allHelperLines]).slice(0, 2);
      if (made.length > 0) {
        answers.push(
          `The change to ${target} removes no check, and the code still checks: ${made.map(cite).join("; ")}.`,
        );
        made.forEach(addEvidence);
      } else {
        unproven.push(`no check could be shown in ${target} or the helpers it calls`);
      }
    }
    for (const check of removed) {
      if (check.keptAt) {
        answers.push(
          `The change to ${target} still checks ${KIND_TEXT[check.kind]}: ${cite(check.keptAt)} (it removed \`${check.removed.text}\` at base line ${check.removed.line}).`,
        );
        addEvidence(check.keptAt);
      } else {
        concerns.push({
          policy: "SEC-03",
          message: `${target} removes the check \`${check.removed.text}\` (base line ${check.removed.line}) and the new code does not make it again.`,
          evidence: evidenceOf(check.removed),
        });
      }
    }

    logCalls +=
      countLogCalls(head) +
      [...helperBodies.entries()]
        .filter(([n]) => head.some((l) => l.text.includes(`${n}(`)))
        .reduce((n, [, body]) => n + countLogCalls(body), 0);
    const direct = scanSensitiveLogging(head);
    const viaHelpers: Array<{ name: string; callLine?: SourceLine; log: SensitiveLog }> = [];
    for (const [name, body] of helperBodies) {
      const callLine = head.find(
        (l) => new RegExp(`(^|[^\\w$.])${name}\\s*\\(`).test(l.text) && definitionName(l.text) !== name,
      );
      if (!callLine) continue;
      for (const log of scanSensitiveLogging(body)) viaHelpers.push({ name, callLine, log });
    }
    for (const log of direct) reportLog(log, `${target} logs ${log.terms.join(", ")}`);
    for (const { name, callLine, log } of viaHelpers) {
      const caller = callLine ? ` (called at ${target}:${callLine.line} \`${excerpt(callLine.text)}\`)` : "";
      reportLog(log, `${name} in ${log.file}${caller} logs ${log.terms.join(", ")}`);
    }
    if (direct.length === 0 && viaHelpers.length === 0) {
      const names = [...helperBodies.keys()].filter((n) => head.some((l) => l.text.includes(`${n}(`)));
      const helpers =
        names.length > 0
          ? ` or in the helpers it calls (${names.map((n) => `${n} in ${state.helpers.get(n)?.file}`).join(", ")})`
          : "";
      answers.push(`No token, password, secret or session id is logged in ${target}${helpers}.`);
    }
  }

  // Who calls the changed functions.
  const callers = state.symbolHits.filter(
    (h) =>
      !state.targets.includes(h.file) &&
      !/^\s*(import|export\s*\{)/.test(h.text) &&
      definitionName(h.text) === undefined &&
      state.changedFunctions.some((fn) => new RegExp(`\\b${fn}\\s*\\(`).test(h.text)),
  );
  for (const c of callers.slice(0, 3)) {
    answers.push(`A caller of the changed code: ${cite(c)}.`);
    addEvidence(c);
  }

  // A person's question is answered first, with the best lines for its key words.
  const direct: string[] = [];
  for (const { hit, words } of questionHits.slice(0, 3)) {
    direct.push(`On ${words.join(" and ")}: ${cite(hit)}.`);
    addEvidence(hit);
  }
  answers.unshift(...direct);
  for (const c of concerns) addEvidence({ file: c.evidence.file, line: c.evidence.line, text: c.evidence.excerpt });
  if (concerns.length > 0 || request.origin === "human") return { conclusive: true, answers, evidence, concerns };

  // A machine question is cleared only with positive evidence for its logging half too.
  if (!redactsSecrets) {
    if (logCalls > 0)
      unproven.push("no logging setup was found that redacts tokens, passwords or secrets, and the changed code logs");
    else answers.push(`The changed code (${read.join(", ")}) and the helpers it calls make no logging call.`);
  }
  if (unproven.length > 0) {
    return {
      conclusive: false,
      answers,
      evidence,
      concerns,
      reason: `no positive evidence that it is safe: ${unproven.join("; ")}`,
    };
  }
  return { conclusive: true, answers, evidence, concerns };

  function reportLog(log: SensitiveLog, what: string): void {
    const line: SourceLine = { file: log.file, line: log.line, text: log.text };
    if (isRedacted(log, redacted)) {
      answers.push(`${what}, but the logging setup redacts ${log.keys.join(", ")}: ${cite(line)}.`);
      addEvidence(line);
      return;
    }
    concerns.push({
      policy: logPolicy,
      message: `${what} without redaction: ${cite(line)}.`,
      evidence: evidenceOf(line),
    });
  }
}

/** The first lines of a new file that show the check its clearance needs (see `clearanceNeed`). */
function checkLinesIn(head: SourceLine[], file: ChangedFile): SourceLine[] {
  const need = clearanceNeed(file);
  const byLine = new Map(head.map((l) => [l.line, l.text]));
  return head
    .filter((l) =>
      showsNeededCheck(
        lineCheck(l.file, (n) => byLine.get(n), l.line),
        need,
      ),
    )
    .slice(0, 2)
    .map((l) => ({ ...l, text: excerpt(l.text) }));
}

/** How many logging calls these lines make. */
function countLogCalls(lines: SourceLine[]): number {
  return lines.filter((l) => LOG_CALL.test(stripStrings(l.text))).length;
}
