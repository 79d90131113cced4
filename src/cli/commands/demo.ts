import type { ReviewResult } from "../../domain/review-result.js";
import type { CliContext } from "../context.js";
import { formatResult } from "../format-result.js";
import { reviewFixture } from "./review.js";

/** The demo arc: a typo, a version bump, a GPL dependency, an auth refactor, and one that logs a token. */
export const DEMO_FIXTURES = [
  "001_readme_typo",
  "017_version_bump",
  "002_new_dependency",
  "003_auth_change",
  "003b_auth_change_logs_token",
] as const;

/** `gate demo [--json]`: reviews the demo fixtures on the embedded defaults. */
export async function demoCommand(
  ctx: CliContext,
  opts: { json: boolean; card: (result: ReviewResult) => string },
): Promise<number> {
  const started = Date.now();
  const results: ReviewResult[] = [];
  for (const name of DEMO_FIXTURES) {
    ctx.err(`reviewing ${name} ...`);
    const result = await reviewFixture(ctx, name);
    results.push(result);
    if (opts.json) continue;
    ctx.out(`\n=== ${name} ===`);
    ctx.out(formatResult(result));
    if (result.status === "waiting_for_human") {
      ctx.out(`\n  The escalation, as the Slack card reads:\n`);
      ctx.out(opts.card(result).replace(/^/gm, "  | "));
      ctx.out(`\n  To resume it:  npx gate decide ${result.review_id} approve --by alice --note "reviewed"`);
      ctx.out(`           or:  npx gate decide ${result.review_id} reject --by alice --note "<why>"`);
      if (result.budget.cycles_used < result.budget.cycles_max) {
        ctx.out(`           or:  npx gate decide ${result.review_id} info "where is the token logged?" --by alice`);
      }
    }
  }
  if (opts.json) ctx.out(JSON.stringify(results, null, 2));
  else {
    const models = results.reduce((n, r) => n + r.budget.model_calls, 0);
    ctx.out(`\n${results.length} reviews in ${((Date.now() - started) / 1000).toFixed(1)} s, ${models} model calls, database ${ctx.config.dbPath}`);
  }
  return 0;
}
