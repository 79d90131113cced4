import { GateError } from "../../domain/errors.js";
import { loadPullRequest } from "../../github/intake.js";
import { formatPrRef, parsePrRef } from "../../github/pr-ref.js";
import type { ReviewSource } from "../../domain/review-source.js";
import { loadFixturePullRequest } from "../../fixture/fixture.js";
import type { PullRequest } from "../../domain/pull-request.js";
import type { ReviewResult } from "../../domain/review-result.js";
import type { CliContext } from "../context.js";
import { resolveFixtureArg } from "../fixture-arg.js";
import { formatResult } from "../format-result.js";
import { watchProgress } from "../progress.js";
import { registrationFor } from "../../review/registration.js";

/** Registers and runs a review of a fixture folder; returns its result. */
export async function reviewFixture(ctx: CliContext, arg: string): Promise<ReviewResult> {
  const { fixturesDir, name } = resolveFixtureArg(arg);
  // Load once up front: a bad fixture is named with its file before anything is stored.
  const pr = loadFixturePullRequest(fixturesDir, name);
  return registerAndRun(ctx, { kind: "fixture", fixturesDir, name }, pr);
}

/** Registers a review of a PR (so `status` knows it as queued) and runs it, showing progress. */
async function registerAndRun(ctx: CliContext, source: ReviewSource, pr: PullRequest): Promise<ReviewResult> {
  const gate = await ctx.gate();
  const review = await gate.runner.register(registrationFor(source, pr));
  const stop = watchProgress(gate.progress, review.id);
  try {
    return await gate.runner.run(review.id);
  } finally {
    stop();
  }
}

/** A PR reference rather than a folder: `owner/repo#123` or a pull-request URL. */
export function looksLikePrRef(arg: string): boolean {
  return /^https?:\/\//.test(arg) || /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+#\d+$/.test(arg);
}

/**
 * Registers and runs a review of a live pull request, through the same intake as the webhook: the
 * one code path of `gate review <owner/repo#n>` and `gate check`.
 */
export async function reviewLive(ctx: CliContext, arg: string): Promise<ReviewResult> {
  const ref = parsePrRef(arg);
  if (!ctx.github) {
    throw new GateError(
      "CONFIG_INVALID",
      `reviewing ${formatPrRef(ref)} needs GitHub credentials: set GITHUB_TOKEN (or a GitHub App, see README)`,
    );
  }
  const octokit = await ctx.github.forRepo(ref.owner, ref.repo);
  const { pr } = await loadPullRequest(octokit, ref);
  return registerAndRun(
    ctx,
    { kind: "github", owner: ref.owner, repo: ref.repo, number: ref.number, headSha: pr.headSha },
    pr,
  );
}

/** `gate review <fixture-dir | owner/repo#n | PR URL> [--json]`. */
export async function reviewCommand(ctx: CliContext, args: string[], json: boolean): Promise<number> {
  const [arg] = args;
  if (!arg) {
    ctx.err("usage: gate review <fixture-dir | owner/repo#n | PR URL> [--json]");
    return 2;
  }
  const result = looksLikePrRef(arg) ? await reviewLive(ctx, arg) : await reviewFixture(ctx, arg);
  printResult(ctx, result, { json, decideHint: true });
  return 0;
}

/**
 * A review's result on stdout, as `review` and `check` print it: the JSON object, or the text and,
 * for a review that waits and is kept (`decideHint`), the command that decides it.
 */
export function printResult(ctx: CliContext, result: ReviewResult, opts: { json: boolean; decideHint: boolean }): void {
  ctx.out(opts.json ? JSON.stringify(result, null, 2) : formatResult(result));
  if (!opts.json && opts.decideHint && result.status === "waiting_for_human") {
    ctx.out(`\n  to decide: npx gate decide ${result.review_id} approve|reject --by <name> [--note <text>]`);
  }
}
