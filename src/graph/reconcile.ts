import type { Finding } from "../domain/finding.js";
import { latestMachineReport, type InvestigationReport, type InvestigationRequest } from "../domain/investigation.js";
import type { Escalation } from "../domain/review-result.js";
import { describeLookupFailure, lookupFailureHeadline, type LookupFailure } from "../domain/license-resolver.js";
import { describeUnread, type UnreadEntry } from "../domain/coverage.js";
import { investigationRefusal } from "./budget.js";
import type { FindingsBySpecialty, ReconcileRoute } from "./state.js";

/** What reconcile reads. A pure function of it: the same inputs give the same route. */
export interface ReconcileInput {
  findings: FindingsBySpecialty;
  detections: Finding[];
  escalation: Escalation | null;
  investigations: InvestigationReport[];
  cyclesMax: number;
  /** Model spend so far and its cap (null: no cap). */
  costUsd: number;
  maxCostUsd: number | null;
  /** What could not be checked at all (intake problems, failed detectors). */
  incomplete: string[];
  /** Licence and advisory lookups that got no answer. */
  lookupFailures: LookupFailure[];
  /** What the coverage ledger says the detectors could not read (and no configuration accepts). */
  unread: UnreadEntry[];
}

export interface ReconcileOutcome {
  next: ReconcileRoute;
  /** Set when `next` is `human_gate` and no escalation was already recorded. */
  escalation?: Escalation;
  /** Set when `next` is `investigate`. */
  question?: InvestigationRequest;
}

const key = (f: Pick<Finding, "policy" | "file">) => `${f.policy}@${f.file ?? ""}`;

/** A detector's block that the specialists' findings no longer carry as a block. */
function clearedBlocks(input: ReconcileInput, all: Finding[]): Finding[] {
  const blocking = new Set(all.filter((f) => f.blocking).map(key));
  // The same report the specialists settle it from: the newest machine investigation.
  const resolvedByInvestigation = latestMachineReport(input.investigations)?.status === "resolved";
  return input.detections.filter((d) => {
    if (!d.blocking || blocking.has(key(d))) return false;
    // A conditional block (needs context) may be cleared, but only by an investigation that resolved it.
    return !(d.needs_more_context && resolvedByInvestigation);
  });
}

/** A policy a detector flagged that a specialist called compliant. */
function contradictedPolicies(input: ReconcileInput): string[] {
  const flagged = new Set(input.detections.filter((d) => d.blocking && !d.needs_more_context).map((d) => d.policy));
  const out: string[] = [];
  for (const batch of Object.values(input.findings)) {
    for (const v of batch?.verdicts ?? []) {
      if (v.verdict === "compliant" && flagged.has(v.policy)) out.push(v.policy);
    }
  }
  return [...new Set(out)].sort();
}

function describe(findings: Finding[]): string {
  const ids = [...new Set(findings.map((f) => f.policy))].sort();
  return ids.join(", ");
}

/**
 * The rule ladder that routes a review after the specialists (plain code, no model). Rungs, in order:
 * 1. an escalation already recorded (specialist timeout or error, a person's open question) → human
 * 2. a licence or advisory lookup got no answer (a registry or OSV down, slow, 5xx, unparseable) → human `lookup_failed`
 * 3. the detectors could not read part of the change (the coverage ledger) → human `not_inspected`
 * 4. part of the PR was not reviewed (input budget, intake, a failed detector) → human `not_fully_reviewed`
 * 5. a specialist contradicts a detector's block → human `disagreement`
 * 6. the latest investigation was inconclusive → human `inconclusive`
 * 7. a blocking finding that needs no more context → human `blocking_finding`
 * 8. a finding needs more context: cycles and money left → investigate; else → human `budget_exhausted`
 * 9. otherwise → verdict
 *
 * @example reconcile({ findings: {}, detections: [], escalation: null, investigations: [], cyclesMax: 2, costUsd: 0, maxCostUsd: null, incomplete: [], lookupFailures: [], unread: [] }).next // "verdict"
 */
export function reconcile(input: ReconcileInput): ReconcileOutcome {
  const batches = Object.values(input.findings).filter((b) => b !== undefined);
  const all = batches.flatMap((b) => b.findings);

  if (input.escalation) return { next: "human_gate" };

  if (input.lookupFailures.length > 0) {
    const shown = input.lookupFailures.slice(0, 5).map(describeLookupFailure);
    const more = input.lookupFailures.length > 5 ? `; and ${input.lookupFailures.length - 5} more` : "";
    return human("lookup_failed", `${lookupFailureHeadline(input.lookupFailures)}: ${shown.join("; ")}${more}`);
  }

  // A model's reading never counts as a detector's: unread code goes to a person whatever it said.
  if (input.unread.length > 0)
    return human("not_inspected", `not read by the detectors: ${describeUnread(input.unread)}`);

  const notReviewed = [...new Set([...input.incomplete, ...batches.flatMap((b) => b.notReviewed)])];
  if (notReviewed.length > 0) {
    return human("not_fully_reviewed", `not reviewed: ${notReviewed.slice(0, 10).join(", ")}`);
  }

  const cleared = clearedBlocks(input, all);
  const contradicted = contradictedPolicies(input);
  if (cleared.length > 0 || contradicted.length > 0) {
    const policies = [...new Set([...cleared.map((f) => f.policy), ...contradicted])].sort();
    return human("disagreement", `a detector flagged ${policies.join(", ")}; a specialist says it is compliant`);
  }

  const latest = input.investigations.at(-1);
  if (latest?.status === "inconclusive") {
    return human("inconclusive", `investigation inconclusive: ${latest.reason ?? "no conclusion"}`);
  }

  const blocking = all.filter((f) => f.blocking && !f.needs_more_context);
  if (blocking.length > 0) return human("blocking_finding", `blocking: ${describe(blocking)}`);

  const asking = all.filter((f) => f.needs_more_context);
  if (asking.length > 0) {
    const refusal = investigationRefusal({
      cyclesUsed: input.investigations.length,
      cyclesMax: input.cyclesMax,
      costUsd: input.costUsd,
      maxCostUsd: input.maxCostUsd,
    });
    if (refusal) return human("budget_exhausted", `${describe(asking)} still need context: ${refusal}`);
    return { next: "investigate", question: questionFor(asking) };
  }

  return { next: "verdict" };
}

function human(reason: Escalation["reason"], detail: string): ReconcileOutcome {
  return { next: "human_gate", escalation: { reason, detail } };
}

/** The machine question for the findings that asked for context. */
export function questionFor(asking: Finding[]): InvestigationRequest {
  const files = [...new Set(asking.map((f) => f.file).filter((f): f is string => !!f))];
  return {
    question:
      `For ${describe(asking)} in ${files.join(", ") || "the change"}: does the surrounding code show that ` +
      `no check was weakened or removed, and that no token, password or secret is logged?`,
    origin: "machine",
    findings: asking,
  };
}
