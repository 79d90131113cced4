import type { Policy } from "../../domain/policy.js";
import type { PullRequest } from "../../domain/pull-request.js";
import type { DetectorOutcome } from "./protocol.js";

/** A policy file kept as text (a repository's own, `.github/gate/policies/`). */
export interface PolicyText {
  source: string;
  text: string;
}

/**
 * Main process to the rules process: run teams' ast-grep rules over this change: the server's
 * rule policies (parsed) and the repository's own (as text, parsed there), within `budgetMs`.
 * Before each search the rules process writes which rule searches which file into its progress
 * file, so that a job stopped mid-search names its rule.
 */
export interface RulesJob {
  type: "rules";
  job: number;
  pr: PullRequest;
  policies: Policy[];
  texts: PolicyText[];
  budgetMs: number;
}

/** Main process to the rules process: check a repository's own policy files (`repositoryPolicies`) against the server's ids. */
export interface CheckPoliciesJob {
  type: "check-policies";
  job: number;
  texts: PolicyText[];
  /** The server's policies, by id and source. */
  server: Array<{ id: string; source: string }>;
}

/** The rules process to the main process: a `RulesJob`'s outcomes, one per policy (`rules:ID`). */
export interface RulesDone {
  type: "rules-done";
  job: number;
  outcomes: DetectorOutcome[];
  /** The changed files each rule detector reads (for the coverage ledger). */
  readBy: Array<[detector: string, files: string[]]>;
}

/** The rules process to the main process: a `CheckPoliciesJob`'s answer. */
export interface PoliciesChecked {
  type: "checked";
  job: number;
  policies: Policy[];
  problem?: string;
}

/** The rules process to the main process: a `RulesJob`'s rules are parsed and compiled; its budget starts now. */
export interface RulesSearching {
  type: "searching";
  job: number;
}
