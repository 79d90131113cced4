import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { LARGE_CHANGE_FILES } from "../src/detectors/offload/detect-pool.js";
import { ROOT } from "./child-process.js";
import { benchGate, reviewFixture } from "./child/gate-with.js";
import {
  type AddedFile,
  addedLines,
  filesOfFolder,
  filesOfGitDir,
  ownSource,
  realRepos,
  variedFiles,
  writeAddedFixture,
} from "./real-code.js";
import { type Figure, median, progress, singleFigure } from "./stats.js";

const RUNS = 3;
/** The bound: 12 us of CPU per added line of real code, beyond start-up. */
const US_PER_LINE = 12;

/**
 * CPU of reviews of a PR adding `files` (rules mode, embedded defaults), in one gate already
 * started and warmed by a review of a large change (so the detection workers' start-up is
 * start-up, not review): seconds of CPU per run, the whole process (workers included).
 */
async function reviewCpu(files: AddedFile[], label: string): Promise<{ seconds: number[]; route: string | null }> {
  const fixtures = mkdtempSync(path.join(tmpdir(), "gate-bench-real-"));
  const { gate, dir } = await benchGate();
  const seconds: number[] = [];
  let route: string | null = null;
  try {
    writeAddedFixture(fixtures, "warm", variedFiles(ownSource(), LARGE_CHANGE_FILES, 20), 1);
    await reviewFixture(gate, fixtures, "warm", {
      repo: "bench/real",
      number: 1,
      headSha: `00000001${"c".repeat(32)}`,
    });
    writeAddedFixture(fixtures, "pr", files, 2);
    for (let i = 0; i < RUNS; i++) {
      const before = process.cpuUsage();
      route = await reviewFixture(gate, fixtures, "pr", {
        repo: "bench/real",
        number: 2 + i,
        headSha: `00000002${"c".repeat(32)}`,
      });
      const used = process.cpuUsage(before);
      seconds.push((used.user + used.system) / 1e6);
      progress(`${label}: run ${i + 1}/${RUNS}: ${seconds.at(-1)?.toFixed(2)} s CPU`);
    }
  } finally {
    await gate.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(fixtures, { recursive: true, force: true });
  }
  return { seconds, route };
}

/** The per-line figure of a PR adding `files`. */
async function perLineFigure(id: string, what: string, files: AddedFile[]): Promise<Figure> {
  const lines = addedLines(files);
  const { seconds, route } = await reviewCpu(files, id);
  return singleFigure(
    id,
    `${what}: ${files.length.toLocaleString("en")} files, ${lines.toLocaleString("en")} added lines, rules mode -> ${route}`,
    { label: "CPU per added line", unit: "us" },
    seconds.map((s) => (s * 1e6) / lines),
    { max: US_PER_LINE },
    [`${median(seconds).toFixed(2)} s CPU per review beyond start-up (median of ${RUNS})`],
  );
}

/** A figure that could not be measured here (a repository not fetched): printed, no goal judged. */
function skipped(id: string, what: string, why: string): Figure {
  return {
    id,
    what,
    a: {
      label: "CPU per added line",
      unit: "us",
      stats: { min: Number.NaN, median: Number.NaN, max: Number.NaN, runs: [] },
    },
    notes: [why],
  };
}

/** What the real-code bench reads of a fetched repository: its sources in its own language. */
const SOURCE_EXTS = [".js", ".mjs", ".cjs", ".ts", ".py", ".go", ".rb", ".rs", ".java"];

/**
 * Review CPU on real code (issue 43): a PR adding this checkout's whole `src/`, the same for the
 * fetched repositories of `BENCH_REAL_REPOS` (skipped when not fetched), and a 3,000-file PR whose
 * files are windows of this repository's TypeScript, each unlike the others.
 */
export async function realCodeFigures(): Promise<Figure[]> {
  const figures: Figure[] = [];
  figures.push(await perLineFigure("cpu_per_line_own_src", "a PR adding this repository's src/", ownSource()));
  for (const repo of realRepos()) {
    const id = `cpu_per_line_${repo.name.replace(/[^a-z0-9]+/gi, "_").toLowerCase()}`;
    const files = filesOfGitDir(repo.gitDir, SOURCE_EXTS);
    if (!files || files.length === 0) {
      figures.push(skipped(id, `a PR adding ${repo.name}'s sources`, `skipped: not fetched (${repo.gitDir})`));
      continue;
    }
    figures.push(await perLineFigure(id, `a PR adding ${repo.name}'s sources (fetched, not committed)`, files));
  }
  return figures;
}

/** CPU seconds of one review of a 3,000-file PR of varied real code (about 27 lines a file), beyond start-up. */
export async function largePrFigure(): Promise<Figure> {
  const pool = [
    ...ownSource(),
    ...filesOfFolder(path.join(ROOT, "test"), [".ts"], "test"),
    ...filesOfFolder(path.join(ROOT, "bench"), [".ts"], "bench"),
  ];
  const files = variedFiles(pool, 3_000, 27);
  const lines = addedLines(files);
  const { seconds, route } = await reviewCpu(files, "cpu_3000_files");
  return singleFigure(
    "cpu_3000_files",
    `CPU of one review of a 3,000-file PR (${lines.toLocaleString("en")} added lines, each file a different window of this repository's TypeScript), rules mode -> ${route}`,
    { label: "review", unit: "s CPU" },
    seconds,
    { max: 1 },
    [`${((median(seconds) * 1e6) / lines).toFixed(1)} us CPU per added line (goal ${US_PER_LINE})`],
  );
}
