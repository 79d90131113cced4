import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildGate } from "../../build-gate.js";
import { describeError } from "../../domain/errors.js";
import { listEvalFixtures, loadExpected } from "../../eval/expected.js";
import { formatEval } from "../../eval/format-eval.js";
import { scoreFixture, summarize, type EvalRun, type FixtureOutcome } from "../../eval/score.js";
import { BUNDLED_FIXTURES_DIR } from "../../package-paths.js";
import type { Settings } from "../../settings/index.js";
import { contextOver, type CliContext } from "../context.js";
import { reviewFixture } from "./review.js";

/**
 * The corpus `gate eval` scores when given no folder: the package's `fixtures/` and, when it
 * exists, the evaluation corpus in its `eval/` subfolder.
 *
 * @example defaultEvalCorpus() // ["/…/fixtures", "/…/fixtures/eval"]
 */
export function defaultEvalCorpus(fixturesDir = BUNDLED_FIXTURES_DIR): string[] {
  const evalDir = path.join(fixturesDir, "eval");
  return fs.existsSync(evalDir) ? [fixturesDir, evalDir] : [fixturesDir];
}

/** The folder every corpus folder lies in, so that fixture names stay short and distinct. */
function commonParent(dirs: string[]): string {
  let parent = dirs[0] ?? "";
  while (!dirs.every((d) => d === parent || d.startsWith(`${parent}${path.sep}`))) {
    const up = path.dirname(parent);
    if (up === parent) break;
    parent = up;
  }
  return parent;
}

/** The settings with Claude switched off: the rules reviewer and the deterministic investigator. */
function rulesOnly(settings: Settings): Settings {
  const { apiKey: _key, ...claude } = settings.claude;
  return { ...settings, claude };
}

/**
 * `gate eval [<dir>...] [--json] [--rules]` (`npm run eval`): reviews every fixture that has an
 * `expected.json` in the corpus folders (default: the package's `fixtures/` and its `eval/` subfolder)
 * and prints route accuracy, unsafe passes (a risky fixture approved), needless escalations (a
 * clean fixture sent to a person), per-policy precision and recall (scoring in
 * `src/eval/score.ts`) and the model calls and cost. Without ANTHROPIC_API_KEY, or with `--rules`,
 * it runs in rules mode (no model, no cost); with a key, the specialists and the investigator are
 * Claude. The reviews run on a throwaway SQLite file, so the operator's store gets no evaluation
 * reviews waiting for a person.
 *
 * Exit codes: 1 when no fixture was selected or a fixture could not be reviewed (a run that
 * evaluates nothing must fail: docs/design.md, reason 7); 0 otherwise, whatever the scores.
 *
 * @example process.exitCode = await evalCommand(ctx, { json: true });
 */
export async function evalCommand(
  ctx: CliContext,
  opts: { json: boolean; rules?: boolean },
  corpus: string | string[] = defaultEvalCorpus(),
): Promise<number> {
  const dirs = (Array.isArray(corpus) ? corpus : [corpus]).map((d) => path.resolve(d));
  const missing = dirs.filter((d) => !fs.existsSync(d) || !fs.statSync(d).isDirectory());
  if (missing.length > 0) {
    ctx.err(`gate eval: not a folder: ${missing.join(", ")}; nothing was evaluated`);
    return 1;
  }
  const parent = commonParent(dirs);
  const fixtures = dirs.flatMap((dir) =>
    listEvalFixtures(dir).map((name) => ({
      dir,
      name,
      label: path.relative(parent, path.join(dir, name)).split(path.sep).join("/"),
    })),
  );
  if (fixtures.length === 0) {
    ctx.err(`gate eval: no fixture with an expected.json in ${dirs.join(", ")}; nothing was evaluated`);
    return 1;
  }
  const mode = opts.rules === true || !ctx.settings.claude.apiKey ? "rules" : "model";
  ctx.err(
    mode === "rules"
      ? `gate eval: rules mode (no model): ${fixtures.length} fixtures`
      : `gate eval: Claude reviews ${fixtures.length} fixtures (real API calls, real cost)`,
  );

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-eval-"));
  const settings = {
    ...(mode === "rules" ? rulesOnly(ctx.settings) : ctx.settings),
    database: { kind: "sqlite" as const, path: path.join(dir, "eval.db") },
    dataDir: dir,
  };
  const gate = await buildGate(settings, ctx.log);
  const evalCtx = contextOver(gate, { settings, log: ctx.log, out: ctx.out, err: ctx.err });
  const outcomes: FixtureOutcome[] = [];
  try {
    for (const [i, { dir: fixturesDir, name, label }] of fixtures.entries()) {
      let outcome: FixtureOutcome;
      try {
        const expected = loadExpected(fixturesDir, name);
        try {
          const result = await reviewFixture(evalCtx, path.join(fixturesDir, name));
          outcome = { fixture: label, expected, result };
        } catch (error) {
          outcome = { fixture: label, expected, error: describeError(error) };
        }
      } catch (error) {
        // A bad expected.json: scored as a failed fixture that expects nothing.
        outcome = {
          fixture: label,
          expected: { route: "human", must_cite: [], must_not_cite: [] },
          error: describeError(error),
        };
      }
      outcomes.push(outcome);
      const got = outcome.result
        ? `${outcome.result.route ?? "-"}, ${outcome.result.budget.model_calls} model calls`
        : `error: ${outcome.error}`;
      ctx.err(`eval ${i + 1}/${fixtures.length} ${label}: ${got}`);
    }
  } finally {
    await gate.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const report: EvalRun = { mode, corpus: dirs, ...summarize(outcomes.map(scoreFixture)) };
  ctx.out(opts.json ? JSON.stringify(report, null, 2) : formatEval(report));
  return report.errors > 0 ? 1 : 0;
}
