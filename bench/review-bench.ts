import { LARGE_CHANGE_FILES } from "../src/detectors/offload/detect-pool.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { loadFixturePullRequest } from "../src/fixture/fixture.js";
import { BUNDLED_FIXTURES_DIR } from "../src/package-paths.js";
import { benchGate, reviewFixture } from "./child/gate-with.js";
import { type Figure, singleFigure } from "./stats.js";
import { writeSyntheticFixture } from "./synthetic.js";

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

/** CPU seconds one review of a 3,000-file PR takes in rules mode, beyond start-up. */
export async function largePrFigure(): Promise<Figure> {
  const fixtures = mkdtempSync(path.join(tmpdir(), "gate-bench-3000-"));
  const { gate, dir } = await benchGate();
  const runs: number[] = [];
  let route: string | null = null;
  try {
    // Large enough to be detected on a worker (GATE_WORKERS): the worker's start-up is start-up too.
    writeSyntheticFixture(fixtures, "warm", { files: LARGE_CHANGE_FILES, linesPerFile: 20, number: 1 });
    await reviewFixture(gate, fixtures, "warm", {
      repo: "bench/service",
      number: 1,
      headSha: `00000001${"a".repeat(32)}`,
    });
    writeSyntheticFixture(fixtures, "large", { files: 3_000, linesPerFile: 20, number: 2 });
    for (let i = 0; i < 3; i++) {
      const before = process.cpuUsage();
      route = await reviewFixture(gate, fixtures, "large", {
        repo: "bench/service",
        number: 2 + i,
        headSha: `00000002${"a".repeat(32)}`,
      });
      const used = process.cpuUsage(before);
      runs.push((used.user + used.system) / 1e6);
    }
  } finally {
    await gate.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(fixtures, { recursive: true, force: true });
  }
  return singleFigure(
    "cpu_3000_files",
    `CPU of one review of a 3,000-file PR (60,000 added lines), rules mode -> ${route}`,
    { label: "review", unit: "s CPU" },
    runs,
    { max: 1 },
  );
}
