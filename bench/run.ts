import { detectLinearity } from "./detect-bench.js";
import { evidenceFigures } from "./evidence-bench.js";
import { grepFigure } from "./grep-bench.js";
import { heavyAckFigure } from "./heavy-bench.js";
import { languageFigures } from "./language-bench.js";
import { osvLockfileFigure } from "./osv-bench.js";
import { memoryFigure, startupFigure, storageFigures } from "./process-bench.js";
import { largePrFigure, realCodeFigures } from "./real-code-bench.js";
import { latencyFigures } from "./review-bench.js";
import { replicaFigures } from "./replica-bench.js";
import { serverFigures } from "./server-bench.js";
import type { Figure } from "./stats.js";
import { whatifFigures } from "./whatif-bench.js";

/** Every bench `npm run bench` runs, in order (`--only` picks some by name); each gives figures. */
const BENCHES: Record<string, () => Promise<Figure[]>> = {
  latency: latencyFigures,
  detect: async () => [await detectLinearity(), await largePrFigure()],
  "real-code": realCodeFigures,
  languages: languageFigures,
  storage: storageFigures,
  startup: async () => [await startupFigure()],
  memory: async () => [await memoryFigure()],
  grep: async () => [await grepFigure()],
  osv: async () => [await osvLockfileFigure()],
  server: serverFigures,
  heavy: async () => [await heavyAckFigure()],
  replicas: replicaFigures,
  whatif: whatifFigures,
  evidence: evidenceFigures,
};

function fmt(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3);
}

function row(label: string, unit: string, s: { min: number; median: number; max: number }): string {
  return `    ${label.padEnd(34)} ${fmt(s.median).padStart(10)} ${unit.padEnd(9)} (min ${fmt(s.min)}, max ${fmt(s.max)})`;
}

function text(f: Figure): string {
  const goal = f.goal
    ? `goal: ${f.goal.on === "ratio" ? "ratio" : f.a.label} ${f.goal.max !== undefined ? `<= ${f.goal.max}` : `>= ${f.goal.min}`} -> ${f.met ? "met" : "NOT met"}`
    : "";
  return [
    `${f.id}: ${f.what}`,
    row(f.a.label, f.a.unit, f.a.stats),
    ...(f.b ? [row(f.b.label, f.b.unit, f.b.stats)] : []),
    ...(f.ratio ? [row("ratio (pair by pair)", "x", f.ratio)] : []),
    ...(goal ? [`    ${goal}`] : []),
    ...(f.notes ?? []).map((n) => `    note: ${n}`),
  ].join("\n");
}

/**
 * `npm run bench [-- --json] [-- --only detect,grep]`: measures every figure, pairs interleaved in
 * one run; prints a report, or one JSON object with `--json`. Progress goes to stderr.
 *
 * @example node --import tsx bench/run.ts --json --only detect
 */
async function main(argv: string[]): Promise<void> {
  const json = argv.includes("--json");
  const onlyAt = argv.indexOf("--only");
  const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? "").split(",")) : undefined;
  const figures: Figure[] = [];
  for (const [name, bench] of Object.entries(BENCHES)) {
    if (only && !only.has(name)) continue;
    process.stderr.write(`bench: ${name}...\n`);
    for (const f of await bench()) {
      figures.push(f);
      if (!json) process.stdout.write(`${text(f)}\n\n`);
    }
  }
  if (json) {
    const out = {
      node: process.version,
      platform: process.platform,
      cpus: (await import("node:os")).cpus().length,
      figures,
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } else {
    const missed = figures.filter((f) => f.met === false).map((f) => f.id);
    process.stdout.write(
      `${figures.length} figures; goals not met: ${missed.length === 0 ? "none" : missed.join(", ")}\n`,
    );
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
