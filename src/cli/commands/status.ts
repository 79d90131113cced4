import type { CliContext } from "../context.js";
import { formatResult } from "../format-result.js";
import { findReview } from "./decide.js";

/** `gate status <review-id|owner/repo#n> [--json]`: the same result object, for the current state. */
export async function statusCommand(ctx: CliContext, args: string[], json: boolean): Promise<number> {
  const [ref] = args;
  if (!ref) {
    ctx.err("usage: gate status <review-id|owner/repo#n> [--json]");
    return 2;
  }
  const review = findReview(ctx, ref);
  const result = await ctx.gate.runner.result(review.id);
  if (json) {
    ctx.out(JSON.stringify(result, null, 2));
    return 0;
  }
  ctx.out(formatResult(result));
  const audit = ctx.gate.store.auditFor(review.id).filter((a) => a.actor !== "gate");
  if (audit.length > 0) {
    ctx.out("  audit:");
    for (const a of audit) ctx.out(`    ${a.at} ${a.actor} ${a.action}: ${a.outcome}`);
  }
  return 0;
}
