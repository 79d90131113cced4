import type { Finding, Specialty } from "./finding.js";
import type { PullRequest } from "./pull-request.js";
import type { InvestigationReport } from "./investigation.js";
import type { Usage } from "./usage.js";
import type { Policy } from "./policy.js";

/** A specialist's view of one policy it examined (models give these; rules may). */
export interface PolicyVerdict {
  policy: string;
  verdict: "violated" | "compliant" | "unsure";
  reason: string;
}

/** Everything a specialist reviews. */
export interface SpecialistInput {
  specialty: Specialty;
  pr: PullRequest;
  /** The policies retrieved for this specialty. */
  policies: Policy[];
  /** The deterministic detectors' findings of this specialty. */
  detections: Finding[];
  /** Every investigation so far, oldest first (the newest answers the latest question). */
  investigations: InvestigationReport[];
  signal: AbortSignal;
}

/** A specialist's batch. It replaces the specialty's previous batch in state (mergeFindings). */
export interface SpecialistOutput {
  findings: Finding[];
  verdicts: PolicyVerdict[];
  usage: Usage;
  /** Files (or parts) the specialist could not review, e.g. dropped by the input budget. */
  notReviewed: string[];
}

/**
 * One specialty's reviewer: the deterministic rules reviewer (default) or Claude.
 * May throw; the specialist node turns a throw or a timeout into an escalation.
 */
export interface Specialist {
  kind: "rules" | "model";
  review(input: SpecialistInput): Promise<SpecialistOutput>;
}
