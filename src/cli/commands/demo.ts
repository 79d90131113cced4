import { describeDatabase } from "../../store/open-state.js";
import type { KnownBlock } from "@slack/types";
import type { ReviewResult } from "../../domain/review-result.js";
import { cardBlocks, cardText } from "../card-text.js";
import type { CliContext } from "../context.js";
import { formatResult } from "../format-result.js";
import { reviewFixture } from "./review.js";

/**
 * The demo arc: a typo, a version bump, a GPL dependency, a dependency with a known
 * vulnerability, an auth refactor, and one that logs a token.
 */
export const DEMO_FIXTURES = [
  "001_readme_typo",
  "017_version_bump",
  "002_new_dependency",
  "018_vulnerable_dependency",
  "003_auth_change",
  "003b_auth_change_logs_token",
] as const;

/** One waiting review's card, as `gate demo --blocks` prints it. */
export interface DemoCard {
  fixture: string;
  review_id: string;
  /** The Block Kit blocks Slack receives (paste `{ "blocks": ... }` into Slack's Block Kit Builder). */
  blocks: KnownBlock[];
}

/**
 * `gate demo [--json | --blocks]`: reviews the demo fixtures on the embedded defaults. The text
 * shows each result, and each waiting review's card and the commands that resume it. `--json`
 * prints the results as one JSON array; `--blocks` prints the waiting reviews' cards as one JSON
 * array of `DemoCard`. Either way nothing but that JSON goes to stdout.
 */
export async function demoCommand(ctx: CliContext, opts: { json: boolean; blocks: boolean }): Promise<number> {
  if (opts.json && opts.blocks) {
    ctx.err("gate demo: choose one of --json (the review results) and --blocks (the Slack cards)");
    return 2;
  }
  const text = !opts.json && !opts.blocks;
  const started = Date.now();
  const results: ReviewResult[] = [];
  const cards: DemoCard[] = [];
  for (const name of DEMO_FIXTURES) {
    ctx.err(`reviewing ${name} ...`);
    const result = await reviewFixture(ctx, name);
    results.push(result);
    const waiting = result.status === "waiting_for_human";
    if (opts.blocks && waiting)
      cards.push({ fixture: name, review_id: result.review_id, blocks: await cardBlocks(ctx, result) });
    if (!text) continue;
    ctx.out(`\n=== ${name} ===`);
    ctx.out(formatResult(result));
    if (waiting) {
      ctx.out(`\n  The escalation, as the Slack card reads:\n`);
      ctx.out((await cardText(ctx, result)).replace(/^/gm, "  | "));
      ctx.out(`\n  To resume it:  npx gate decide ${result.review_id} approve --by alice --note "reviewed"`);
      ctx.out(`           or:  npx gate decide ${result.review_id} reject --by alice --note "<why>"`);
      if (result.budget.cycles_used < result.budget.cycles_max) {
        ctx.out(`           or:  npx gate decide ${result.review_id} info "where is the token logged?" --by alice`);
      }
    }
  }
  const models = results.reduce((n, r) => n + r.budget.model_calls, 0);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const summary = `${results.length} reviews in ${seconds} s, ${models} model calls, database ${describeDatabase(ctx.settings.database)}`;
  if (opts.json) ctx.out(JSON.stringify(results, null, 2));
  else if (opts.blocks) ctx.out(JSON.stringify(cards, null, 2));
  if (text) ctx.out(`\n${summary}`);
  else ctx.err(summary);
  return 0;
}
