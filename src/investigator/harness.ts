import { GateError } from "../domain/errors.js";
import type { LostEntry } from "../domain/snapshot-ref.js";
import type { PullRequest } from "../domain/pull-request.js";
import { addUsage, ZERO_USAGE, type Usage } from "../domain/usage.js";
import type { InvestigationReport, InvestigationRequest } from "../domain/investigation.js";
import type { Strategy, StrategyAnswer, StrategyMove, ToolCall, ToolResult } from "./strategy.js";
import { realRoot } from "../snapshot/sandbox.js";
import { isSnapshotIncomplete } from "../snapshot/snapshot-loss.js";
import { runTool, type ToolRunner } from "./tools/index.js";
import { LinesRead, normalizePath, unverifiedEvidence } from "./evidence-check.js";
import { fileChecks, type FileCheck } from "./auth-checks/checks-shown.js";
import { CallFollower, type FollowVerdict } from "./auth-checks/followed-call.js";
import { checkFamilyOf, checkFamilyOfFile, lineCheck } from "./auth-checks/line-check.js";
import type { CheckLanguage } from "./auth-checks/vocabulary.js";

/** The investigator's budgets; the harness counts them, never the strategy. */
export interface InvestigationLimits {
  maxTurns: number;
  maxToolCalls: number;
  maxFileChars: number;
  timeoutMs: number;
}

/** What the harness reports after every tool call. */
export interface HarnessProgress {
  turn: number;
  tool_calls: number;
  chars_read: number;
  cost_usd: number;
}

export interface RunInvestigationArgs {
  strategy: Strategy;
  request: InvestigationRequest;
  pr: PullRequest;
  /** The sandbox root (from `sandboxRoot`); undefined when the review has no snapshot. */
  root: string | undefined;
  /**
   * What the snapshot's extraction lost (`OpenSnapshot.lost`). The tools refuse what it keeps them
   * from answering whole, and such a refusal ends the investigation inconclusive: a person decides.
   */
  lost?: readonly LostEntry[];
  limits: InvestigationLimits;
  onProgress?: (p: HarnessProgress) => void;
  signal?: AbortSignal;
  /** The tool runner; the real read-only tools unless a test injects one. */
  tools?: ToolRunner;
}

/** Why the run stopped early; thrown inside the loop only, always turned into a report. */
class Stop extends GateError {
  constructor(reason: string) {
    super("INVESTIGATION_STOPPED", reason);
    this.name = "Stop";
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Drives a strategy turn by turn over the three read-only tools, counting turns, tool calls and
 * characters read, and stopping the moment a count is reached. It NEVER throws: a failing strategy
 * or tool, a timeout, an abort or a missing root all give `status: "inconclusive"` with a reason.
 *
 * @example const report = await runInvestigation({ strategy, request, pr, root, limits });
 *   report.status // "resolved" | "inconclusive"
 */
/** The usage an error reports (a model call that failed or was cut off), if any. */
function spentOf(error: unknown): Partial<Usage> {
  const usage = (error as { usage?: Partial<Usage> } | null | undefined)?.usage;
  return typeof usage === "object" && usage !== null ? usage : {};
}

/** Waits briefly for a stopped strategy call to settle, and returns what it says it spent. */
async function spentBy(pending: Promise<StrategyMove> | undefined): Promise<Partial<Usage>> {
  if (!pending) return {};
  const settled = await Promise.race([
    pending.then((move) => move?.usage ?? {}, spentOf),
    new Promise<Partial<Usage>>((resolve) => setTimeout(() => resolve({}), 1000).unref()),
  ]);
  return settled;
}

export async function runInvestigation(args: RunInvestigationArgs): Promise<InvestigationReport> {
  const { strategy, request, pr, root, limits } = args;
  const tools = args.tools ?? runTool;
  let usage: Usage = ZERO_USAGE;
  const counts = { turns: 0, tool_calls: 0, chars_read: 0 };
  const linesRead = new LinesRead();
  /** Cited helper calls followed into the snapshot, by `file:line` (filled before an answer is reported). */
  const followed = new Map<string, FollowVerdict>();

  const report = (answer: StrategyAnswer | undefined, reason: string | undefined): InvestigationReport => ({
    status: answer?.conclusive === true && reason === undefined ? "resolved" : "inconclusive",
    ...checksShown(answer),
    question: request.question,
    origin: request.origin,
    ...(request.askedBy !== undefined ? { askedBy: request.askedBy } : {}),
    answers: Array.isArray(answer?.answers) ? [...answer.answers] : [],
    evidence: Array.isArray(answer?.evidence) ? [...answer.evidence] : [],
    concerns: Array.isArray(answer?.concerns) ? [...answer.concerns] : [],
    turns: counts.turns,
    tool_calls: counts.tool_calls,
    chars_read: counts.chars_read,
    ...(reason !== undefined ? { reason } : {}),
    usage: { ...usage },
  });

  if (root === undefined) return report(undefined, "no snapshot of the repository to read");
  try {
    await realRoot(root);
  } catch (error) {
    return report(undefined, messageOf(error));
  }

  const controller = new AbortController();
  let stopReason = "stopped";
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(new Stop(stopReason)), { once: true });
  });
  stopped.catch(() => undefined); // handled by every race below; this marks it handled up front
  const abort = (reason: string): void => {
    if (controller.signal.aborted) return;
    stopReason = reason;
    controller.abort();
  };
  const onOuterAbort = (): void => abort("aborted before the investigation finished");
  const timer = setTimeout(() => abort(`timeout after ${limits.timeoutMs} ms`), Math.max(0, limits.timeoutMs));
  if (args.signal?.aborted) onOuterAbort();
  else args.signal?.addEventListener("abort", onOuterAbort, { once: true });

  const race = <T>(work: () => Promise<T>): Promise<T> => {
    if (controller.signal.aborted) return Promise.reject(new Stop(stopReason));
    return Promise.race([Promise.resolve().then(work), stopped]);
  };
  const progress = (): void => {
    try {
      args.onProgress?.({
        turn: counts.turns,
        tool_calls: counts.tool_calls,
        chars_read: counts.chars_read,
        cost_usd: usage.cost_usd,
      });
    } catch {
      // a broken progress listener must not stop the investigation
    }
  };

  try {
    let results: ToolResult[] = [];
    for (;;) {
      if (counts.turns >= limits.maxTurns) return report(undefined, `budget: max turns (${limits.maxTurns}) reached`);
      counts.turns++;
      const ctx = {
        request,
        pr,
        turn: counts.turns,
        results,
        remaining: {
          turns: limits.maxTurns - counts.turns,
          tool_calls: limits.maxToolCalls - counts.tool_calls,
          chars: limits.maxFileChars - counts.chars_read,
        },
        signal: controller.signal,
      };
      let move: StrategyMove;
      let pending: Promise<StrategyMove> | undefined;
      try {
        move = await race(() => (pending = strategy.next(ctx)));
      } catch (error) {
        if (error instanceof Stop) {
          // A model call cut off by the stop may still have been billed: count what it reports.
          usage = addUsage(usage, await spentBy(pending));
          throw error;
        }
        usage = addUsage(usage, spentOf(error));
        return report(undefined, `strategy ${strategy.name} failed: ${messageOf(error)}`);
      }
      usage = addUsage(usage, move?.usage ?? {});
      if (move?.kind === "answer") {
        const answer = move.answer;
        await race(() => followHelpers(answer));
        const reason =
          answer?.conclusive === true
            ? (clearanceProblem(answer) ?? uncheckedClearance(answer))
            : (answer?.reason ?? "the strategy could not reach a conclusion");
        return report(answer, reason);
      }
      if (move?.kind !== "tools" || !Array.isArray(move.calls)) {
        return report(undefined, `strategy ${strategy.name} returned an unknown move`);
      }
      if (move.calls.length > 0 && counts.turns >= limits.maxTurns) {
        return report(undefined, `budget: max turns (${limits.maxTurns}) reached`);
      }
      results = [];
      for (const call of move.calls) {
        if (counts.tool_calls >= limits.maxToolCalls) {
          return report(undefined, `budget: max tool calls (${limits.maxToolCalls}) reached`);
        }
        const remainingChars = limits.maxFileChars - counts.chars_read;
        results.push(await execute(call, remainingChars));
        progress();
        if (counts.tool_calls >= limits.maxToolCalls) {
          return report(undefined, `budget: max tool calls (${limits.maxToolCalls}) reached`);
        }
        if (counts.chars_read >= limits.maxFileChars) {
          return report(undefined, `budget: max file chars (${limits.maxFileChars}) reached`);
        }
      }
    }
  } catch (error) {
    if (error instanceof Stop || isSnapshotIncomplete(error)) return report(undefined, error.message);
    return report(undefined, `investigation failed: ${messageOf(error)}`);
  } finally {
    clearTimeout(timer);
    args.signal?.removeEventListener("abort", onOuterAbort);
  }

  /**
   * A clearance (conclusive, no concern) counts only with evidence the harness verified: each cited
   * line was shown by a tool in this investigation and says what the excerpt says.
   */
  function clearanceProblem(answer: StrategyAnswer): string | undefined {
    if (Array.isArray(answer.concerns) && answer.concerns.length > 0) return undefined;
    const evidence = Array.isArray(answer.evidence) ? answer.evidence : [];
    if (evidence.length === 0) return "unverified: the answer clears the question but cites no line that shows it";
    const problems = unverifiedEvidence(evidence, linesRead);
    if (problems.length === 0) return undefined;
    return `unverified evidence: ${problems.slice(0, 3).join("; ")}${problems.length > 3 ? `; and ${problems.length - 3} more` : ""}`;
  }

  function verifiedEvidence(answer: StrategyAnswer | undefined) {
    const evidence = Array.isArray(answer?.evidence) ? answer.evidence : [];
    return evidence.filter((e) => unverifiedEvidence([e], linesRead).length === 0);
  }

  /**
   * Follows every cited call of a project's own verify helper into the snapshot (`CallFollower`):
   * such a line shows a verification only when the helper's body verifies.
   */
  async function followHelpers(answer: StrategyAnswer | undefined): Promise<void> {
    if (root === undefined || !request.findings.some((f) => f.policy === "SEC-03")) return;
    const followers = new Map<CheckLanguage, CallFollower>();
    for (const e of verifiedEvidence(answer)) {
      const key = `${normalizePath(e.file)}:${e.line}`;
      const check = lineCheck(e.file, (n) => linesRead.text(e.file, n), e.line);
      const family = checkFamilyOfFile(e.file);
      if (check?.helper === undefined || family === undefined || followed.has(key)) continue;
      let follower = followers.get(family);
      if (!follower) {
        follower = new CallFollower(root, family, checkFamilyOf);
        followers.set(family, follower);
      }
      followed.set(key, await follower.follow(check.what, check.helper));
    }
  }

  /** The question's SEC-03 files, each with the verified cited line that shows its check, if any. */
  function checksOf(answer: StrategyAnswer | undefined): FileCheck[] {
    return fileChecks(
      request,
      pr,
      verifiedEvidence(answer),
      (file, line) => linesRead.text(file, line),
      (file, line) => followed.get(`${normalizePath(file)}:${line}`),
    );
  }

  function checksShown(answer: StrategyAnswer | undefined): { checks_shown?: string[] } {
    if (!request.findings.some((f) => f.policy === "SEC-03")) return {};
    return { checks_shown: checksOf(answer).flatMap((c) => (c.shownAt ? [c.file || "(any file)"] : [])) };
  }

  /**
   * A model's clearance of a SEC-03 question counts only when, for each file of its findings, a
   * cited line shows the check itself (a line that imports a library or names a function does not).
   */
  function uncheckedClearance(answer: StrategyAnswer): string | undefined {
    if (strategy.kind === "rules" || (Array.isArray(answer.concerns) && answer.concerns.length > 0)) return undefined;
    const missing = checksOf(answer).filter((c) => !c.shownAt);
    if (missing.length === 0) return undefined;
    const files = missing.map((c) => c.file || "the changed code").join(", ");
    const needs = missing.some((c) => c.need === "verification")
      ? "the line that verifies the token, signature or password (a verify or compare call the harness recognises)"
      : "a verify or compare call, or a condition that refuses the caller";
    const why = missing.flatMap((c) => c.notVerified ?? []);
    return (
      `the model's clearance cited no line that shows the check in ${files}: SEC-03 needs ${needs}` +
      (why.length > 0 ? ` (${why.slice(0, 3).join("; ")})` : "")
    );
  }

  async function execute(call: ToolCall, remainingChars: number): Promise<ToolResult> {
    counts.tool_calls++;
    const id = typeof call?.id === "string" ? call.id : String(counts.tool_calls);
    const tool = call?.tool;
    try {
      const out = await race(() =>
        tools(root as string, call, {
          maxChars: remainingChars,
          signal: controller.signal,
          ...(args.lost ? { lost: args.lost } : {}),
        }),
      );
      let { output, chars } = out;
      if (chars > remainingChars) {
        // A read past the budget is cut to what is left, and the budget is then spent.
        output = `${output.slice(0, remainingChars)}\n# truncated: the file-chars budget is spent`;
        chars = remainingChars;
      }
      counts.chars_read += chars;
      linesRead.record(call, { ok: true, output });
      return { id, tool, ok: true, output, chars };
    } catch (error) {
      // A tool the snapshot's loss kept from answering whole ends the run: no answer may rest on it.
      if (error instanceof Stop || isSnapshotIncomplete(error)) throw error;
      return { id, tool, ok: false, output: `error: ${messageOf(error)}`, chars: 0 };
    }
  }
}
