import type { ReviewRecord } from "../../domain/review.js";
import type { CliContext } from "../context.js";
import { formatResult } from "../format-result.js";
import { findReview } from "./decide.js";

/**
 * `gate status <review-id|owner/repo#n> [--json]`. A review id shows that review. A pull request
 * shows every review it has had (a push or a re-run adds one), newest first; with `--json` it
 * prints the newest one's result object, so stdout stays exactly one object.
 */
export async function statusCommand(ctx: CliContext, args: string[], json: boolean): Promise<number> {
  const [ref] = args;
  if (!ref) {
    ctx.err("usage: gate status <review-id|owner/repo#n> [--json]");
    return 2;
  }
  const gate = ctx.hasDatabase() ? await ctx.gate() : undefined;
  const byId = gate ? await gate.store.get(ref) : undefined;
  const reviews = byId ? [byId] : gate ? await gate.store.allForPr(ref) : [];
  const newest = reviews[0] ?? (await findReview(ctx, ref)); // findReview names the missing review
  if (json) {
    ctx.out(JSON.stringify(await (await ctx.gate()).runner.result(newest.id), null, 2));
    return 0;
  }
  if (reviews.length > 1) ctx.out(`${ref}: ${reviews.length} reviews, newest first\n`);
  const texts: string[] = [];
  for (const review of reviews) texts.push(await statusText(ctx, review));
  ctx.out(texts.join("\n\n"));
  return 0;
}

/** One review's result as text, with the people's entries of its audit log. */
async function statusText(ctx: CliContext, review: ReviewRecord): Promise<string> {
  const gate = await ctx.gate();
  const lines = [formatResult(await gate.runner.result(review.id))];
  const audit = (await gate.store.auditFor(review.id)).filter((a) => a.actor !== "gate");
  if (audit.length > 0) {
    lines.push("  audit:");
    for (const a of audit) lines.push(`    ${a.at} ${a.actor} ${a.action}: ${a.outcome}`);
  }
  return lines.join("\n");
}
