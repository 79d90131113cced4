import { buildSarif } from "../../github/sarif.js";
import { packageVersion } from "../../package-version.js";
import type { CliContext } from "../context.js";
import { reviewReportParts } from "../review-report.js";
import { findReview } from "./decide.js";

/**
 * `gate sarif <review-id|owner/repo#n>`: the SARIF 2.1.0 log of a stored review (a pull request
 * means its newest review) on stdout, written by the same function as `gate check --sarif`.
 */
export async function sarifCommand(ctx: CliContext, args: string[]): Promise<number> {
  const [ref, ...extra] = args;
  if (!ref || extra.length > 0) {
    ctx.err("usage: gate sarif <review-id|owner/repo#n>");
    return 2;
  }
  const review = await findReview(ctx, ref);
  const gate = await ctx.gate();
  const result = await gate.runner.result(review.id);
  const { policies } = await reviewReportParts(gate, result);
  ctx.out(JSON.stringify(buildSarif(result, policies, { version: packageVersion() }), null, 2));
  return 0;
}
