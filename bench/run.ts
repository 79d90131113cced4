import { grepBench, type BenchResult } from "./grep-bench.js";
import { reviewBench } from "./review-bench.js";

/** Every bench `npm run bench` runs, in order. */
const BENCHES: Array<() => Promise<BenchResult>> = [reviewBench, grepBench];

function table(result: BenchResult): string {
  const width = Math.max(...result.rows.map((r) => r.label.length), 10);
  const lines = [
    `${result.name}: ${result.description}`,
    `  ${"contender".padEnd(width)}  ${"median ms".padStart(10)}  ${"matches".padStart(8)}  runs ms`,
    ...result.rows.map(
      (r) => `  ${r.label.padEnd(width)}  ${r.median_ms.toFixed(1).padStart(10)}  ${String(r.matches).padStart(8)}  ${r.runs_ms.join(", ")}`,
    ),
    ...Object.entries(result.figures).map(([k, v]) => `  ${k}: ${v}`),
  ];
  return lines.join("\n");
}

/**
 * `npm run bench [-- --json]`: runs every bench; prints a table, or one JSON object with `--json`.
 *
 * @example node --import tsx bench/run.ts --json
 */
async function main(argv: string[]): Promise<void> {
  const json = argv.includes("--json");
  const results: BenchResult[] = [];
  for (const bench of BENCHES) results.push(await bench());
  if (json) {
    process.stdout.write(`${JSON.stringify({ node: process.version, platform: process.platform, benches: results })}\n`);
  } else {
    process.stdout.write(`${results.map(table).join("\n\n")}\n`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
