import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { childJson, processCpuMs, ROOT } from "./child-process.js";
import { type Figure, median, paired, pairedFigure, singleFigure } from "./stats.js";

const run = promisify(execFile);

/** RSS of a gate with 1,000 reviews waiting for a person against one with 10 (separate processes). */
export async function memoryFigure(): Promise<Figure> {
  const heap: number[] = [];
  const rss = async (args: string[], heapOut?: number[]) => {
    const r = await childJson<{ rss: number; heapUsed: number }>("waiting-reviews.ts", args, ["--expose-gc"]);
    heapOut?.push(r.heapUsed / 2 ** 20);
    return r.rss / 2 ** 20;
  };
  const m = await paired(
    () => rss(["1000"], heap),
    () => rss(["10"]),
    { runs: 3, warmup: 0 },
  );
  // The same work on both sides (1,000 reviews run), 990 of them then settled on one: what the
  // waiting reviews themselves hold, apart from what running 990 more reviews warms up (compiled
  // code, SQLite's page cache, the allocator's pools).
  const same = await paired(
    () => rss(["1000"]),
    () => rss(["1000", "990"]),
    { runs: 3, warmup: 0, label: "same work" },
  );
  const h = heap.sort((a, b) => a - b)[Math.floor(heap.length / 2)] ?? 0;
  return pairedFigure(
    "rss_waiting",
    "resident memory after a full GC: 1,000 reviews waiting for a person against 10",
    { label: "1,000 waiting", unit: "MiB" },
    { label: "10 waiting", unit: "MiB" },
    m,
    { max: 1.1 },
    [
      `heap used with 1,000 waiting: ${h.toFixed(1)} MiB (median)`,
      `after the same 1,000 reviews, 1,000 waiting against 10 waiting (990 settled): ${median(same.ratio).toFixed(2)}x (${median(same.a).toFixed(0)} / ${median(same.b).toFixed(0)} MiB, median of 3)`,
    ],
  );
}

/** Bytes written by one review of a 10 MB diff, and what a settled docs-only review leaves. */
export async function storageFigures(): Promise<Figure[]> {
  const runs: Array<{ diffBytes: number; reviewWrote: number; perDocsReview: number }> = [];
  for (let i = 0; i < 3; i++) runs.push(await childJson("storage.ts", []));
  return [
    singleFigure(
      "db_write_per_diff",
      "bytes one review writes (SQLite, WAL included) per byte of its diff (200 files, 10 MB)",
      { label: "written / diff", unit: "x" },
      runs.map((r) => r.reviewWrote / r.diffBytes),
      { max: 1.5 },
    ),
    singleFigure(
      "docs_review_leaves",
      "database growth a settled docs-only review leaves (after checkpoint and VACUUM)",
      { label: "per review", unit: "KB" },
      runs.map((r) => r.perDocsReview / 1000),
      { max: 5 },
    ),
  ];
}

/** The installed `gate` command (package.json `bin`): the bundle with its code cache. */
const GATE_BIN = path.join(ROOT, "dist/cli/gate.cjs");
/** The same CLI unbundled: every module loaded on its own. */
const GATE_UNBUNDLED = path.join(ROOT, "dist/cli/main.js");

/**
 * `gate review` of a docs-only fixture against `node -e ''`, CPU of the whole process: the
 * installed command, and (in a note) the unbundled CLI for comparison.
 */
export async function startupFigure(): Promise<Figure> {
  for (const cli of [GATE_BIN, GATE_UNBUNDLED]) {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first (npm run bench does)`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "gate-bench-cli-"));
  try {
    let n = 0;
    const review = (cli: string) => {
      const args = [cli, "review", path.join(ROOT, "fixtures/001_readme_typo"), "--json"];
      return { args, env: { GATE_DB: path.join(dir, `g${n++}.db`) } };
    };
    // A command that failed early would look fast: each side must first give the review's result.
    for (const cli of [GATE_BIN, GATE_UNBUNDLED]) {
      const { args, env } = review(cli);
      const { stdout } = await run(process.execPath, args, { env: { PATH: process.env.PATH ?? "", ...env } });
      if ((JSON.parse(stdout) as { route?: string }).route !== "auto_approved") {
        throw new Error(`${cli} did not review the fixture: ${stdout.slice(0, 300)}`);
      }
    }
    const cpu = (cli: string) => {
      const { args, env } = review(cli);
      return processCpuMs(args, env);
    };
    const m = await paired(
      () => cpu(GATE_BIN),
      () => processCpuMs(["-e", ""]),
      { runs: 9 },
    );
    const unbundled = await paired(
      () => cpu(GATE_UNBUNDLED),
      () => processCpuMs(["-e", ""]),
      { runs: 3, warmup: 0, label: "unbundled" },
    );
    return pairedFigure(
      "cli_review_cpu",
      "CPU of `gate review 001_readme_typo` (docs only) against `node -e ''`, whole processes",
      { label: "gate review", unit: "ms CPU" },
      { label: "node -e ''", unit: "ms CPU" },
      m,
      { max: 2 },
      [
        `the same review unbundled (node dist/cli/main.js): ${median(unbundled.a).toFixed(0)} ms CPU, ${median(unbundled.ratio).toFixed(1)}x (median of 3)`,
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
