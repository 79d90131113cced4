import { rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { loadFixturePullRequest } from "../src/fixture/fixture.js";
import { BUNDLED_FIXTURES_DIR } from "../src/package-paths.js";
import { benchGate, reviewFixture } from "./child/gate-with.js";
import { type Figure, singleFigure } from "./stats.js";

const RUNS = 15;
/** The three routes of the demo arc: the risk gate alone, the specialists, an investigation. */
const CASES = [
  { id: "latency_auto_approved", fixture: "001_readme_typo" },
  { id: "latency_human", fixture: "002_new_dependency" },
  { id: "latency_investigated", fixture: "003_auth_change" },
];

/**
 * End-to-end review latency on the embedded defaults (SQLite file, rules reviewer, no model): the
 * time from registering a review to its result, checkpoints included. The "cheap, safe ones pass
 * in a second" promise is the first figure.
 */
export async function latencyFigures(): Promise<Figure[]> {
  const { gate, dir } = await benchGate();
  const figures: Figure[] = [];
  try {
    for (const c of CASES) {
      const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, c.fixture);
      const times: number[] = [];
      let route: string | null = null;
      for (let i = 0; i <= RUNS; i++) {
        const started = performance.now();
        route = await reviewFixture(gate, BUNDLED_FIXTURES_DIR, c.fixture, pr);
        if (i > 0) times.push(performance.now() - started); // run 0 warms up
      }
      figures.push(
        singleFigure(
          c.id,
          `one review of ${c.fixture} end to end (SQLite, rules) -> ${route}`,
          { label: "latency", unit: "ms" },
          times,
        ),
      );
    }
  } finally {
    await gate.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
