import { loadFixturePullRequest } from "../../intake/fixture.js";
import type { ReviewResult } from "../../review/result.js";
import type { CliContext } from "../context.js";
import { resolveFixtureArg } from "../fixture-arg.js";
import { formatResult } from "../format-result.js";
import { watchProgress } from "../progress.js";

/** Registers and runs a review of a fixture folder; returns its result. */
export async function reviewFixture(ctx: CliContext, arg: string): Promise<ReviewResult> {
  const { fixturesDir, name } = resolveFixtureArg(arg);
  // Load once up front: a bad fixture is named with its file before anything is stored.
  const pr = loadFixturePullRequest(fixturesDir, name);
  const review = ctx.gate.runner.register({
    source: { kind: "fixture", fixturesDir, name },
    repo: pr.repo,
    number: pr.number,
    headSha: pr.headSha,
    title: pr.title,
    url: pr.url,
    author: pr.author,
  });
  const stop = watchProgress(ctx, review.id);
  try {
    return await ctx.gate.runner.run(review.id);
  } finally {
    stop();
  }
}

/** `gate review <fixture-dir> [--json]`. */
export async function reviewCommand(ctx: CliContext, args: string[], json: boolean): Promise<number> {
  const [arg] = args;
  if (!arg) {
    ctx.err("usage: gate review <fixture-dir> [--json]");
    return 2;
  }
  const result = await reviewFixture(ctx, arg);
  ctx.out(json ? JSON.stringify(result, null, 2) : formatResult(result));
  if (!json && result.status === "waiting_for_human") {
    ctx.out(`\n  to decide: gate decide ${result.review_id} approve|reject --by <name> [--note <text>]`);
  }
  return 0;
}
