import { describeError } from "../domain/errors.js";
import type { PullRequest } from "../domain/pull-request.js";
import { ZERO_USAGE } from "../domain/usage.js";
import { runInvestigation, type HarnessProgress, type InvestigationLimits } from "./harness.js";
import type { InvestigationReport, InvestigationRequest } from "../domain/investigation.js";
import type { OpenSnapshot, SnapshotCache, SnapshotRef } from "../domain/snapshot-ref.js";
import type { Strategy } from "./strategy.js";
import { withCrossCheck } from "./cross-check.js";

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
 * Builds the investigator: has the snapshot's sandbox root from `snapshots` (fetched if this process
 * has no copy; a refused ref or a snapshot that cannot be had gives an inconclusive report, not a
 * throw) and runs the harness with the configured limits and what the snapshot lost, so a tool
 * call an incomplete snapshot cannot answer whole ends the investigation inconclusive.
 *
 * `newStrategy` makes one strategy per investigation, so a strategy that keeps a conversation
 * (the model's) never mixes two reviews investigated at once.
 *
 * `crossCheck` (the deterministic strategy, when `newStrategy` is a model's) re-asks the same
 * question without a model whenever the first answer clears it. A clearance counts only when the
 * cross-check found no concern, and assessed every new file of a SEC-03 finding (`withCrossCheck`);
 * otherwise the report is inconclusive, so a person decides.
 *
 * @example const inv = createInvestigator({ newStrategy: createDeterministicStrategy, snapshots,
 *   limits: { maxTurns: 6, maxToolCalls: 12, maxFileChars: 60000, timeoutMs: 30000 } });
 */
export function createInvestigator(deps: {
  newStrategy: () => Strategy;
  crossCheck?: () => Strategy;
  snapshots: SnapshotCache;
  limits: InvestigationLimits;
}): Investigator {
  return {
    async investigate(req, ctx) {
      let snapshot: OpenSnapshot;
      try {
        snapshot = await deps.snapshots.open(ctx.snapshot);
      } catch (error) {
        return refused(req, `no readable snapshot: ${describeError(error)}`);
      }
      const { root, lost } = snapshot;
      const report = await runInvestigation({
        strategy: deps.newStrategy(),
        request: req,
        pr: ctx.pr,
        root,
        lost,
        limits: deps.limits,
        ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      if (!deps.crossCheck || report.status !== "resolved" || report.concerns.length > 0) return report;
      const check = await runInvestigation({
        strategy: deps.crossCheck(),
        request: req,
        pr: ctx.pr,
        root,
        lost,
        limits: deps.limits,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      return withCrossCheck(report, check, req, ctx.pr);
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
