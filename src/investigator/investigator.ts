import { describeError } from "../domain/errors.js";
import type { PullRequest } from "../domain/pull-request.js";
import { ZERO_USAGE } from "../domain/usage.js";
import { runInvestigation, type HarnessProgress, type InvestigationLimits } from "./harness.js";
import type { InvestigationReport, InvestigationRequest } from "../domain/investigation.js";
import { sandboxRoot } from "../snapshot/sandbox.js";
import type { SnapshotRef } from "../domain/snapshot-ref.js";
import type { Strategy } from "./strategy.js";

/** What an investigation needs besides the question: the PR, its snapshot and how to report progress. */
export interface InvestigateContext {
  pr: PullRequest;
  snapshot: SnapshotRef;
  signal?: AbortSignal;
  onProgress?: (p: HarnessProgress) => void;
}

/** The investigate node's one collaborator. `investigate` never throws. */
export interface Investigator {
  investigate(req: InvestigationRequest, ctx: InvestigateContext): Promise<InvestigationReport>;
}

/**
 * Builds the investigator: derives the sandbox root from the validated snapshot ref (a refused ref
 * gives an inconclusive report, not a throw) and runs the harness with the configured limits.
 *
 * `newStrategy` makes one strategy per investigation, so a strategy that keeps a conversation
 * (the model's) never mixes two reviews investigated at once.
 *
 * @example const inv = createInvestigator({ newStrategy: createDeterministicStrategy, dataDir: "/var/gate",
 *   limits: { maxTurns: 6, maxToolCalls: 12, maxFileChars: 60000, timeoutMs: 30000 } });
 */
export function createInvestigator(deps: {
  newStrategy: () => Strategy;
  dataDir: string;
  limits: InvestigationLimits;
}): Investigator {
  return {
    async investigate(req, ctx) {
      let root: string | undefined;
      try {
        root = sandboxRoot(ctx.snapshot, { dataDir: deps.dataDir });
      } catch (error) {
        return refused(req, `no readable snapshot: ${describeError(error)}`);
      }
      return runInvestigation({
        strategy: deps.newStrategy(),
        request: req,
        pr: ctx.pr,
        root,
        limits: deps.limits,
        ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    },
  };
}

function refused(req: InvestigationRequest, reason: string): InvestigationReport {
  return {
    status: "inconclusive",
    question: req.question,
    origin: req.origin,
    ...(req.askedBy !== undefined ? { askedBy: req.askedBy } : {}),
    answers: [],
    evidence: [],
    concerns: [],
    turns: 0,
    tool_calls: 0,
    chars_read: 0,
    reason,
    usage: { ...ZERO_USAGE },
  };
}
