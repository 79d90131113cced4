import { GateError, messageOf } from "../../domain/errors.js";
import { withFingerprints } from "../../domain/fingerprint.js";
import { readingPlan, withKept } from "../incremental.js";
import type { Specialty } from "../../domain/finding.js";
import type { Usage } from "../../domain/usage.js";
import type { Policy } from "../../domain/policy.js";
import { configOf, ownPolicies, reviewedPullRequest, type ReviewGraphDeps } from "../deps.js";
import type { SpecialistOutput } from "../../domain/specialist.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";

/** A specialist that gave no answer within its time limit. */
class SpecialistTimeout extends GateError {
  /** What the cut-off work reported it had spent, if it said so within the grace period. */
  usage?: Partial<Usage>;

  constructor(message: string) {
    super("SPECIALIST_TIMEOUT", message);
    this.name = "SpecialistTimeout";
  }
}

/** How long an aborted specialist gets to report what it spent before the node moves on. */
const ABORT_GRACE_MS = 1000;

/** Runs `work` with an AbortSignal that fires after `ms`; rejects with SpecialistTimeout then. */
async function withTimeout<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const running = work(controller.signal);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SpecialistTimeout(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([running, timeout]);
  } catch (error) {
    if (!(error instanceof SpecialistTimeout)) throw error;
    // Stop the work, and give it a moment to say what its cut-off calls cost.
    controller.abort(error);
    const settled = await Promise.race([
      running.then(
        () => undefined,
        (e: unknown) => e,
      ),
      new Promise((resolve) => setTimeout(resolve, ABORT_GRACE_MS).unref()),
    ]);
    const usage = (settled as { usage?: Partial<Usage> } | undefined)?.usage;
    if (usage) error.usage = usage;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The policies a specialist weighs: those retrieved, plus any its detections or concerns cite. */
async function policiesFor(deps: ReviewGraphDeps, state: ReviewStateValue, specialty: Specialty): Promise<Policy[]> {
  const ids = new Set(state.retrieved[specialty] ?? []);
  for (const d of state.detections) if (d.specialty === specialty) ids.add(d.policy);
  for (const r of state.investigations) for (const c of r.concerns) ids.add(c.policy);
  // The repository's own policies (kept with its configuration) are weighed like the server's.
  const own = ownPolicies(await configOf(deps, state));
  return [...deps.policies, ...own].filter((p) => p.specialty === specialty && ids.has(p.id));
}

/**
 * One specialty's node: the configured specialist under `GATE_SPECIALIST_TIMEOUT_MS`. A timeout or
 * an error keeps the detectors' findings and escalates; it never fails the graph.
 */
export function specialistNode(deps: ReviewGraphDeps, specialty: Specialty) {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    const pr = await reviewedPullRequest(deps, state);
    if (!pr) return {};
    const detections = state.detections.filter((d) => d.specialty === specialty);
    const specialist = deps.specialists[specialty];
    // A model reads again only what changed since its last reading of this PR.
    const plan = readingPlan(pr, state.since?.reading, specialist, specialty);
    const reviewed = plan.reviewed ? { reviewed: plan.reviewed } : {};
    const policies = await policiesFor(deps, state, specialty);
    try {
      const out: SpecialistOutput = await withTimeout(deps.specialistTimeoutMs, (signal) =>
        specialist.review({
          specialty,
          pr: plan.pr,
          policies,
          detections,
          investigations: state.investigations,
          signal,
        }),
      );
      return {
        findings: {
          [specialty]: {
            findings: withKept(withFingerprints(out.findings, pr.files), plan.kept),
            verdicts: out.verdicts,
            notReviewed: out.notReviewed,
            round: state.round,
            ...reviewed,
          },
        },
        usage: out.usage,
      };
    } catch (error) {
      const timedOut = error instanceof SpecialistTimeout;
      const detail = `${specialty} specialist ${timedOut ? "timed out" : "failed"}: ${messageOf(error)}`;
      deps.log.warn({ err: error, specialty, reviewId: state.reviewId }, "specialist did not finish");
      // A model that answered badly still cost money: count what its failed attempts used.
      const spent = (error as { usage?: Partial<Usage> }).usage;
      return {
        findings: {
          [specialty]: {
            findings: withKept(detections, plan.kept),
            verdicts: [],
            notReviewed: [],
            round: state.round,
            failed: detail,
          },
        },
        escalation: { reason: timedOut ? "timeout" : "specialist_error", detail },
        ...(spent ? { usage: spent } : {}),
      };
    }
  };
}
