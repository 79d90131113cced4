import type { Finding } from "../../domain/finding.js";
import type { ChangedFile, PullRequest } from "../../domain/pull-request.js";
import type { LicenseRules, VulnerabilityRules } from "../../gate-file/effective.js";

/** The context's collaborators a detector on a worker reaches through the main thread. */
export type CallTarget = "head" | "licenses" | "advisories";

/** Main thread to worker: some of a job's changed files, in order (before its `DetectJob`). */
export interface FilesOfJob {
  type: "files";
  job: number;
  files: ChangedFile[];
}

/** Main thread to worker: a job that will not come (its files could not all be sent); its files are dropped. */
export interface ForgetJob {
  type: "forget";
  job: number;
}

/** Main thread to worker: run these detectors over this change. */
export interface DetectJob {
  type: "detect";
  job: number;
  /** Ids of detectors of ALL_DETECTORS. */
  detectors: string[];
  /** The change, its files those of the job's `FilesOfJob` messages followed by these. */
  pr: PullRequest;
  licenseRules: LicenseRules;
  vulnerabilityRules?: VulnerabilityRules;
}

/** Main thread to worker: the answer to a call the worker made. */
export interface CallReply {
  type: "reply";
  call: number;
  ok?: unknown;
  error?: string;
}

/** Worker to main thread: a call of the head files, the licence resolver or the advisory source. */
export interface CallRequest {
  type: "call";
  /** The job whose detector asks. */
  job: number;
  call: number;
  target: CallTarget;
  args: unknown[];
}

/** One detector's outcome: its findings, or what it threw. */
export type DetectorOutcome = { detector: string; findings: Finding[] } | { detector: string; error: string };

/** Worker to main thread: a job's outcomes, and what its detectors could not read (`notRead`). */
export interface JobDone {
  type: "done";
  job: number;
  outcomes: DetectorOutcome[];
  notRead: Array<[file: string, detail: string]>;
  /** How long (ms) the job paused while the main thread answered requests (step-aside.ts). */
  steppedAsideMs: number;
}
