import fs from "node:fs";
import path from "node:path";
import { describeError } from "../../domain/errors.js";
import type { ReviewResult } from "../../domain/review-result.js";
import { checkOutcome } from "../../github/check-run.js";
import { buildSarif } from "../../github/sarif.js";
import { failureSummary, stepSummary } from "../../github/step-summary.js";
import { packageVersion } from "../../package-version.js";
import type { CliContext } from "../context.js";
import { reviewReportParts } from "../review-report.js";
import { looksLikePrRef, printResult, reviewLive } from "./review.js";

/** `gate check`'s exit codes: the verdict, or that no verdict could be had. */
export const CHECK_EXIT = {
  /** approved, auto_approved or human_approved: the check run's `success`. */
  pass: 0,
  /** waiting for a person, rejected, failed (a review that could not finish waits for a person), superseded. */
  notPass: 1,
  /** no review: bad arguments, no credentials, GitHub's error, a file that could not be written. */
  couldNotReview: 2,
} as const;

export interface CheckOptions {
  json: boolean;
  /** Where to write the SARIF 2.1.0 log. */
  sarif?: string;
  /** Where to write the Markdown summary (`$GITHUB_STEP_SUMMARY`'s content). */
  summary?: string;
  /** Whether the review outlives the command (GATE_DB or GATE_DATABASE_URL is set): then `gate decide` can reach it. */
  kept: boolean;
}

const USAGE = "usage: gate check <owner/repo#n | PR URL> [--sarif FILE] [--summary FILE] [--json]";

function writeFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, text);
}

/** The exit code a result stands for: 0 exactly when its check run would conclude `success`. */
export function checkExitCode(result: ReviewResult): number {
  return checkOutcome(result, {}).conclusion === "success" ? CHECK_EXIT.pass : CHECK_EXIT.notPass;
}

/**
 * `gate check <owner/repo#n | PR URL>`: reviews a live pull request as `gate review` does (the same
 * `reviewLive`), prints the result, writes the SARIF log and the Markdown summary when asked, and
 * exits by the verdict (`CHECK_EXIT`). Made for CI (action.yml, docs/ci.md).
 */
export async function checkCommand(ctx: CliContext, args: string[], opts: CheckOptions): Promise<number> {
  const [arg, ...extra] = args;
  if (!arg || extra.length > 0 || !looksLikePrRef(arg)) {
    ctx.err(USAGE);
    return CHECK_EXIT.couldNotReview;
  }
  let result: ReviewResult;
  try {
    result = await reviewLive(ctx, arg);
  } catch (error) {
    const why = describeError(error);
    ctx.err(`gate: ${why}`);
    // The job's summary says why there is no verdict (best effort: the error above is what counts).
    if (opts.summary) {
      try {
        writeFile(opts.summary, failureSummary(arg, why));
      } catch {}
    }
    return CHECK_EXIT.couldNotReview;
  }
  printResult(ctx, result, { json: opts.json, decideHint: opts.kept });
  if (opts.sarif || opts.summary) {
    const parts = await reviewReportParts(await ctx.gate(), result);
    try {
      if (opts.sarif)
        writeFile(
          opts.sarif,
          `${JSON.stringify(buildSarif(result, parts.policies, { version: packageVersion() }), null, 2)}\n`,
        );
      if (opts.summary) writeFile(opts.summary, stepSummary(result, { deciders: parts.deciders }));
    } catch (error) {
      ctx.err(`gate: ${describeError(error)}`);
      return CHECK_EXIT.couldNotReview;
    }
  }
  return checkExitCode(result);
}
