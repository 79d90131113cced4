import type { SourceLine } from "./tool-text.js";

/** What a pending tool call was asked for, so its result lands in the right place. */
export interface PendingCall {
  purpose: "target" | "logging-grep" | "logging-file" | "symbols" | "question" | "helper";
  file?: string;
}

/** What one deterministic run has learnt so far. Kept per run (keyed by the run's AbortSignal). */
export interface RunState {
  phase: "start" | "follow" | "helpers" | "answer";
  /** Changed files to examine, repo-relative. */
  targets: string[];
  /** Lines read per file (head snapshot). */
  files: Map<string, SourceLine[]>;
  /** Files that could not be read, with the tool's error. */
  unreadable: Map<string, string>;
  /** Logging configuration files found (read in phase "follow"). */
  loggingFiles: string[];
  /** Hits of the grep for the followed symbols. */
  symbolHits: SourceLine[];
  /** Functions the changed code calls that are defined elsewhere: name → where. */
  helpers: Map<string, SourceLine>;
  /** Functions the change defines or modifies (their callers are listed). */
  changedFunctions: string[];
  /** Functions the change's added lines call that it does not define (candidates for helpers). */
  calledFunctions: string[];
  /** Grep hits for a person's question. */
  questionHits: SourceLine[];
  /** What each pending call was for, by call id. */
  pending: Map<string, PendingCall>;
}

/**
 * A fresh state for a run.
 *
 * @example newRunState().phase // "start"
 */
export function newRunState(): RunState {
  return {
    phase: "start",
    targets: [],
    files: new Map(),
    unreadable: new Map(),
    loggingFiles: [],
    symbolHits: [],
    helpers: new Map(),
    changedFunctions: [],
    calledFunctions: [],
    questionHits: [],
    pending: new Map(),
  };
}
