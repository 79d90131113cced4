import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildGate } from "../../build-gate.js";
import { describeError } from "../../domain/errors.js";
import { listEvalFixtures, loadExpected } from "../../eval/expected.js";
import { formatEval } from "../../eval/format-eval.js";
import { scoreFixture, summarize, type FixtureOutcome } from "../../eval/score.js";
import { BUNDLED_FIXTURES_DIR } from "../../package-paths.js";
import type { CliContext } from "../context.js";
import { reviewFixture } from "./review.js";

/** Exit code when the evaluation cannot run at all (no key). */
const EXIT_NO_KEY = 2;

/**
 * `gate eval [--json]` (`npm run eval`): reviews every bundled fixture that has an `expected.json`
 * with Claude, and prints route accuracy, per-policy precision and recall (scoring in
 * `src/eval/score.ts`), and the model calls and cost. The reviews run on a throwaway SQLite file,
 * so the operator's store gets no evaluation reviews waiting for a person.
 *
 * Exit codes: 2 without ANTHROPIC_API_KEY (nothing is evaluated); 1 when no fixture was selected
 * or a fixture could not be reviewed (a run that evaluates nothing must fail: DESIGN.md lesson 7);
 * 0 otherwise, whatever the scores.
 *
 * @example process.exitCode = await evalCommand(ctx, { json: true });
 */
export async function evalCommand(ctx: CliContext, opts: { json: boolean }, fixturesDir = BUNDLED_FIXTURES_DIR): Promise<number> {
  if (!ctx.config.ANTHROPIC_API_KEY) {
    ctx.err(
      "gate eval: ANTHROPIC_API_KEY is not set, so nothing was evaluated. The evaluation reviews every " +
        "bundled fixture with Claude (real API calls, real cost): set ANTHROPIC_API_KEY and run it again.",
    );
    return EXIT_NO_KEY;
  }
  const fixtures = listEvalFixtures(fixturesDir);
  if (fixtures.length === 0) {
    ctx.err(`gate eval: no fixture with an expected.json in ${fixturesDir}; nothing was evaluated`);
    return 1;
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-eval-"));
  const gate = buildGate({ ...ctx.config, dbPath: path.join(dir, "eval.db"), dataDir: dir }, ctx.log);
  const evalCtx: CliContext = { ...ctx, gate };
  const outcomes: FixtureOutcome[] = [];
  try {
    for (const [i, fixture] of fixtures.entries()) {
      let outcome: FixtureOutcome;
      try {
        const expected = loadExpected(fixturesDir, fixture);
        try {
          const result = await reviewFixture(evalCtx, path.join(fixturesDir, fixture));
          outcome = { fixture, expected, result };
        } catch (error) {
          outcome = { fixture, expected, error: describeError(error) };
        }
      } catch (error) {
        // A bad expected.json: scored as a failed fixture that expects nothing.
        outcome = { fixture, expected: { route: "human", must_cite: [], must_not_cite: [] }, error: describeError(error) };
      }
      outcomes.push(outcome);
      const got = outcome.result ? `${outcome.result.route ?? "-"}, ${outcome.result.budget.model_calls} model calls` : `error: ${outcome.error}`;
      ctx.err(`eval ${i + 1}/${fixtures.length} ${fixture}: ${got}`);
    }
  } finally {
    gate.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const report = summarize(outcomes.map(scoreFixture));
  ctx.out(opts.json ? JSON.stringify(report, null, 2) : formatEval(report));
  return report.errors > 0 ? 1 : 0;
}
