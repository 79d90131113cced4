import type { Finding } from "./finding.js";
import type { Approval } from "./approval.js";

/** How a new head relates to an earlier one (GitHub's compare API). */
export type HeadHistory = "ahead" | "rewritten" | "unknown";

/** What the compare API says of two heads: whether the old is an ancestor, and the files changed between them. */
export interface HeadComparison {
  history: HeadHistory;
  /** Files changed between the two heads; undefined when GitHub's list is cut short or unknown. */
  files?: string[];
}

/**
 * Compares two heads of a pull request's repository; answers `unknown` when it cannot (no
 * GitHub, an error): then nothing is carried and everything is reviewed again.
 */
export interface PushHistory {
  compare(where: { repo: string; installationId?: number }, baseSha: string, headSha: string): Promise<HeadComparison>;
}

/** Where a person decided, as the carried decision must be checked again: the door and the groups it saw. */
export interface DecidedVia {
  kind: "slack" | "cli" | "github";
  groups?: string[];
}

/** Where a carried decision was made: the review and head a person decided on, and when. */
export interface CarriedFrom {
  review_id: string;
  head_sha: string;
  at: string;
}

/** One blocking finding a decision covered: its fingerprint and where it was. */
export interface CoveredFinding {
  fingerprint: string;
  policy: string;
  file?: string;
  package?: { name: string; version?: string };
}

/** The PR's last completed review with a person's decision, as a new head starts. Plain JSON. */
export interface PriorDecision extends HeadComparison {
  review_id: string;
  head_sha: string;
  kind: "approve" | "reject";
  by: string;
  at: string;
  note?: string;
  via?: DecidedVia;
  /** The review a person decided on, when the prior decision was itself carried. */
  origin: CarriedFrom;
  /** The blocking findings the decision covered. */
  covered: CoveredFinding[];
  /** When several approvers were needed: every approval, the deciding one last (each is checked again). */
  approvals?: Approval[];
  /** The base branch the decided review was against (its pull request's `base.ref`), when known. */
  base_ref?: string;
  /**
   * Set when the PR moved to another base branch since the decision (a review registered for the
   * retarget, or this one): the same code has another diff, so nothing carries across it.
   */
  retargeted?: boolean;
}

/** The PR's last completed model review, as a new head starts: what need not be read again. Plain JSON. */
export interface PriorReading extends HeadComparison {
  review_id: string;
  head_sha: string;
  /** The head each file was last read at by the model specialists. */
  reviewed: Record<string, string>;
  /** The model's own findings of that review (its specialists' answers), kept for unchanged files. */
  findings: Finding[];
}

/** What a new head of a PR inherits from earlier reviews: a decision to carry, a reading to reuse. Plain JSON. */
export interface SinceEarlier {
  decision?: PriorDecision;
  reading?: PriorReading;
}

/** `decisions.carry_forward`: keep a decision while its findings are unchanged, also while their files are, or never. */
export type CarryForwardMode = "unchanged_findings" | "unchanged_files" | "never";
