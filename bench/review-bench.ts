import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { buildGate } from "../src/build-gate.js";
import { loadConfig } from "../src/config.js";
import { loadFixturePullRequest } from "../src/fixture/fixture.js";
import { BUNDLED_FIXTURES_DIR } from "../src/package-paths.js";
import { median, type BenchResult, type BenchRow } from "./grep-bench.js";

const RUNS = 15;
/** The three routes of the demo arc: the risk gate alone, the specialists, an investigation. */
const CASES = [
  { label: "auto_approved (001_readme_typo)", fixture: "001_readme_typo" },
  { label: "human, specialists (002_new_dependency)", fixture: "002_new_dependency" },
  { label: "approved after an investigation (003_auth_change)", fixture: "003_auth_change" },
];


/**
 * End-to-end review latency on the embedded defaults (SQLite file, rules reviewer, no model): the
 * time from registering a review to its result, checkpoints included. The "cheap, safe ones pass
 * in a second" promise is the first row.
 */
export async function reviewBench(): Promise<BenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-review-bench-"));
  const gate = buildGate(loadConfig({ GATE_DB: path.join(dir, "gate.db"), GATE_DATA_DIR: dir }, dir), pino({ level: "silent" }));
  const rows: BenchRow[] = [];
  try {
    for (const c of CASES) {
      const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, c.fixture);
      const times: number[] = [];
      let route = "";
      for (let i = 0; i <= RUNS; i++) {
        const review = gate.runner.register({
          source: { kind: "fixture", fixturesDir: BUNDLED_FIXTURES_DIR, name: c.fixture },
          repo: pr.repo,
          number: pr.number,
          headSha: pr.headSha,
        });
        const started = performance.now();
        const result = await gate.runner.run(review.id);
        const ms = performance.now() - started;
        route = result.route ?? "";
        if (i > 0) times.push(Math.round(ms * 10) / 10); // run 0 warms up
      }
      rows.push({ label: `${c.label} → ${route}`, median_ms: median(times), matches: 0, runs_ms: times });
    }
  } finally {
    gate.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return {
    name: "review",
    description: `one review end to end on SQLite, rules reviewer, ${RUNS} runs each after a warm-up`,
    rows,
    figures: { runs: RUNS },
  };
}
