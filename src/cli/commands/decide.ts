import { GateError } from "../../domain/errors.js";
import type { ResumeValue } from "../../domain/review.js";
import type { CliContext } from "../context.js";
import { formatResult } from "../format-result.js";

/** Finds a review by id, or the newest review of `owner/repo#n`. */
export async function findReview(ctx: CliContext, ref: string) {
  // No database yet means no review; opening it here would create it.
  const store = ctx.hasDatabase() ? (await ctx.gate()).store : undefined;
  const review = store ? ((await store.get(ref)) ?? (await store.latestForPr(ref))) : undefined;
  if (!review) throw new GateError("REVIEW_NOT_FOUND", `no review ${JSON.stringify(ref)}`);
  return review;
}

/**
 * `gate decide <review-id|pr> approve|reject [--by NAME] [--note TEXT]` and
 * `gate decide <review-id|pr> info "<question>" [--by NAME]`. `--by` names a GitHub login, a
 * Slack user id or a person; the decision policy decides whether they may.
 */
export async function decideCommand(
  ctx: CliContext,
  args: string[],
  opts: { by?: string; note?: string; json: boolean },
): Promise<number> {
  const [ref, kind, ...rest] = args;
  if (!ref || !kind || !["approve", "reject", "info"].includes(kind)) {
    ctx.err('usage: gate decide <review-id|owner/repo#n> approve|reject [--by NAME] [--note TEXT] | info "<question>"');
    return 2;
  }
  const by = opts.by ?? ctx.settings.cli.user ?? "cli";
  let resume: ResumeValue;
  if (kind === "info") {
    const question = rest.join(" ").trim();
    if (question.length < 3) {
      ctx.err('gate decide: info needs a question, e.g. gate decide r-123 info "does it still verify expiry?"');
      return 2;
    }
    resume = { kind: "info", by, question };
  } else {
    resume = { kind: kind as "approve" | "reject", by, ...(opts.note ? { note: opts.note } : {}) };
  }
  // The arguments are checked before the database is opened: a refused command writes nothing.
  const review = await findReview(ctx, ref);
  // The runner applies the one decision policy: `--by` the PR's author (its login in any case, or
  // the Slack id GATE_GITHUB_TO_SLACK gives it) is refused with the words Slack uses.
  const outcome = await (await ctx.gate()).runner.decide(review.id, resume, { door: { kind: "cli" } });
  if (!outcome.ok) {
    ctx.err(`gate decide: refused: ${outcome.message}`);
    return 1;
  }
  ctx.out(opts.json ? JSON.stringify(outcome.result, null, 2) : formatResult(outcome.result));
  return 0;
}
