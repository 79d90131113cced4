import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { childJson, processCpuMs, ROOT } from "./child-process.js";
import { type Figure, paired, pairedFigure, singleFigure } from "./stats.js";

/** RSS of a gate with 1,000 reviews waiting for a person against one with 10 (separate processes). */
export async function memoryFigure(): Promise<Figure> {
  const heap: number[] = [];
  const m = await paired(
    async () => {
      const r = await childJson<{ rss: number; heapUsed: number }>("waiting-reviews.ts", ["1000"], ["--expose-gc"]);
      heap.push(r.heapUsed / 2 ** 20);
      return r.rss / 2 ** 20;
    },
    async () => (await childJson<{ rss: number }>("waiting-reviews.ts", ["10"], ["--expose-gc"])).rss / 2 ** 20,
    { runs: 3, warmup: 0 },
  );
  const h = heap.sort((a, b) => a - b)[Math.floor(heap.length / 2)] ?? 0;
  return pairedFigure(
    "rss_waiting",
    "resident memory after a full GC: 1,000 reviews waiting for a person against 10",
    { label: "1,000 waiting", unit: "MiB" },
    { label: "10 waiting", unit: "MiB" },
    m,
    { max: 1.3 },
    [`heap used with 1,000 waiting: ${h.toFixed(1)} MiB (median)`],
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

/** `gate review` of a docs-only fixture against `node -e ''`, CPU of the whole process. */
export async function startupFigure(): Promise<Figure> {
  const cli = path.join(ROOT, "dist/cli/main.js");
  if (!existsSync(cli)) throw new Error("dist/ is missing: run `npm run build` first (npm run bench does)");
  const dir = mkdtempSync(path.join(tmpdir(), "gate-bench-cli-"));
  try {
    let n = 0;
    const m = await paired(
      () =>
        processCpuMs([cli, "review", path.join(ROOT, "fixtures/001_readme_typo"), "--json"], {
          GATE_DB: path.join(dir, `g${n++}.db`),
        }),
      () => processCpuMs(["-e", ""]),
      { runs: 7 },
    );
    return pairedFigure(
      "cli_review_cpu",
      "CPU of `gate review 001_readme_typo` (docs only) against `node -e ''`, whole processes",
      { label: "gate review", unit: "ms CPU" },
      { label: "node -e ''", unit: "ms CPU" },
      m,
      { max: 6 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
