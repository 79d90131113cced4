import type { Severity } from "../../domain/finding.js";

/** One risk found in a workflow's text, before it is tied to the PR's added lines. */
export interface WorkflowIssue {
  /** 1-based line in the scanned text. */
  line: number;
  /** Other lines of the text that make up the risk (a trigger, a job); any added one makes it count. */
  involved: number[];
  severity: Severity;
  message: string;
  /**
   * What makes the risk, as a finding's `subject` (a digest): for a privileged job, its triggers,
   * the whole job (its steps) and the secrets it uses. Absent for a risk of one line (the line is it).
   */
  subject?: string;
}

/** Expressions that name the pull request's own code (its head commit or branch). */
export const PR_HEAD_REF =
  /github\.event\.pull_request\.head\.(sha|ref)|github\.head_ref|github\.event\.workflow_run\.head_(sha|branch)|refs\/pull\/|github\.event\.pull_request\.merge_commit_sha|github\.event\.pull_request\.head\.repo\.full_name|github\.event\.workflow_run\.head_repository/;

/** Shell commands that fetch or check out the pull request's code. */
export const RUN_CHECKS_OUT_PR =
  /gh\s+pr\s+checkout|git\s+(fetch|checkout|pull|switch)\b.*(pull\/|head\.sha|head\.ref|head_ref|head_sha|head_branch|FETCH_HEAD)/;

/** Triggers whose jobs run with the base repository's token and secrets. */
export const PRIVILEGED_TRIGGER = /(^|[\s[,{'"])(pull_request_target|workflow_run)(['"]?\s*(:|,|\]|}|$))/;
