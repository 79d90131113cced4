import type { Usage } from "./usage.js";
import type { Finding } from "./finding.js";

/** A quoted line of the snapshot that supports an answer. */
export interface Evidence {
  file: string;
  line: number;
  excerpt: string;
}

/** Something the investigator found that a policy forbids, with the line that shows it. */
export interface Concern {
  /** The policy it bears on, e.g. "SEC-03" or "DATA-01". */
  policy: string;
  message: string;
  evidence: Evidence;
}

/** What an investigation is asked. Plain JSON (checkpointed). */
export interface InvestigationRequest {
  /** The question in words, e.g. "Does the refactored session check still verify expiry?" */
  question: string;
  /** A specialist's needs_more_context (machine) or a person's Request info (human). */
  origin: "machine" | "human";
  /** Who asked, for a human request (a CLI name or a Slack user id). */
  askedBy?: string;
  /** The findings that asked for context (may be empty for a human question). */
  findings: Finding[];
}

/**
 * What the investigator returns. It never throws: failures and exhausted budgets come back as
 * `status: "inconclusive"` with a `reason`. Plain JSON (checkpointed, printed in `--json`).
 */
export interface InvestigationReport {
  status: "resolved" | "inconclusive";
  question: string;
  origin: "machine" | "human";
  askedBy?: string;
  answers: string[];
  evidence: Evidence[];
  /** Problems found in context; the specialists turn these into findings. Empty when all is well. */
  concerns: Concern[];
  turns: number;
  tool_calls: number;
  chars_read: number;
  /** Why it is inconclusive ("budget: max tool calls (12) reached", "timeout after 30000 ms", ...). */
  reason?: string;
  /**
   * For a question about SEC-03 findings: the files among theirs in which a cited line (read by a
   * tool, quoted as it reads) shows the check a clearance needs: a verify or compare call, or, where
   * no token is at stake, a condition that refuses. Set by the harness; absent for other questions.
   */
  checks_shown?: string[];
  /** Model usage of a model-driven strategy; zeros for the deterministic one. */
  usage: Usage;
}

/**
 * The newest machine investigation: the one that answers the latest needs_more_context question
 * (a person's questions are answered too, but never settle a detector's conditional block).
 *
 * @example latestMachineReport(state.investigations)?.status // "resolved"
 */
export function latestMachineReport(reports: readonly InvestigationReport[]): InvestigationReport | undefined {
  return [...reports].reverse().find((r) => r.origin === "machine");
}
