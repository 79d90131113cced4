import { coverageLines } from "../domain/coverage.js";
import type { ResultFinding, ReviewResult } from "../domain/review-result.js";
import { CHECK_NAME, checkOutcome } from "./check-run.js";

/** One list of people a waiting review needs one of: what it covers (a specialty, or any approval) and who is on it. */
export interface DeciderLine {
  covers: string;
  /** Slack user and user-group ids, or GitHub logins, as configured. */
  ids: readonly string[];
}

/** GitHub shows at most 1 MiB of a step's summary; a table this long is read in the SARIF instead. */
const MAX_ROWS = 200;

const ROUTE_TEXT: Record<string, string> = {
  auto_approved: "auto-approved (low risk, no specialist ran)",
  approved: "approved (nothing blocking)",
  human: "waiting for a person",
  human_approved: "approved by a person",
  human_rejected: "rejected by a person",
  merged_unapproved: "merged without approval",
};

/** Table cells cannot hold pipes or line breaks. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function code(text: string): string {
  return text.includes("`") ? cell(text) : `\`${cell(text)}\``;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** How a summary is cut to fit where it goes: the rows of its findings table, and where the rest are found. */
export interface SummaryFit {
  /** At most this many findings are listed (200 unless told). */
  maxRows?: number;
  /** Where the findings past `maxRows` are listed ("the SARIF file" unless told). */
  restIn?: string;
}

function findingsTable(findings: readonly ResultFinding[], fit: SummaryFit): string[] {
  if (findings.length === 0) return ["No findings."];
  const max = fit.maxRows ?? MAX_ROWS;
  const rows = findings.slice(0, max).map((f) => {
    const policy = `${cell(f.policy)}${f.blocking ? " **blocking**" : ""}`;
    const file = f.file ? code(f.file) : "";
    const line = f.line !== undefined ? String(f.line) : "";
    return `| ${policy} | ${file} | ${line} | ${cell(clip(f.message, 500))} |`;
  });
  const more =
    findings.length > max
      ? ["", `…and ${findings.length - max} more (${fit.restIn ?? "the SARIF file"} has them all).`]
      : [];
  return ["| Policy | File | Line | Message |", "|---|---|---|---|", ...rows, ...more];
}

/** A person's id as the summary shows it: their name beside the id when one is known. */
type PersonName = (id: string) => string | undefined;

function whoCanDecide(result: ReviewResult, deciders: readonly DeciderLine[], personName?: PersonName): string[] {
  const d = result.decision;
  if (d) {
    const word = d.kind === "approve" ? "Approved" : "Rejected";
    return [`${word} by ${cell(personName?.(d.by) ?? d.by)} at ${d.at}${d.note ? `: ${cell(d.note)}` : ""}.`];
  }
  if (result.route !== "human") return ["Nothing to decide."];
  if (deciders.length === 0) {
    return ["No approvers are configured (`GATE_APPROVERS`, or `approvers` in the configuration file)."];
  }
  const shown = (id: string) => {
    const name = personName?.(id);
    return name && name !== id ? `${cell(name)} (${code(id)})` : code(id);
  };
  return deciders.map((l) => `- ${cell(l.covers)}: ${l.ids.map(shown).join(", ")}`);
}

/**
 * A review result as Markdown for a CI job's summary (`$GITHUB_STEP_SUMMARY`): the verdict, the
 * route, the findings as a table (policy, file, line, message), the coverage, and who can decide.
 * Pure; `deciders` are the lists the decision policy asks for (`deciderLists`); `headSha`, when
 * given, is named beside the PR (the PR's summary comment, src/github/pr-comment.ts, says which head it is about);
 * `personName` puts a name to a decider's id (Slack's display names, on the server).
 *
 * @example stepSummary(result, { deciders: [{ covers: "licensing", ids: ["U123"] }] }).startsWith("## compliance-gate: ") // true
 */
export function stepSummary(
  result: ReviewResult,
  opts: { deciders: readonly DeciderLine[]; headSha?: string; personName?: PersonName } & SummaryFit,
): string {
  const outcome = checkOutcome(result, opts.personName ? { personName: opts.personName } : {});
  const blocking = result.findings.filter((f) => f.blocking).length;
  const lines = [`## ${CHECK_NAME}: ${cell(outcome.title)}`, ""];
  const head = opts.headSha ? ` · **Head:** ${cell(opts.headSha)}` : "";
  lines.push(`**PR:** ${result.pr}${head} · **Review:** \`${result.review_id}\``);
  lines.push(
    `**Route:** ${result.route ? (ROUTE_TEXT[result.route] ?? result.route) : "none yet"} · **Status:** ${result.status}`,
  );
  if (result.escalation) lines.push(`**Why a person:** ${result.escalation.reason}: ${cell(result.escalation.detail)}`);
  lines.push(
    "",
    `### Findings (${result.findings.length}, ${blocking} blocking)`,
    "",
    ...findingsTable(result.findings, opts),
  );
  lines.push("", "### Coverage", "");
  lines.push(...(result.coverage ? coverageLines(result.coverage).map((l) => `- ${l}`) : ["Not measured yet."]));
  lines.push("", "### Who can decide", "", ...whoCanDecide(result, opts.deciders, opts.personName));
  return `${lines.join("\n")}\n`;
}

/**
 * What the summary says when no review could be made (GitHub's error, bad credentials).
 *
 * @example failureSummary("acme/web#7", "cannot read pull request acme/web#7: GitHub answered 500")
 */
export function failureSummary(pr: string, why: string): string {
  return `## ${CHECK_NAME}: could not review ${pr}\n\n${cell(why)}\n`;
}
