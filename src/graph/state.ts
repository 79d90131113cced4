import { Annotation } from "@langchain/langgraph";
import type { SinceEarlier } from "../domain/carry.js";
import type { Coverage } from "../domain/coverage.js";
import type { Finding, Specialty } from "../domain/finding.js";
import type { LookupFailure } from "../domain/license-resolver.js";
import type { PullRequestSummary } from "../domain/pull-request.js";
import type { InvestigationReport, InvestigationRequest } from "../domain/investigation.js";
import type { SnapshotRef } from "../domain/snapshot-ref.js";
import { addSparseUsage, type Usage } from "../domain/usage.js";
import type { Decision, Escalation, Route } from "../domain/review-result.js";
import type { Risk } from "../domain/risk.js";
import type { ReviewSource } from "../domain/review-source.js";
import type { PolicyVerdict } from "../domain/specialist.js";
import type { EffectiveConfig } from "../gate-file/effective.js";

/** One specialty's latest batch. A new batch replaces the old one (see `mergeFindings`). */
export interface SpecialtyBatch {
  findings: Finding[];
  verdicts: PolicyVerdict[];
  notReviewed: string[];
  /** The specialist round that produced it (0 before any investigation, +1 after each). */
  round: number;
  /** Set when the specialist timed out or failed: its findings are then the detectors' alone. */
  failed?: string;
  /** A model specialist: the head each file was read at (files unchanged since an earlier review were read there). */
  reviewed?: Record<string, string>;
}

export type FindingsBySpecialty = Partial<Record<Specialty, SpecialtyBatch>>;

/**
 * Per-specialty merge (docs/design.md, reason 1): a specialty's new batch replaces its previous batch
 * whole, so a stale `needs_more_context` never survives a re-run. Order-independent across
 * specialties, so parallel specialists can write in one superstep.
 *
 * @example mergeFindings({ security: old }, { security: fresh }).security === fresh
 */
export function mergeFindings(current: FindingsBySpecialty, update: FindingsBySpecialty): FindingsBySpecialty {
  return { ...current, ...update };
}

/** An escalation write, or `"clear"` (written when a machine investigation starts a new round). */
export type EscalationUpdate = Escalation | "clear";

/**
 * First-wins (docs/design.md, reason 2): two specialists timing out in one superstep both write, and the
 * first (by node name, as LangGraph applies writes in task-path order) is kept. Never throws.
 *
 * @example coalesceEscalation(null, { reason: "timeout", detail: "security" }).reason // "timeout"
 */
export function coalesceEscalation(current: Escalation | null, update: EscalationUpdate | null): Escalation | null {
  if (update === "clear") return null;
  return current ?? update ?? null;
}

/** Appends investigation reports in order. */
export function appendReports(current: InvestigationReport[], update: InvestigationReport[]): InvestigationReport[] {
  return [...current, ...update];
}

/** Where reconcile sends the review next. */
export type ReconcileRoute = "investigate" | "human_gate" | "verdict";

/**
 * The review graph's state. Every field is plain JSON (checkpointed to SQLite).
 */
export const ReviewState = Annotation.Root({
  /** The review's id (= thread id). Written by the runner at the first invoke. */
  reviewId: Annotation<string>,
  /** What to review. Written by the runner at the first invoke. */
  source: Annotation<ReviewSource>,
  /** Investigation cycles this review may use (GATE_MAX_CYCLES at start). Written by the runner. */
  cyclesMax: Annotation<number>,
  /**
   * What this head inherits from the PR's earlier reviews: the last decision (carried forward
   * when its findings are unchanged) and the last model reading (files unchanged since are not
   * sent to the model again). Null for a first review, a re-run, or a review kept before it existed.
   * Written by the runner at the first invoke.
   */
  since: Annotation<SinceEarlier | null>({ reducer: (_a, b) => b, default: () => null }),
  /** Model spend (USD) past which no investigation starts (GATE_MAX_COST_USD at start). Written by the runner. */
  maxCostUsd: Annotation<number | null>({ reducer: (_a, b) => b, default: () => null }),
  /**
   * The pull request without its files (they are stored once, outside the checkpoints: nodes read
   * them with `deps.pullRequests`). Written by `intake`.
   */
  pr: Annotation<PullRequestSummary | null>({ reducer: (_a, b) => b, default: () => null }),
  /**
   * The digest of the configuration this review runs with (the server-wide file, the repository's
   * base-branch file over it), kept once outside the checkpoints (`configShelf`): every checkpoint
   * would otherwise carry a copy. Written by `intake`.
   */
  configRef: Annotation<string | null>({ reducer: (_a, b) => b, default: () => null }),
  /**
   * The configuration itself, as reviews checkpointed before `configRef` existed hold it; null in
   * newer reviews, and in reviews from before either existed (the server-wide configuration then
   * applies). Read only.
   */
  config: Annotation<EffectiveConfig | null>({ reducer: (_a, b) => b, default: () => null }),
  /** The head snapshot the investigator may read. Written by `intake`. */
  snapshot: Annotation<SnapshotRef>({ reducer: (_a, b) => b, default: () => ({ kind: "none" }) }),
  /** Why intake could not give a complete PR (fail closed to a person). Written by `intake`. */
  intakeProblem: Annotation<string | null>({ reducer: (_a, b) => b, default: () => null }),
  /** The deterministic detectors' findings. Written by `detect`. */
  detections: Annotation<Finding[]>({ reducer: (_a, b) => b, default: () => [] }),
  /** Licence lookups that got no answer (the review goes to a person: `lookup_failed`). Written by `detect`. */
  lookupFailures: Annotation<LookupFailure[]>({ reducer: (_a, b) => b, default: () => [] }),
  /**
   * The coverage ledger: what the detectors read and what they could not (unread code goes to a
   * person, `not_inspected`). Null in reviews checkpointed before the ledger existed. Written by `detect`.
   */
  coverage: Annotation<Coverage | null>({ reducer: (_a, b) => b, default: () => null }),
  /** Detectors that failed (their policies were not checked). Written by `detect`. */
  detectorErrors: Annotation<string[]>({ reducer: (_a, b) => b, default: () => [] }),
  /** Cost gate one's verdict. Written by `assess_risk`. */
  risk: Annotation<Risk | null>({ reducer: (_a, b) => b, default: () => null }),
  /** Policy ids retrieved per specialty. Written by `retrieve_policies`. */
  retrieved: Annotation<Partial<Record<Specialty, string[]>>>({ reducer: (_a, b) => b, default: () => ({}) }),
  /** Specialist round: 0 at first, +1 per investigation. Written by `investigate`. */
  round: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
  /** Each specialty's latest batch. Written by the three specialists in one superstep. */
  findings: Annotation<FindingsBySpecialty, FindingsBySpecialty>({ reducer: mergeFindings, default: () => ({}) }),
  /** Why the review goes to a person. Written by specialists (timeout, error) and `reconcile`; first wins. */
  escalation: Annotation<Escalation | null, EscalationUpdate | null>({
    reducer: coalesceEscalation,
    default: () => null,
  }),
  /** Model usage summed over every call. Written by specialists and `investigate`. */
  usage: Annotation<Partial<Usage>, Partial<Usage>>({ reducer: addSparseUsage, default: () => ({}) }),
  /** Investigation reports, oldest first; their count is the cycles used. Written by `investigate`. */
  investigations: Annotation<InvestigationReport[]>({ reducer: appendReports, default: () => [] }),
  /** The question the next investigation answers. Written by `reconcile` and `human_gate`, cleared by `investigate`. */
  pendingQuestion: Annotation<InvestigationRequest | null>({ reducer: (_a, b) => b, default: () => null }),
  /** reconcile's decision, read by its conditional edge. Written by `reconcile`. */
  next: Annotation<ReconcileRoute | null>({ reducer: (_a, b) => b, default: () => null }),
  /** A person's decision. Written by `human_gate`. */
  decision: Annotation<Decision | null>({ reducer: (_a, b) => b, default: () => null }),
  /** Where the review ended. Written by `verdict`. */
  route: Annotation<Route | null>({ reducer: (_a, b) => b, default: () => null }),
});

export type ReviewStateValue = typeof ReviewState.State;
export type ReviewStateUpdate = typeof ReviewState.Update;
